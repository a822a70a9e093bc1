#pragma once
/// The `Saturation` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Saturation : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Saturation",
      .family = "math",
      .summary = "min(max(u, lower), upper), element by element.",
      .sample_params = R"({"lower": 2, "upper": 5})",
  };

  explicit Saturation(std::string name);

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle lower_;
  ParamHandle upper_;
};

}  // namespace ctde
