#include "actors/continuous/integrator.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Integrator::Integrator(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous) {
  reset_ = declare_input("reset", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  impulse_ = declare_input("impulse", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
  set_feedthrough(false);
}

void Integrator::configure(const ParameterScope& /*scope*/) {
  // A scalar initial value takes the input's width (width inference, then
  // widths_resolved); a vector one fixes every port's width.
  const int width = fix_width_by(initial_);
  width_ = vector(initial_).size();
  set_width(reset_, width);
  set_width(impulse_, width);
}

int Integrator::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  return input_widths[in_.index];  // out = x, one state per input element
}

void Integrator::check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const {
  if (vector(initial_).size() != 1) return;  // fixed widths: checked per connection
  const int width = output_widths[out_.index];
  for (const InputPort port : {reset_, impulse_}) {
    const int w = input_widths[port.index];
    if (w != 1 && w != width) {  // a scalar token is broadcast, as the scalar initial value
      fail("input '" + inputs()[port.index].name + "' has width " + std::to_string(w) +
           " but input 'in' has width " + std::to_string(width) + "; give 1 or " + std::to_string(width));
    }
  }
}

void Integrator::widths_resolved(std::span<const int> /*input_widths*/, std::span<const int> output_widths) {
  width_ = static_cast<std::size_t>(output_widths[out_.index]);
}

std::size_t Integrator::state_size() const { return width_; }

void Integrator::initialize(FireContext& context) const {
  broadcast(vector(initial_), context.mutable_states());
}

void Integrator::evaluate(EvalContext& context) const {
  const auto x = context.states();
  const auto out = context.output(out_);
  std::copy_n(x.begin(), std::min(x.size(), out.size()), out.begin());
}

void Integrator::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  const auto u = context.input(in_);
  for (std::size_t i = 0; i < dxdt.size(); ++i) dxdt[i] = i < u.size() ? u[i] : 0.0;
}

void Integrator::fire(FireContext& context) const {
  const bool reset = context.has_token(reset_);
  const bool impulse = context.has_token(impulse_);
  if (!reset && !impulse) return;
  const auto x = context.mutable_states();  // tells the director: a reset of the solver
  if (reset) {
    broadcast(context.token(reset_), x);
  }
  if (impulse) {
    const auto token = context.token(impulse_);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += token.size() == 1 ? token[0] : token[i];
  }
}

void Integrator::local_jacobian(LocalJacobian& jacobian) const {
  // out = x, x' = in, element by element (in may be narrower: the rest 0).
  const std::uint32_t states = jacobian.states();
  for (std::uint32_t i = 0; i < states; ++i) {
    if (i < jacobian.output_width(out_.index)) jacobian.output_state(out_.index, i, i, 1.0);
    if (i < jacobian.input_width(in_.index)) jacobian.derivative_input(i, in_.index, i, 1.0);
  }
}

Kernel Integrator::kernel() const { return {Kernel::Output::kState, Kernel::Derivatives::kInput, 1.0, {}}; }

}  // namespace ctde
