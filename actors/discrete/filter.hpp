#pragma once
/// The `Filter` actor (what it computes: kInfo.summary). With a `Stop`
/// behind it, a run ends on a condition.

#include <utility>
#include <vector>

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Filter : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Filter",
      .family = "discrete",
      .summary =
          "Passes a token on `in` to `out` only when `condition`, an expression over `in` (the token), t and "
          "the model's parameters, is non-zero (\"in > 3\").",
      .sample_params = R"({"condition": "in >= 1"})",
  };

  explicit Filter(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle condition_;
  std::vector<std::pair<std::string, double>> constants_;  ///< model parameters used
};

}  // namespace ctde
