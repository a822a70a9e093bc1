#pragma once
/// The `RateLimiter` actor (what it computes: kInfo.summary), on a sampled
/// signal: the time between two tokens bounds how far the output may move.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class RateLimiter : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "RateLimiter",
      .family = "discrete",
      .summary =
          "At each token u[k] at t[k]: y[k] = y[k-1] + clamp(u[k] - y[k-1], -falling (t[k] - t[k-1]), rising "
          "(t[k] - t[k-1])); y[0] = u[0].",
      .sample_params = R"({"rising": 2, "falling": 1})",
  };

  explicit RateLimiter(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle rising_;
  ParamHandle falling_;
};

}  // namespace ctde
