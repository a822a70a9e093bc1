#include "actors/discrete/discrete_integrator.hpp"

#include <cmath>
#include <string>

#include "actors/base/sampled_integral.hpp"
#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

DiscreteIntegrator::DiscreteIntegrator(std::string name)
    : InitialValueActor(std::move(name), kInfo, TimeMode::kDiscrete, PortKind::kDiscrete) {
  gain_ = declare_parameter("gain", ParamKind::kScalar, 1.0);
  method_ = declare_parameter("method", ParamKind::kString, "forward_euler");
}

void DiscreteIntegrator::configure(const ParameterScope& /*scope*/) {
  if (!std::isfinite(scalar(gain_))) fail(gain_, "must be finite, got " + format_double(scalar(gain_)));
  const std::string& method = text(method_);
  const auto theta = integration_theta(method);
  if (!theta) fail(method_, integration_method_problem(method));
  theta_ = *theta;
  set_feedthrough(theta_ != 0.0);  // forward Euler: y[k] from the tokens before k alone
}

namespace {
struct IntegratorState final : ActorState {
  SampledIntegral integral;

  void save(StateWriter& out) const override { integral.save(out); }
  void restore(StateReader& in) override { integral.restore(in); }
};
}  // namespace

std::unique_ptr<ActorState> DiscreteIntegrator::make_state() const {
  return std::make_unique<IntegratorState>();
}

void DiscreteIntegrator::fire(FireContext& context) const {
  SampledIntegral& integral = context.state<IntegratorState>().integral;
  const bool token = context.has_token(in_);
  const bool sample = context.breaks_loop() && context.loop_sample();
  if (!token && !sample) return;
  if (integral.y.empty()) integral.start(vector(initial_), context.width(out_));
  const double gain = scalar(gain_);
  integral.advance(context.time(), gain, theta_);
  if (context.breaks_loop()) {  // forward Euler in a loop: y sent when it is sampled, the token taken after
    if (sample) context.emit(out_, integral.y);
    if (token) integral.take(context.time(), context.token(in_), gain, theta_);
    return;
  }
  integral.take(context.time(), context.token(in_), gain, theta_);
  context.emit(out_, integral.y);
}

}  // namespace ctde
