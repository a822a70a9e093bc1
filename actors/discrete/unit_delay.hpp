#pragma once
/// The `UnitDelay` actor (what it computes: kInfo.summary): the z^-1 of a
/// sampled signal, one token late.

#include "../base/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class UnitDelay : public InitialValueActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "UnitDelay",
      .family = "discrete",
      .summary =
          "At each token, sends the token received before it (`initial` at the first): y[k] = u[k-1]. It has "
          "no direct feedthrough: in a discrete loop it sends y[k] when a token samples the loop.",
      .sample_params = R"({"initial": 5})",
  };

  explicit UnitDelay(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  [[nodiscard]] bool samples_its_loop() const override { return true; }
  void fire(FireContext& context) const override;
};

}  // namespace ctde
