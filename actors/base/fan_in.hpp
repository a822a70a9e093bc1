#pragma once
/// The shared base of the actors with the numbered inputs in0..in{N-1}, N
/// the parameter `inputs` (default 2), and one output `out`: `Mux` and
/// `MinMax` (polymorphic), `Merge` (discrete).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class FanIn : public Actor {
 protected:
  /// Declares `out` and the parameter `inputs`, of the kind `mode` gives
  /// its ports: polymorphic for kUnresolved, discrete for kDiscrete.
  /// Precondition: `mode` is kUnresolved or kDiscrete.
  FanIn(std::string name, const ActorInfo& info, TimeMode mode);
  /// Declares the `inputs` inputs. An actor that checks more calls it.
  /// @throws ModelError naming `inputs` when it is not a whole number from 1 to 1000.
  void configure(const ParameterScope& scope) override;

  OutputPort out_;

 private:
  ParamHandle inputs_;
};

}  // namespace ctde
