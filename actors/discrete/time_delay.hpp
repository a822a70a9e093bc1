#pragma once
/// The `TimeDelay` actor (what it computes: kInfo.summary). It breaks
/// causality loops.

#include "token_delay.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TimeDelay : public TokenDelay {
 public:
  static constexpr ActorInfo kInfo{
      .type = "TimeDelay",
      .family = "discrete",
      .summary =
          "Each token sent to it at (t, n) is sent again at (t + delay, 0); a delay of 0 sends it at (t, n + "
          "1), the microstep after the one it was sent at, whatever path brought it.",
      .sample_params = R"({"delay": 0.5})",
  };

  explicit TimeDelay(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;
};

}  // namespace ctde
