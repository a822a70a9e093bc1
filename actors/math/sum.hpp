#pragma once
/// The `Sum` actor (what it computes: kInfo.summary). All inputs have the same
/// width.

#include <array>
#include <string>
#include <vector>

#include "../base/fan_in.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Sum : public FanIn {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Sum",
      .family = "math",
      .summary = "y = sum of +in_i or -in_i, one input per character of `signs` (\"+-+\").",
      .sample_params = R"({"signs": "+-"})",
  };

  explicit Sum(std::string name);
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] Kernel kernel() const override;
  void local_jacobian(LocalJacobian& jacobian) const override;

 protected:
  void configure(const ParameterScope& scope) override;
  /// Its sign for input `input` ("+" or "−"), drawn by `ctde graph`.
  [[nodiscard]] std::string input_mark(std::size_t input) const override;

 private:
  std::vector<double> weights_;           ///< +1 or -1 per input (from signs, in configure)
  std::array<double, 8> near_weights_{};  ///< the first 8 weights, kept in the actor itself
};

}  // namespace ctde
