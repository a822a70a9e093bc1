#pragma once
/// The shared base of the polymorphic functions of one input, y = f(u):
/// `Abs`, `Gain`, `DeadZone`, `Saturation`, `Quantizer`, `Lookup1D`,
/// `Selector`.

#include <span>

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class UnaryFunction : public UnaryActor {
 public:
  /// apply() from `in` to `out`.
  void evaluate(EvalContext& context) const final;

 protected:
  /// Declares the polymorphic `in` and `out`.
  UnaryFunction(std::string name, const ActorInfo& info);
  /// y = f(u), with y of the output's width (on the RHS path: no allocation).
  virtual void apply(std::span<const double> u, std::span<double> y) const = 0;
};

}  // namespace ctde
