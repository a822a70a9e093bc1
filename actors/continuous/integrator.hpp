#pragma once
/// x' = in, out = x, x(start) = initial (scalar or vector: the width). An
/// event on the optional discrete input `reset` sets x to its token; an event on
/// `impulse` adds its token to x (a Dirac impulse of that weight). Both at the
/// same tag: the reset first, then the impulse.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Integrator : public Actor {
 public:
  explicit Integrator(std::string name);

  [[nodiscard]] std::size_t state_size() const override;
  void initialize(ActorContext& context) const override;
  void evaluate(ActorContext& context) const override;
  [[nodiscard]] Kernel kernel() const override;
  void derivatives(const ActorContext& context, std::span<double> dxdt) const override;
  void fire(ActorContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  InputPort reset_;
  InputPort impulse_;
  OutputPort out_;
  ParamHandle initial_;
};

}  // namespace ctde
