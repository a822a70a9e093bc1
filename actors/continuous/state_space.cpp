#include "actors/continuous/state_space.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

StateSpace::StateSpace(std::string name)
    : LinearSystem(std::move(name), kInfo, TimeMode::kContinuous, PortKind::kContinuous) {}

void StateSpace::configure(const ParameterScope& scope) {
  LinearSystem::configure(scope);
  set_feedthrough(!zero_d_);
  derivative_rows_ = RowBlocks(vector(a_), vector(b_), n_, n_, m_);
  output_rows_ = RowBlocks(vector(c_), {}, p_, n_, 0);
}

void StateSpace::initialize(FireContext& context) const { initial_states(context.mutable_states()); }

void StateSpace::evaluate(EvalContext& context) const {
  const auto y = context.output(out_);
  output_rows_.multiply(context.states().data(), nullptr, y.data());
  if (zero_d_) return;  // no feedthrough: the input may not be computed yet
  const auto d = vector(d_);
  const auto u = context.input(in_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t k = 0; k < m_; ++k) sum += d[r * m_ + k] * u[k];
    y[r] += sum;
  }
}

void StateSpace::local_jacobian(LocalJacobian& jacobian) const {
  // The matrices' nonzeros, as they are: a zero of A is no dependency.
  const auto a = vector(a_);
  const auto b = vector(b_);
  const auto c = vector(c_);
  const auto add = [](std::size_t rows, std::size_t cols, std::span<const double> m, auto&& entry) {
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t k = 0; k < cols; ++k) {
        if (m[r * cols + k] != 0.0)
          entry(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(k), m[r * cols + k]);
      }
    }
  };
  add(n_, n_, a, [&](std::uint32_t s, std::uint32_t r, double v) { jacobian.derivative_state(s, r, v); });
  add(n_, m_, b,
      [&](std::uint32_t s, std::uint32_t j, double v) { jacobian.derivative_input(s, in_.index, j, v); });
  add(p_, n_, c,
      [&](std::uint32_t i, std::uint32_t r, double v) { jacobian.output_state(out_.index, i, r, v); });
  if (!zero_d_) {
    add(p_, m_, vector(d_), [&](std::uint32_t i, std::uint32_t j, double v) {
      jacobian.output_input(out_.index, i, in_.index, j, v);
    });
  }
}

void StateSpace::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  derivative_rows_.multiply(context.states().data(), context.input(in_).data(), dxdt.data());
}

}  // namespace ctde
