#pragma once
/// The `ZeroOrderHold` actor (what it computes: kInfo.summary).

#include "../discrete/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class ZeroOrderHold : public InitialValueActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "ZeroOrderHold",
      .family = "converters",
      .summary =
          "A discrete-to-continuous converter: the output holds the last token received (`initial` before "
          "the first; scalar or of the input's width).",
      .sample_params = R"({"initial": 0})",
  };

  explicit ZeroOrderHold(std::string name);

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
