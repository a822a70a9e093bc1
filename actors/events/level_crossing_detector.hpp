#pragma once
/// A state-event generator: when the input crosses `level` in `direction`
/// ("rising", "falling" or "both"), an event carrying the input's value at the
/// located crossing (see CrossingDetector).

#include "crossing_detector.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class LevelCrossingDetector : public CrossingDetector {
 public:
  explicit LevelCrossingDetector(std::string name)
      : CrossingDetector(std::move(name), "LevelCrossingDetector", /*with_level=*/true) {}
};

}  // namespace ctde
