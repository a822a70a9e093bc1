#include "actors/math/product.hpp"

namespace ctde {

Product::Product(std::string name) : Actor(std::move(name), "Product", TimeMode::kUnresolved) {
  declare_output("out", PortKind::kPolymorphic);
  ops_ = declare_parameter("ops", ParamKind::kString, "**");
}

void Product::configure(const ParameterScope& scope) {
  (void)scope;
  const std::string& ops = text(ops_);
  if (ops.empty() || ops.find_first_not_of("*/") != std::string::npos) {
    fail(ops_, "must be a non-empty string of '*' and '/', got \"" + ops + "\"");
  }
  declare_numbered_inputs(ops.size(), PortKind::kPolymorphic);
}

}  // namespace ctde
