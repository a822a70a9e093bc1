#pragma once
/// x' = A x + B u, y = C x + D u, x(start) = initial. A is n x n, B n x m,
/// C p x n, D p x m (default zero); the input has width m, the output width p.
/// The input feeds the output directly only when D is not zero.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class StateSpace : public Actor {
 public:
  explicit StateSpace(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle a_;
  ParamHandle b_;
  ParamHandle c_;
  ParamHandle d_;
  ParamHandle initial_;
};

}  // namespace ctde
