#include "actors/events/level_crossing_detector.hpp"

namespace ctde {

LevelCrossingDetector::LevelCrossingDetector(std::string name) : Actor(std::move(name), "LevelCrossingDetector", TimeMode::kHybrid) {
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

}  // namespace ctde
