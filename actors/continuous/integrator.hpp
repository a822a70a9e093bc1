#pragma once
/// x' = in, out = x, x(start) = initial. A vector `initial` fixes the width;
/// a scalar one (the default, 0) is broadcast to the width of `in`, as
/// ZeroOrderHold does. An
/// event on the optional discrete input `reset` sets x to its token; an event on
/// `impulse` adds its token to x (a Dirac impulse of that weight). Both at the
/// same tag: the reset first, then the impulse.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Integrator : public Actor {
 public:
  explicit Integrator(std::string name);

  [[nodiscard]] std::size_t state_size() const override;
  [[nodiscard]] int infer_output_width(std::size_t output, std::span<const int> input_widths) const override;
  void check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const override;
  void widths_resolved(std::span<const int> input_widths, std::span<const int> output_widths) override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] Kernel kernel() const override;
  void derivatives(const ReadContext& context, std::span<double> dxdt) const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  InputPort reset_;
  InputPort impulse_;
  OutputPort out_;
  ParamHandle initial_;
  std::size_t width_ = 1;  ///< the number of states: initial's size, or in's width when initial is scalar
};

}  // namespace ctde
