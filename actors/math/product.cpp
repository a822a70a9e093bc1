#include "actors/math/product.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Product::Product(std::string name) : FanIn(std::move(name), kInfo, "ops", "*/", "**") {}

void Product::evaluate(EvalContext& context) const {
  const auto acc = context.output(out_);
  std::fill(acc.begin(), acc.end(), 1.0);
  const std::string& codes = operators();
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
