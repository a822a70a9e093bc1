#pragma once
/// The `MinMax` actor (what it computes: kInfo.summary).

#include "../base/fan_in.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class MinMax : public FanIn {
 public:
  static constexpr ActorInfo kInfo{
      .type = "MinMax",
      .family = "math",
      .summary = "The element-wise minimum (\"min\") or maximum (\"max\") of `inputs` inputs of equal width.",
      .sample_params = R"({"mode": "max"})",
  };

  explicit MinMax(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle mode_;
};

}  // namespace ctde
