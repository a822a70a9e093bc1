#include "actors/continuous/integrator.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Integrator::Integrator(std::string name) : Actor(std::move(name), "Integrator", TimeMode::kContinuous) {
  in_ = declare_input("in", PortKind::kContinuous);
  reset_ = declare_input("reset", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  impulse_ = declare_input("impulse", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  out_ = declare_output("out", PortKind::kContinuous);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
  set_feedthrough(false);
}

void Integrator::configure(const ParameterScope& scope) {
  (void)scope;
  const int width = static_cast<int>(vector(initial_).size());
  set_width(in_, width);
  set_width(reset_, width);
  set_width(impulse_, width);
  set_width(out_, width);
}

std::size_t Integrator::state_size() const { return vector(initial_).size(); }

void Integrator::initialize(ActorContext& context) const {
  const auto initial = vector(initial_);
  const auto x = context.mutable_states();
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = initial.size() == 1 ? initial[0] : initial[i];
  evaluate(context);
}

void Integrator::evaluate(ActorContext& context) const {
  const auto x = context.states();
  const auto out = context.output(out_.index);
  std::copy_n(x.begin(), std::min(x.size(), out.size()), out.begin());
}

void Integrator::derivatives(const ActorContext& context, std::span<double> dxdt) const {
  const auto u = context.input(in_.index);
  for (std::size_t i = 0; i < dxdt.size(); ++i) dxdt[i] = i < u.size() ? u[i] : 0.0;
}

void Integrator::fire(ActorContext& context) const {
  const bool reset = context.has_token(reset_.index);
  const bool impulse = context.has_token(impulse_.index);
  if (!reset && !impulse) return;
  const auto x = context.mutable_states();  // tells the director: a reset of the solver
  if (reset) {
    const auto token = context.token(reset_.index);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = token.size() == 1 ? token[0] : token[i];
  }
  if (impulse) {
    const auto token = context.token(impulse_.index);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += token.size() == 1 ? token[0] : token[i];
  }
}

Kernel Integrator::kernel() const {
  return {Kernel::Output::kState, Kernel::Derivatives::kInput, 1.0, {}};
}

}  // namespace ctde
