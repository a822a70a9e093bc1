#pragma once
/// The shared base of the discrete-to-continuous holds, `ZeroOrderHold` and
/// `FirstOrderHold`: the continuous output follows the tokens received on
/// `in` (`initial`, scalar or of the input's width, before the first), held
/// (order 0) or extrapolated linearly from the last two and their times
/// (order 1):
///   out(t) = v1 + (v1 - v0) (t - t1) / (t1 - t0);
/// with fewer than two tokens (or two at the same time) order 1 holds too.

#include "../base/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Hold : public InitialValueActor {
 public:
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const final;
  /// The held value is `initial`; no token received yet.
  void initialize(FireContext& context) const final;
  void evaluate(EvalContext& context) const final;
  /// At a token on `in`: it becomes the held value (order 1: the one before
  /// it and its time are kept).
  void fire(FireContext& context) const final;

 protected:
  /// Declares `in` (discrete), `out` (continuous) and `initial`.
  /// @param order 0 (hold the last token) or 1 (extrapolate from the last two).
  Hold(std::string name, const ActorInfo& info, int order);

 private:
  int order_;
};

}  // namespace ctde
