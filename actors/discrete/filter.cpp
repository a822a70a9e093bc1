#include "actors/discrete/filter.hpp"

#include <algorithm>
#include <cmath>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/expression_engine.hpp"
#include "core/format.hpp"

namespace ctde {

Filter::Filter(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete, 1) {
  condition_ = declare_parameter("condition", ParamKind::kString);
}

void Filter::configure(const ParameterScope& scope) {
  const std::vector<std::string> locals{"t", "in"};
  const auto used = scope.check_expression(text(condition_), locals, describe() + ", parameter 'condition'");
  constants_.clear();
  for (const auto& name : used) {
    if (std::find(locals.begin(), locals.end(), name) != locals.end()) continue;
    const ResolvedParam& value = scope.value(name);
    if (value.kind() != ParamKind::kScalar) {
      fail(condition_, "'" + name + "' is not a number; only numbers can be used in expressions");
    }
    constants_.emplace_back(name, value.scalar());
  }
}

namespace {
/// The compiled condition and its variables t and in.
struct FilterState final : ActorState {
  CompiledExpression condition;
  double t = 0.0;
  double in = 0.0;

  /// Nothing: the condition is made by make_state() and t and in are
  /// written by fire() before it is evaluated.
  void save(StateWriter& /*out*/) const override {}
  void restore(StateReader& /*in*/) override {}
};
}  // namespace

std::unique_ptr<ActorState> Filter::make_state() const {
  auto state = std::make_unique<FilterState>();
  const std::string what = describe() + ", parameter 'condition'";
  state->condition.bind("t", &state->t, what);
  state->condition.bind("in", &state->in, what);
  for (const auto& [name, value] : constants_) state->condition.bind_constant(name, value, what);
  state->condition.set(text(condition_), what);
  return state;
}

void Filter::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<FilterState>();
  state.t = context.time();
  state.in = context.token(in_)[0];
  const double holds = state.condition.evaluate();
  if (std::isnan(holds)) {
    throw RunError(describe() + ": condition \"" + text(condition_) +
                   "\" gives NaN for in = " + format_double(state.in));
  }
  if (holds != 0.0) context.emit(out_, state.in);
}

}  // namespace ctde
