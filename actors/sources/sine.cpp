#include "actors/sources/sine.hpp"

namespace ctde {

Sine::Sine(std::string name) : Actor(std::move(name), "Sine", TimeMode::kContinuous) {
  declare_output("out", PortKind::kContinuous, 1);
  declare_parameter("amplitude", ParamKind::kScalar, 1.0);
  frequency_ = declare_parameter("frequency", ParamKind::kScalar, 1.0);
  declare_parameter("phase", ParamKind::kScalar, 0.0);
  declare_parameter("bias", ParamKind::kScalar, 0.0);
  set_feedthrough(false);
}

void Sine::configure(const ParameterScope& scope) {
  (void)scope;
  if (scalar(frequency_) < 0) fail(frequency_, "must be >= 0 Hz");
}

}  // namespace ctde
