#pragma once
/// |u|, element by element.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Abs : public Actor {
 public:
  explicit Abs(std::string name);

 private:
};

}  // namespace ctde
