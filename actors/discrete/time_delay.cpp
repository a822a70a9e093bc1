#include "actors/discrete/time_delay.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

TimeDelay::TimeDelay(std::string name) : Actor(std::move(name), "TimeDelay", TimeMode::kDiscrete) {
  declare_input("in", PortKind::kDiscrete);
  declare_output("out", PortKind::kDiscrete);
  delay_ = declare_parameter("delay", ParamKind::kScalar, 0.0);
  set_feedthrough(false);
}

void TimeDelay::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(delay_) >= 0) || !std::isfinite(scalar(delay_))) {
    fail(delay_, "must be a finite number >= 0, got " + format_double(scalar(delay_)));
  }
}

}  // namespace ctde
