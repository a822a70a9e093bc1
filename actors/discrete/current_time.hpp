#pragma once
/// The `CurrentTime` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class CurrentTime : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "CurrentTime",
      .family = "discrete",
      .summary = "At each token on `trigger`, an event carrying the model time t in seconds.",
  };

  explicit CurrentTime(std::string name);
  void fire(FireContext& context) const override;

 private:
  InputPort trigger_;
  OutputPort out_;
};

}  // namespace ctde
