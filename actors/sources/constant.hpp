#pragma once
/// A constant value (scalar or vector). Its output fits continuous and
/// discrete inputs alike: continuous readers see the value at all times,
/// discrete readers find it present at every tag (docs/semantics.md,
/// "Constants"); it never fires and never sends an event.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Constant : public Actor {
 public:
  explicit Constant(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle value_;
};

}  // namespace ctde
