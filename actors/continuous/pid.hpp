#pragma once
/// The `PID` actor (what it computes: kInfo.summary): a continuous PID
/// controller whose derivative goes through a first-order filter.
///
/// States: x0 = the integral of e (from `initial`), x1 = the filter's state
/// (from 0); y = kp e + ki x0 + kd (e - x1) / tf, x0' = e, x1' = (e - x1) / tf.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class PID : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "PID",
      .family = "continuous",
      .summary =
          "y = kp e + ki (integral of e) + kd (derivative of e through the filter 1 / (tf s + 1)), e = in: "
          "C(s) = kp + ki / s + kd s / (tf s + 1).",
      .sample_params = R"({"kp": 2, "ki": 1, "kd": 0.5, "tf": 0.1})",
  };

  explicit PID(std::string name);
  [[nodiscard]] std::size_t state_size() const override { return 2; }
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  /// Linear: its exact values (docs/semantics.md, "Jacobians"); y on e only
  /// when it feeds through (kp or kd not 0).
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle kp_;
  ParamHandle ki_;
  ParamHandle kd_;
  ParamHandle tf_;
  ParamHandle initial_;
};

}  // namespace ctde
