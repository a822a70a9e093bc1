#pragma once
/// The `DiscretePID` actor (what it computes: kInfo.summary): the sampled
/// form of `PID`, its integral a SampledIntegral (actors/base/sampled_integral.hpp)
/// and its derivative the backward difference of the tokens.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscretePID : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscretePID",
      .family = "discrete",
      .summary =
          "At each token e[k]: y[k] = kp e[k] + ki I[k] + kd (e[k] - e[k-1]) / h[k], I the integral of the "
          "tokens by `method` (as DiscreteIntegrator's, from `initial`) and h[k] the time since the token "
          "before; the difference is 0 at the first token.",
      .sample_params = R"({"kp": 2, "ki": 1, "kd": 0.1, "method": "backward_euler"})",
  };

  explicit DiscretePID(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  [[nodiscard]] bool samples_its_loop() const override { return true; }
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle kp_;
  ParamHandle ki_;
  ParamHandle kd_;
  ParamHandle method_;
  ParamHandle initial_;
  double theta_ = 0.0;  ///< of `method` (integration_theta), in configure
};

}  // namespace ctde
