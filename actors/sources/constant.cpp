#include "actors/sources/constant.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Constant::Constant(std::string name) : Actor(std::move(name), kInfo, TimeMode::kConstant) {
  out_ = declare_output("out", PortKind::kConstant);
  value_ = declare_parameter("value", ParamKind::kVector);
  set_feedthrough(false);
}

void Constant::configure(const ParameterScope& /*scope*/) {
  set_width(out_, static_cast<int>(vector(value_).size()));
}

void Constant::evaluate(EvalContext& context) const {
  const auto value = vector(value_);
  std::copy(value.begin(), value.end(), context.output(out_).begin());
}

}  // namespace ctde
