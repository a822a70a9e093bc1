#include "actors/math/saturation.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

Saturation::Saturation(std::string name) : Actor(std::move(name), "Saturation", TimeMode::kUnresolved) {
  declare_input("in", PortKind::kPolymorphic);
  declare_output("out", PortKind::kPolymorphic);
  lower_ = declare_parameter("lower", ParamKind::kScalar, -HUGE_VAL);
  upper_ = declare_parameter("upper", ParamKind::kScalar, HUGE_VAL);
}

void Saturation::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(lower_) <= scalar(upper_))) {
    fail("'lower' (" + format_double(scalar(lower_)) + ") must not exceed 'upper' (" +
         format_double(scalar(upper_)) + ")");
  }
}

}  // namespace ctde
