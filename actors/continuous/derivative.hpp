#pragma once
/// The `Derivative` actor (what it computes: kInfo.summary): a derivative
/// made realizable by a first-order filter, s / (tau s + 1). One state x:
/// x' = (u - x) / tau, y = (u - x) / tau.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Derivative : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Derivative",
      .family = "continuous",
      .summary =
          "y = the derivative of in through the filter 1 / (time_constant s + 1): Y(s)/U(s) = s / "
          "(time_constant s + 1), element by element.",
      .sample_params = R"({"time_constant": 0.01})",
  };

  explicit Derivative(std::string name);
  [[nodiscard]] std::size_t state_size() const override { return width_; }
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void widths_resolved(std::span<const int> input_widths, std::span<const int> output_widths) override;
  /// Linear: its exact values (docs/semantics.md, "Jacobians"), element by element.
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle tau_;
  ParamHandle initial_;
  std::size_t width_ = 1;
};

}  // namespace ctde
