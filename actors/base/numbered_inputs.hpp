#pragma once
/// The shared base of the actors with the inputs in0..in{n-1}, n given by a
/// count parameter, and one output `out`, all of one kind: `Mux`, `MinMax`,
/// `Merge`.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class NumberedInputs : public Actor {
 protected:
  /// Declares the output `out` of `kind` (the inputs come in configure()).
  NumberedInputs(std::string name, const ActorInfo& info, TimeMode mode, PortKind kind);

  /// Makes the inputs in0..in{n-1} of the output's kind, n the value of
  /// `count` (for configure()).
  /// @throws ModelError naming `count` unless n is a whole number from 1 to 1000.
  void declare_counted_inputs(ParamHandle count);

  OutputPort out_;

 private:
  PortKind kind_;
};

}  // namespace ctde
