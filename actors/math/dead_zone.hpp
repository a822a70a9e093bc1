#pragma once
/// The `DeadZone` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class DeadZone : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "DeadZone",
      .family = "math",
      .summary = "y = 0 for lower <= u <= upper, u - upper above, u - lower below, element by element.",
      .sample_params = R"({"lower": -0.5, "upper": 1.5})",
  };

  explicit DeadZone(std::string name);

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle lower_;
  ParamHandle upper_;
};

}  // namespace ctde
