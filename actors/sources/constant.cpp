#include "actors/sources/constant.hpp"

namespace ctde {

Constant::Constant(std::string name) : Actor(std::move(name), "Constant", TimeMode::kConstant) {
  out_ = declare_output("out", PortKind::kConstant);
  value_ = declare_parameter("value", ParamKind::kVector);
  set_feedthrough(false);
}

void Constant::configure(const ParameterScope& scope) {
  (void)scope;
  set_width(out_, static_cast<int>(vector(value_).size()));
}

}  // namespace ctde
