#pragma once
/// The `VariableDelay` actor (what it computes: kInfo.summary).

#include "token_delay.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class VariableDelay : public TokenDelay {
 public:
  static constexpr ActorInfo kInfo{
      .type = "VariableDelay",
      .family = "discrete",
      .summary =
          "Each token on `in` at (t, n) is sent again at (t + d, 0), d the latest token on `delay` (or "
          "`initial_delay` before the first); d = 0 sends it at (t, n + 1).",
      .sample_params = R"({"initial_delay": 0.1})",
  };

  explicit VariableDelay(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 private:
  InputPort delay_in_;
};

}  // namespace ctde
