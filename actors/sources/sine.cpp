#include "actors/sources/sine.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/actor_context.hpp"

namespace ctde {

Sine::Sine(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous, 1);
  amplitude_ = declare_parameter("amplitude", ParamKind::kScalar, 1.0);
  frequency_ = declare_parameter("frequency", ParamKind::kScalar, 1.0);
  phase_ = declare_parameter("phase", ParamKind::kScalar, 0.0);
  bias_ = declare_parameter("bias", ParamKind::kScalar, 0.0);
  set_feedthrough(false);
}

void Sine::configure(const ParameterScope& /*scope*/) {
  if (scalar(frequency_) < 0) fail(frequency_, "must be >= 0 Hz");
}

void Sine::evaluate(EvalContext& context) const {
  const double omega = 2.0 * std::numbers::pi * scalar(frequency_);
  context.output(out_)[0] =
      scalar(amplitude_) * std::sin(omega * context.time() + scalar(phase_)) + scalar(bias_);
}

double Sine::max_step() const {
  const double f = scalar(frequency_);
  return f > 0 && scalar(amplitude_) != 0 ? 1.0 / (16.0 * f) : std::numeric_limits<double>::infinity();
}

}  // namespace ctde
