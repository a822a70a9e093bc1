#pragma once
/// Events at offsets[i] + k * period for k = 0, 1, ..., carrying values[i].
/// A period of "inf" gives each offset once.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteClock : public Actor {
 public:
  explicit DiscreteClock(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle period_;
  ParamHandle offsets_;
  ParamHandle values_;
};

}  // namespace ctde
