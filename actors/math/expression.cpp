#include "actors/math/expression.hpp"

#include <algorithm>
#include <cmath>

namespace ctde {

Expression::Expression(std::string name) : Actor(std::move(name), "Expression", TimeMode::kUnresolved) {
  declare_output("out", PortKind::kPolymorphic, 1);
  expr_ = declare_parameter("expr", ParamKind::kString);
  inputs_ = declare_parameter("inputs", ParamKind::kScalar, 1.0);
}

void Expression::configure(const ParameterScope& scope) {
  const double count = scalar(inputs_);
  if (count < 0 || count > 1000 || count != std::floor(count)) {
    fail(inputs_, "must be a whole number from 0 to 1000");
  }
  const auto n = static_cast<std::size_t>(count);
  declare_numbered_inputs(n, PortKind::kPolymorphic);
  std::vector<std::string> locals{"t"};
  for (std::size_t i = 0; i < n; ++i) {
    locals.push_back("in" + std::to_string(i));
    set_width(InputPort{i}, 1);
  }
  const auto used = scope.check_expression(text(expr_), locals, describe() + ", parameter 'expr'");
  uses_time_ = std::find(used.begin(), used.end(), "t") != used.end();
}

}  // namespace ctde
