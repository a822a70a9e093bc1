#include "actors/continuous/pid.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

PID::PID(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous, 1) {
  kp_ = declare_parameter("kp", ParamKind::kScalar, 1.0);
  ki_ = declare_parameter("ki", ParamKind::kScalar, 0.0);
  kd_ = declare_parameter("kd", ParamKind::kScalar, 0.0);
  tf_ = declare_parameter("tf", ParamKind::kScalar, 0.01);
  initial_ = declare_parameter("initial", ParamKind::kScalar, 0.0);
}

void PID::configure(const ParameterScope& /*scope*/) {
  for (const ParamHandle p : {kp_, ki_, kd_, initial_}) {
    if (!std::isfinite(scalar(p))) fail(p, "must be finite, got " + format_double(scalar(p)));
  }
  if (!(scalar(tf_) > 0) || !std::isfinite(scalar(tf_))) {
    fail(tf_, "must be a finite time constant > 0 (s), got " + format_double(scalar(tf_)));
  }
  // Without a derivative or proportional part the output reads only the states.
  set_feedthrough(scalar(kp_) != 0 || scalar(kd_) != 0);
}

void PID::initialize(FireContext& context) const {
  const auto x = context.mutable_states();
  x[0] = scalar(initial_);
  x[1] = 0.0;
}

void PID::evaluate(EvalContext& context) const {
  const auto x = context.states();
  double y = scalar(ki_) * x[0];
  if (scalar(kp_) != 0 || scalar(kd_) != 0) {  // feedthrough: the input is computed
    const double e = context.input(in_)[0];
    y += scalar(kp_) * e + scalar(kd_) * (e - x[1]) / scalar(tf_);
  }
  context.output(out_)[0] = y;
}

void PID::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  const double e = context.input(in_)[0];
  const auto x = context.states();
  dxdt[0] = e;
  dxdt[1] = (e - x[1]) / scalar(tf_);
}

void PID::local_jacobian(LocalJacobian& jacobian) const {
  const double kp = scalar(kp_);
  const double ki = scalar(ki_);
  const double kd = scalar(kd_);
  const double tf = scalar(tf_);
  const auto in = static_cast<std::size_t>(in_.index);
  const auto out = static_cast<std::size_t>(out_.index);
  // y = kp e + ki x0 + kd (e - x1) / tf, x0' = e, x1' = (e - x1) / tf; only the nonzero entries.
  if (jacobian.output_width(out) > 0) {
    if (kp != 0 || kd != 0) jacobian.output_input(out, 0, in, 0, kp + kd / tf);
    if (ki != 0) jacobian.output_state(out, 0, 0, ki);
    if (kd != 0) jacobian.output_state(out, 0, 1, -kd / tf);
  }
  jacobian.derivative_input(0, in, 0, 1.0);
  jacobian.derivative_input(1, in, 0, 1.0 / tf);
  jacobian.derivative_state(1, 1, -1.0 / tf);
}

}  // namespace ctde
