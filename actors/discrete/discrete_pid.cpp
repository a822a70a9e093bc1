#include "actors/discrete/discrete_pid.hpp"

#include <cmath>
#include <string>

#include "actors/base/sampled_integral.hpp"
#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

DiscretePID::DiscretePID(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete) {
  kp_ = declare_parameter("kp", ParamKind::kScalar, 1.0);
  ki_ = declare_parameter("ki", ParamKind::kScalar, 0.0);
  kd_ = declare_parameter("kd", ParamKind::kScalar, 0.0);
  method_ = declare_parameter("method", ParamKind::kString, "forward_euler");
  initial_ = declare_parameter("initial", ParamKind::kScalar, 0.0);
}

void DiscretePID::configure(const ParameterScope& /*scope*/) {
  for (const ParamHandle gain : {kp_, ki_, kd_, initial_}) {
    if (!std::isfinite(scalar(gain))) fail(gain, "must be finite, got " + format_double(scalar(gain)));
  }
  const std::string& method = text(method_);
  const auto theta = integration_theta(method);
  if (!theta) fail(method_, integration_method_problem(method));
  theta_ = *theta;
  // y[k] without e[k]: the integral by forward Euler alone
  set_feedthrough(scalar(kp_) != 0.0 || scalar(kd_) != 0.0 || (scalar(ki_) != 0.0 && theta_ != 0.0));
}

namespace {
struct PidState final : ActorState {
  SampledIntegral integral;  ///< of e (gain 1); its held token is e[k-1]

  void save(StateWriter& out) const override { integral.save(out); }
  void restore(StateReader& in) override { integral.restore(in); }
};
}  // namespace

std::unique_ptr<ActorState> DiscretePID::make_state() const { return std::make_unique<PidState>(); }

void DiscretePID::fire(FireContext& context) const {
  SampledIntegral& integral = context.state<PidState>().integral;
  const bool token = context.has_token(in_);
  const bool sample = context.breaks_loop() && context.loop_sample();
  if (!token && !sample) return;
  const double t = context.time();
  if (integral.y.empty()) {
    const double initial = scalar(initial_);
    integral.start(std::span<const double>(&initial, 1), context.width(out_));
  }
  const double kp = scalar(kp_);
  const double ki = scalar(ki_);
  const double kd = scalar(kd_);
  const auto out = context.scratch(integral.y.size());
  if (context.breaks_loop()) {  // kp = kd = 0, forward Euler: ki I sent when sampled, the token taken after
    integral.advance(t, 1.0, theta_);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = ki * integral.y[i];
    if (sample) context.emit(out_, out);
    if (token) integral.take(t, context.token(in_), 1.0, theta_);
    return;
  }
  const auto e = context.token(in_);
  const double h = t - integral.last;
  const bool differs = integral.has_token && h > 0.0;  // the difference: 0 at the first token
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = differs ? kd * (e[i] - integral.held[i]) / h : 0.0;
  integral.advance(t, 1.0, theta_);
  integral.take(t, e, 1.0, theta_);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] += kp * e[i] + ki * integral.y[i];
  context.emit(out_, out);
}

}  // namespace ctde
