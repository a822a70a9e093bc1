#pragma once
/// The `DiscreteIntegrator` actor (what it computes: kInfo.summary): the
/// discrete-time integrator of a sampled signal (actors/base/sampled_integral.hpp).

#include "../base/initial_value_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DiscreteIntegrator : public InitialValueActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DiscreteIntegrator",
      .family = "discrete",
      .summary =
          "At each token, y[k] = y[k-1] + gain h[k] u, h[k] the time since the token before and u the token "
          "before (`method` \"forward_euler\"), this one (\"backward_euler\") or their mean "
          "(\"trapezoidal\"); y[0] = `initial`. Forward Euler has no direct feedthrough: in a discrete loop "
          "it "
          "sends y[k] when a token samples the loop.",
      .sample_params = R"({"gain": 2, "method": "trapezoidal", "initial": 1})",
  };

  explicit DiscreteIntegrator(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  [[nodiscard]] bool samples_its_loop() const override { return true; }
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle gain_;
  ParamHandle method_;
  double theta_ = 0.0;  ///< of `method` (integration_theta), in configure
};

}  // namespace ctde
