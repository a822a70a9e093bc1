#pragma once
/// x' = in, out = x, x(start) = initial (scalar or vector: the width). An
/// event on the optional discrete input `reset` sets x to its token; an event on
/// `impulse` adds its token to x (a Dirac impulse of that weight).

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Integrator : public Actor {
 public:
  explicit Integrator(std::string name);

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
