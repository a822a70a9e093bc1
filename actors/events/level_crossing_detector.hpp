#pragma once
/// The `LevelCrossingDetector` actor (what it computes: kInfo.summary): a
/// CrossingDetector with a `level` parameter.

#include "crossing_detector.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class LevelCrossingDetector : public CrossingDetector {
 public:
  static constexpr ActorInfo kInfo{
      .type = "LevelCrossingDetector",
      .family = "events",
      .summary =
          "A state-event generator: when the input crosses `level` in `direction` (\"rising\", \"falling\" "
          "or \"both\"), an event carrying the input's value at the located crossing (or `value`, when set).",
      .sample_params = R"({"level": 0.5, "direction": "rising"})",
  };

  explicit LevelCrossingDetector(std::string name)
      : CrossingDetector(std::move(name), kInfo, /*with_level=*/true) {}
};

}  // namespace ctde
