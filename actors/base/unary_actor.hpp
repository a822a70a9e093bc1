#pragma once
/// The shared base of the actors with one input `in` and one output `out`
/// (besides any other ports they declare after them): the element-wise and
/// linear blocks, the delays, the holds, the samplers and the detectors.

#include <span>

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class UnaryActor : public Actor {
 protected:
  /// Declares `in` and `out`, both of `width`, of the kind `mode` gives its
  /// ports: polymorphic for kUnresolved, else continuous or discrete.
  /// Precondition: `mode` is kUnresolved, kContinuous or kDiscrete.
  UnaryActor(std::string name, const ActorInfo& info, TimeMode mode, int width = kInferredWidth);
  /// Declares `in` of `in_kind` and `out` of `out_kind`, both of `width` (a
  /// converter's or a detector's ports).
  UnaryActor(std::string name, const ActorInfo& info, TimeMode mode, PortKind in_kind, PortKind out_kind,
             int width = kInferredWidth);

  /// For a vector parameter that is either one value for every element or
  /// one value per element (an `initial`): one value leaves both ports'
  /// width to inference, more fix it to their number. Returns that width
  /// (kInferredWidth for one value).
  int fix_width_by(ParamHandle values);

  /// `from` spread over `to`: its one value everywhere, or its values
  /// element by element. Precondition: `from` has one value or at least
  /// as many as `to`.
  static void broadcast(std::span<const double> from, std::span<double> to) {
    for (std::size_t i = 0; i < to.size(); ++i) to[i] = from.size() == 1 ? from[0] : from[i];
  }

  InputPort in_;
  OutputPort out_;
};

}  // namespace ctde
