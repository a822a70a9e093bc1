#include "actors/continuous/derivative.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

Derivative::Derivative(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous) {
  tau_ = declare_parameter("time_constant", ParamKind::kScalar, 0.001);
  initial_ = declare_parameter("initial", ParamKind::kScalar, 0.0);
}

void Derivative::configure(const ParameterScope& /*scope*/) {
  if (!(scalar(tau_) > 0) || !std::isfinite(scalar(tau_))) {
    fail(tau_, "must be a finite time constant > 0 (s), got " + format_double(scalar(tau_)));
  }
  if (!std::isfinite(scalar(initial_)))
    fail(initial_, "must be finite, got " + format_double(scalar(initial_)));
}

void Derivative::widths_resolved(std::span<const int> input_widths, std::span<const int> /*output_widths*/) {
  width_ = static_cast<std::size_t>(input_widths[in_.index]);
}

void Derivative::initialize(FireContext& context) const {
  for (double& x : context.mutable_states()) x = scalar(initial_);
}

void Derivative::evaluate(EvalContext& context) const {
  const auto u = context.input(in_);
  const auto x = context.states();
  const auto y = context.output(out_);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = (u[i] - x[i]) / scalar(tau_);
}

void Derivative::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  const auto u = context.input(in_);
  const auto x = context.states();
  for (std::size_t i = 0; i < dxdt.size(); ++i) dxdt[i] = (u[i] - x[i]) / scalar(tau_);
}

void Derivative::local_jacobian(LocalJacobian& jacobian) const {
  // y = (u - x) / tau and x' = (u - x) / tau, element by element.
  const double rate = 1.0 / scalar(tau_);
  const auto in = static_cast<std::size_t>(in_.index);
  const auto out = static_cast<std::size_t>(out_.index);
  for (std::uint32_t i = 0; i < jacobian.states(); ++i) {
    if (i < jacobian.output_width(out)) {
      jacobian.output_input(out, i, in, i, rate);
      jacobian.output_state(out, i, i, -rate);
    }
    jacobian.derivative_input(i, in, i, rate);
    jacobian.derivative_state(i, i, -rate);
  }
}

}  // namespace ctde
