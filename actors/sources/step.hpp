#pragma once
/// `before` until `time`, `after` from `time` on. The jump is a time event:
/// the solver stops exactly at `time`, and both sides are recorded.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Step : public Actor {
 public:
  explicit Step(std::string name);

 private:
};

}  // namespace ctde
