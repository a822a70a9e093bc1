#pragma once
/// 0 before `start_time`, then slope * (t - start_time).

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Ramp : public Actor {
 public:
  explicit Ramp(std::string name);

 private:
};

}  // namespace ctde
