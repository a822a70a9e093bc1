#include "actors/base/numbered_inputs.hpp"

#include <cmath>

namespace ctde {

NumberedInputs::NumberedInputs(std::string name, const ActorInfo& info, TimeMode mode, PortKind kind)
    : Actor(std::move(name), info, mode), kind_(kind) {
  out_ = declare_output("out", kind);
}

void NumberedInputs::declare_counted_inputs(ParamHandle count) {
  const double n = scalar(count);
  if (n < 1 || n > 1000 || n != std::floor(n)) fail(count, "must be a whole number from 1 to 1000");
  declare_numbered_inputs(static_cast<std::size_t>(n), kind_);
}

}  // namespace ctde
