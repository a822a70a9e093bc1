#include "actors/events/level_crossing_detector.hpp"
#include "core/error.hpp"

namespace ctde {

LevelCrossingDetector::LevelCrossingDetector(std::string name)
    : Actor(std::move(name), "LevelCrossingDetector", TimeMode::kHybrid) {
  declare_input("in", PortKind::kContinuous, 1);
  declare_output("out", PortKind::kDiscrete, 1);
  direction_ = declare_parameter("direction", ParamKind::kString, "both");
  declare_parameter("level", ParamKind::kScalar, 0.0);
}

void LevelCrossingDetector::configure(const ParameterScope& scope) {
  (void)scope;
  const std::string& direction = text(direction_);
  if (direction != "rising" && direction != "falling" && direction != "both") {
    fail(direction_, "must be \"rising\", \"falling\" or \"both\", got \"" + direction + "\"");
  }
}

void LevelCrossingDetector::initialize(ActorContext& /*context*/) const {
  // Locating crossings needs the state-event protocol of the director, which
  // this version does not have yet: refuse rather than never detect.
  throw RunError(
      "state-event location is not available in this version of ctde, so LevelCrossingDetector "
      "cannot detect crossings yet");
}

}  // namespace ctde
