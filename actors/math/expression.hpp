#pragma once
/// The `Expression` actor (what it computes: kInfo.summary). Inputs have
/// width 1; the output has one element per expression of a comma-separated
/// list ("in0 + 1, 2 * in0": width 2).

#include <utility>
#include <vector>

#include "../../core/actor.hpp"

namespace ctde {

struct ExpressionState;

/// Not copyable, not movable (see Actor).
class Expression : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Expression",
      .family = "math",
      .summary =
          "y = expr, a muparser expression over in0..in{inputs-1}, t and the model's parameters (\"in0 * "
          "sin(t) + k\"); a comma-separated list of expressions gives a vector (\"in0, -in0\").",
      .sample_params = R"({"expr": "2 * in0 + in1 - in0 * in1", "inputs": 2})",
  };

  explicit Expression(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void evaluate(EvalContext& context) const override;
  [[nodiscard]] bool can_be_constant() const override { return !uses_time_; }
  /// The `max_step` parameter: how finely an expression that oscillates in
  /// time (sin(100 * t)) must be looked at; unset: infinity.
  [[nodiscard]] double max_step() const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  void compute(ExpressionState& state, std::span<double> y) const;
  ParamHandle expr_;
  ParamHandle inputs_;
  ParamHandle max_step_;
  bool uses_time_ = false;
  std::vector<std::pair<std::string, double>> constants_;  ///< model parameters used
};

}  // namespace ctde
