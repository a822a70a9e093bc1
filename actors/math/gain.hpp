#pragma once
/// The `Gain` actor (what it computes: kInfo.summary).

#include "unary_function.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Gain : public UnaryFunction {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Gain",
      .family = "math",
      .summary =
          "y = k u: a scalar k scales every element; a matrix k (rows x cols) takes an input of width cols "
          "to an output of width rows.",
      .sample_params = R"({"k": 2})",
  };

  explicit Gain(std::string name);
  [[nodiscard]] Kernel kernel() const override;
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void apply(std::span<const double> u, std::span<double> y) const override;
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle k_;
  bool scalar_ = true;     ///< k is 1 x 1 (after configure)
  double k_scalar_ = 1.0;  ///< its value
};

}  // namespace ctde
