#include "actors/continuous/state_space.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

StateSpace::StateSpace(std::string name)
    : LinearSystem(std::move(name), kInfo, TimeMode::kContinuous, PortKind::kContinuous) {}

void StateSpace::configure(const ParameterScope& scope) {
  LinearSystem::configure(scope);
  set_feedthrough(!zero_d_);
}

void StateSpace::initialize(FireContext& context) const { initial_states(context.mutable_states()); }

void StateSpace::evaluate(EvalContext& context) const {
  const auto x = context.states();
  const auto y = context.output(out_);
  const auto c = vector(c_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += c[r * n_ + j] * x[j];
    y[r] = sum;
  }
  if (zero_d_) return;  // no feedthrough: the input may not be computed yet
  const auto d = vector(d_);
  const auto u = context.input(in_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t k = 0; k < m_; ++k) sum += d[r * m_ + k] * u[k];
    y[r] += sum;
  }
}

void StateSpace::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  // Sizes and rows in locals: a store to dxdt might alias the members, and
  // the compiler would load them again after every row. The same terms in
  // the same order as before.
  const std::size_t n = n_;
  const std::size_t m = m_;
  const double* x = context.states().data();
  const double* u = context.input(in_).data();
  const double* a = vector(a_).data();
  const double* b = vector(b_).data();
  for (std::size_t r = 0; r < n; ++r) {
    const double* a_row = a + r * n;
    const double* b_row = b + r * m;
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) sum += a_row[j] * x[j];
    for (std::size_t k = 0; k < m; ++k) sum += b_row[k] * u[k];
    dxdt[r] = sum;
  }
}

}  // namespace ctde
