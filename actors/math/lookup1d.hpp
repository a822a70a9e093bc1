#pragma once
/// y = the piecewise-linear interpolation of the table (x, y) at u, element by
/// element; constant beyond the ends.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Lookup1D : public Actor {
 public:
  explicit Lookup1D(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  [[nodiscard]] double interpolate(double u) const;
  InputPort in_;
  OutputPort out_;
  ParamHandle x_;
  ParamHandle y_;
};

}  // namespace ctde
