#pragma once
/// The `Saturation` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Saturation : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Saturation",
      .family = "math",
      .summary = "min(max(u, lower), upper), element by element.",
      .sample_params = R"({"lower": 2, "upper": 5})",
  };

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
