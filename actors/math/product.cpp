#include "actors/math/product.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Product::Product(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  out_ = declare_output("out", PortKind::kPolymorphic);
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

void Product::evaluate(EvalContext& context) const {
  const auto acc = context.output(out_);
  std::fill(acc.begin(), acc.end(), 1.0);
  const std::string& codes = text(ops_);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const auto u = context.input(input_port(i));
    const char code = codes[i];
    for (std::size_t j = 0; j < acc.size(); ++j) {
      if (code == '/')
        acc[j] /= u[j];
      else
        acc[j] *= u[j];
    }
  }
}

}  // namespace ctde
