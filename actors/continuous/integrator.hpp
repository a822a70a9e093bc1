#pragma once
/// The `Integrator` actor (what it computes: kInfo.summary). An event on the
/// optional discrete input `reset` sets x to its token; an event on `impulse`
/// adds its token to x (a Dirac impulse of that weight). Both at the same
/// tag: the reset first, then the impulse.

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Integrator : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Integrator",
      .family = "continuous",
      .summary =
          "x' = in, out = x, x(start) = initial (a vector: the width; a scalar: broadcast to in's width).",
      .sample_params = R"({"initial": 1})",
  };

  explicit Integrator(std::string name);

  [[nodiscard]] std::size_t state_size() const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;
  void widths_resolved(std::span<const int> input_widths, std::span<const int> output_widths) override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] Kernel kernel() const override;
  void local_jacobian(LocalJacobian& jacobian) const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort reset_;
  InputPort impulse_;
  ParamHandle initial_;
  std::size_t width_ = 1;  ///< the number of states: initial's size, or in's width when initial is scalar
};

}  // namespace ctde
