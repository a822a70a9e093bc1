#include "actors/discrete/merge.hpp"

#include <cmath>

namespace ctde {

Merge::Merge(std::string name) : Actor(std::move(name), "Merge", TimeMode::kDiscrete) {
  declare_output("out", PortKind::kDiscrete);
  inputs_ = declare_parameter("inputs", ParamKind::kScalar, 2.0);
}

void Merge::configure(const ParameterScope& scope) {
  (void)scope;
  const double count = scalar(inputs_);
  if (count < 1 || count > 1000 || count != std::floor(count)) {
    fail(inputs_, "must be a whole number from 1 to 1000");
  }
  declare_numbered_inputs(static_cast<std::size_t>(count), PortKind::kDiscrete);
}

}  // namespace ctde
