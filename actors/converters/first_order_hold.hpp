#pragma once
/// The `FirstOrderHold` actor (what it computes: kInfo.summary). From the
/// last two tokens and their times,
///   out(t) = v1 + (v1 - v0) (t - t1) / (t1 - t0);
/// with fewer than two tokens (or two at the same time) it holds the last one
/// (`initial`, scalar or of the input's width, before the first).

#include "../discrete/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class FirstOrderHold : public InitialValueActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "FirstOrderHold",
      .family = "converters",
      .summary =
          "A discrete-to-continuous converter: the output extrapolates linearly from the last two tokens "
          "received (`initial` before the first).",
      .sample_params = R"({"initial": 0})",
  };

  explicit FirstOrderHold(std::string name);

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
