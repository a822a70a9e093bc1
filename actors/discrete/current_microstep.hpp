#pragma once
/// The `CurrentMicrostep` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class CurrentMicrostep : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "CurrentMicrostep",
      .family = "discrete",
      .summary = "At each token on `trigger`, an event carrying the microstep n of its tag (t, n).",
  };

  explicit CurrentMicrostep(std::string name);
  void fire(FireContext& context) const override;

 private:
  InputPort trigger_;
  OutputPort out_;
};

}  // namespace ctde
