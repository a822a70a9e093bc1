#include "actors/math/min_max.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

MinMax::MinMax(std::string name) : FanIn(std::move(name), kInfo, TimeMode::kUnresolved) {
  mode_ = declare_parameter("mode", ParamKind::kString, "min");
}

void MinMax::configure(const ParameterScope& scope) {
  if (text(mode_) != "min" && text(mode_) != "max") {
    fail(mode_, "must be \"min\" or \"max\", got \"" + text(mode_) + "\"");
  }
  FanIn::configure(scope);
}

void MinMax::evaluate(EvalContext& context) const {
  const bool max = text(mode_) == "max";
  const auto y = context.output(out_);
  for (std::size_t i = 0; i < inputs().size(); ++i) {
    const auto u = context.input(input_port(i));
    for (std::size_t j = 0; j < y.size(); ++j) {
      if (i == 0)
        y[j] = u[j];
      else
        y[j] = max ? std::max(y[j], u[j]) : std::min(y[j], u[j]);
    }
  }
}

}  // namespace ctde
