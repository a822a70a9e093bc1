#pragma once
/// The `Merge` actor (what it computes: kInfo.summary).

#include "../base/fan_in.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Merge : public FanIn {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Merge",
      .family = "discrete",
      .summary =
          "Every token on any of `inputs` inputs goes out; simultaneous tokens go out in input order, one "
          "microstep apart.",
  };

  explicit Merge(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
