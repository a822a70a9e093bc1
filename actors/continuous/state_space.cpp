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
  const auto x = context.states();
  const auto u = context.input(in_);
  const auto a = vector(a_);
  const auto b = vector(b_);
  for (std::size_t r = 0; r < n_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += a[r * n_ + j] * x[j];
    for (std::size_t k = 0; k < m_; ++k) sum += b[r * m_ + k] * u[k];
    dxdt[r] = sum;
  }
}

}  // namespace ctde
