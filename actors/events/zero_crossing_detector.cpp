#include "actors/events/zero_crossing_detector.hpp"
#include "core/error.hpp"

namespace ctde {

ZeroCrossingDetector::ZeroCrossingDetector(std::string name)
    : Actor(std::move(name), "ZeroCrossingDetector", TimeMode::kHybrid) {
  declare_input("in", PortKind::kContinuous, 1);
  declare_output("out", PortKind::kDiscrete, 1);
  direction_ = declare_parameter("direction", ParamKind::kString, "both");
}

void ZeroCrossingDetector::configure(const ParameterScope& scope) {
  (void)scope;
  const std::string& direction = text(direction_);
  if (direction != "rising" && direction != "falling" && direction != "both") {
    fail(direction_, "must be \"rising\", \"falling\" or \"both\", got \"" + direction + "\"");
  }
}

void ZeroCrossingDetector::initialize(ActorContext& /*context*/) const {
  // Locating crossings needs the state-event protocol of the director, which
  // this version does not have yet: refuse rather than never detect.
  throw RunError(
      "state-event location is not available in this version of ctde, so ZeroCrossingDetector "
      "cannot detect crossings yet");
}

}  // namespace ctde
