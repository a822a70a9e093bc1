#include "actors/math/saturation.hpp"

#include <cmath>

#include "core/format.hpp"

#include <algorithm>
#include <cmath>

namespace ctde {

Saturation::Saturation(std::string name) : UnaryFunction(std::move(name), kInfo) {
  lower_ = declare_parameter("lower", ParamKind::kScalar, -HUGE_VAL);
  upper_ = declare_parameter("upper", ParamKind::kScalar, HUGE_VAL);
}

void Saturation::configure(const ParameterScope& /*scope*/) {
  if (!(scalar(lower_) <= scalar(upper_))) {
    fail("'lower' (" + format_double(scalar(lower_)) + ") must not exceed 'upper' (" +
         format_double(scalar(upper_)) + ")");
  }
}

void Saturation::apply(std::span<const double> u, std::span<double> y) const {
  const double lower = scalar(lower_);
  const double upper = scalar(upper_);
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = std::min(std::max(u[i], lower), upper);
}

}  // namespace ctde
