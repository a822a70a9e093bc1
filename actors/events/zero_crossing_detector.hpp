#pragma once
/// The `ZeroCrossingDetector` actor (what it computes: kInfo.summary): a
/// CrossingDetector whose level is 0.

#include "crossing_detector.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroCrossingDetector : public CrossingDetector {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ZeroCrossingDetector",
      .family = "events",
      .summary =
          "A state-event generator: when the input crosses zero in `direction` (\"rising\", \"falling\" or "
          "\"both\"), an event carrying the input's value at the located crossing (or `value`, when set).",
      .sample_params = R"({"direction": "both"})",
  };

  explicit ZeroCrossingDetector(std::string name)
      : CrossingDetector(std::move(name), kInfo, /*with_level=*/false) {}
};

}  // namespace ctde
