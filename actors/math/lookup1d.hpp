#pragma once
/// The `Lookup1D` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Lookup1D : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Lookup1D",
      .family = "math",
      .summary =
          "y = the piecewise-linear interpolation of the table (x, y) at u, element by element; constant "
          "beyond the ends.",
      .sample_params = R"({"x": [0, 2.5, 5, 10], "y": [1, 2, 0, 4]})",
  };

  explicit Lookup1D(std::string name);

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  [[nodiscard]] double interpolate(double u) const;
  ParamHandle x_;
  ParamHandle y_;
};

}  // namespace ctde
