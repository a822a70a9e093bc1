#pragma once
/// min(max(u, lower), upper), element by element.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Saturation : public Actor {
 public:
  explicit Saturation(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  void apply(std::span<const double> u, std::span<double> y) const;
  InputPort in_;
  OutputPort out_;
  ParamHandle lower_;
  ParamHandle upper_;
};

}  // namespace ctde
