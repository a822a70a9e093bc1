#pragma once
/// The `Accumulator` actor (what it computes: kInfo.summary).

#include "../base/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Accumulator : public InitialValueActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Accumulator",
      .family = "discrete",
      .summary = "The running sum of the tokens received, starting from `initial`.",
  };

  explicit Accumulator(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
