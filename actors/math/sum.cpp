#include "actors/math/sum.hpp"

namespace ctde {

Sum::Sum(std::string name) : Actor(std::move(name), "Sum", TimeMode::kUnresolved) {
  declare_output("out", PortKind::kPolymorphic);
  signs_ = declare_parameter("signs", ParamKind::kString, "++");
}

void Sum::configure(const ParameterScope& scope) {
  (void)scope;
  const std::string& signs = text(signs_);
  if (signs.empty() || signs.find_first_not_of("+-") != std::string::npos) {
    fail(signs_, "must be a non-empty string of '+' and '-', got \"" + signs + "\"");
  }
  declare_numbered_inputs(signs.size(), PortKind::kPolymorphic);
}

}  // namespace ctde
