#include "actors/math/expression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/expression_engine.hpp"
#include "core/format.hpp"

namespace ctde {

Expression::Expression(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  out_ = declare_output("out", PortKind::kPolymorphic);  // one element per expression (configure)
  expr_ = declare_parameter("expr", ParamKind::kString);
  inputs_ = declare_parameter("inputs", ParamKind::kScalar, 1.0);
  max_step_ = declare_optional_parameter("max_step", ParamKind::kScalar);
}

void Expression::configure(const ParameterScope& scope) {
  const double count = scalar(inputs_);
  if (count < 0 || count > 1000 || count != std::floor(count)) {
    fail(inputs_, "must be a whole number from 0 to 1000");
  }
  if (is_set(max_step_) && !(scalar(max_step_) > 0)) fail(max_step_, "must be > 0 s");
  const auto n = static_cast<std::size_t>(count);
  declare_numbered_inputs(n, PortKind::kPolymorphic);
  std::vector<std::string> locals{"t"};
  for (std::size_t i = 0; i < n; ++i) {
    locals.push_back("in" + std::to_string(i));
    set_width(input_port(i), 1);
  }
  const auto used = scope.check_expression(text(expr_), locals, describe() + ", parameter 'expr'");
  // A list "e0, e1, ..." is a vector: one output element per expression.
  const std::size_t width = CompiledExpression::list_size(text(expr_), describe() + ", parameter 'expr'");
  if (width > 1000) fail(expr_, "is a list of " + std::to_string(width) + " expressions; at most 1000");
  set_width(out_, static_cast<int>(width));
  uses_time_ = std::find(used.begin(), used.end(), "t") != used.end();
  constants_.clear();
  for (const auto& name : used) {
    if (std::find(locals.begin(), locals.end(), name) != locals.end()) continue;
    const ResolvedParam& value = scope.value(name);
    if (value.kind() != ParamKind::kScalar) {
      fail(expr_, "'" + name + "' is not a number; only numbers can be used in expressions");
    }
    constants_.emplace_back(name, value.scalar());
  }
}

/// The compiled expression and its variables: t, then in0, in1, ...
struct ExpressionState final : ActorState {
  CompiledExpression expression;
  std::vector<double> variables;

  /// Nothing: the expression is made by make_state() and every variable is
  /// written by evaluate() before it is read.
  void save(StateWriter& /*out*/) const override {}
  void restore(StateReader& /*in*/) override {}
};

std::unique_ptr<ActorState> Expression::make_state() const {
  auto state = std::make_unique<ExpressionState>();
  const std::size_t n = inputs().size();
  state->variables.assign(n + 1, 0.0);
  const std::string what = describe() + ", parameter 'expr'";
  state->expression.bind("t", &state->variables[0], what);
  for (std::size_t i = 0; i < n; ++i)
    state->expression.bind("in" + std::to_string(i), &state->variables[i + 1], what);
  for (const auto& [name, value] : constants_) state->expression.bind_constant(name, value, what);
  state->expression.set_list(text(expr_), what);
  return state;
}

void Expression::compute(ExpressionState& state, std::span<double> y) const {
  if (y.size() == 1) {
    y[0] = state.expression.evaluate();
  } else {
    state.expression.evaluate(y);
  }
  for (const double v : y) {
    if (!std::isfinite(v)) throw RunError("expression \"" + text(expr_) + "\" gives " + format_double(v));
  }
}

void Expression::evaluate(EvalContext& context) const {
  auto& state = context.state<ExpressionState>();
  state.variables[0] = context.time();
  for (std::size_t i = 0; i + 1 < state.variables.size(); ++i)
    state.variables[i + 1] = context.input(input_port(i))[0];
  compute(state, context.output(out_));
}

double Expression::max_step() const {
  return is_set(max_step_) ? scalar(max_step_) : std::numeric_limits<double>::infinity();
}

}  // namespace ctde
