#pragma once
/// The `DeadZone` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DeadZone : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DeadZone",
      .family = "math",
      .summary = "y = 0 for lower <= u <= upper, u - upper above, u - lower below, element by element.",
      .sample_params = R"({"lower": -0.5, "upper": 1.5})",
  };

  explicit DeadZone(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle lower_;
  ParamHandle upper_;
};

}  // namespace ctde
