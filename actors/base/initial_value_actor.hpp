#pragma once
/// The shared base of the actors with one input, one output and a vector
/// parameter `initial` that stands for the signal before the first token:
/// one value (broadcast to the input's width) or one per element.
/// `UnitDelay`, `Accumulator`, `ZeroOrderHold`, `FirstOrderHold`.

#include <span>

#include "unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class InitialValueActor : public UnaryActor {
 public:
  /// `initial` must have one value or as many as the input's width.
  /// @throws ModelError naming `initial` and both counts.
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;

 protected:
  /// Declares the input `in` (discrete), the output `out` of `output_kind`
  /// and the parameter `initial` (default 0).
  InitialValueActor(std::string name, const ActorInfo& info, TimeMode mode, PortKind output_kind);

  /// `initial` spread over `values`: its one value everywhere, or its values
  /// element by element. Precondition: check_widths() passed for this width.
  void fill_initial(std::span<double> values) const;

  ParamHandle initial_;
};

}  // namespace ctde
