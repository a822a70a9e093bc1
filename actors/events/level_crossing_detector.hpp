#pragma once
/// A state-event generator: when the input crosses `level` in `direction`
/// ("rising", "falling" or "both"), an event carrying the input's value at the
/// located crossing.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class LevelCrossingDetector : public Actor {
 public:
  explicit LevelCrossingDetector(std::string name);
  void initialize(ActorContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle direction_;
};

}  // namespace ctde
