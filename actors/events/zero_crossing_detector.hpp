#pragma once
/// A state-event generator: when the input crosses zero in `direction`
/// ("rising", "falling" or "both"), an event carrying the input's value at the
/// located crossing (see CrossingDetector).

#include "crossing_detector.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroCrossingDetector : public CrossingDetector {
 public:
  explicit ZeroCrossingDetector(std::string name)
      : CrossingDetector(std::move(name), "ZeroCrossingDetector", /*with_level=*/false) {}
};

}  // namespace ctde
