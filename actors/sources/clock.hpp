#pragma once
/// The `Clock` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Clock : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Clock",
      .family = "sources",
      .summary = "The model time t, in seconds, as a continuous signal.",
  };

  explicit Clock(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  OutputPort out_;
};

}  // namespace ctde
