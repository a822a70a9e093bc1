#include "actors/math/dead_zone.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

DeadZone::DeadZone(std::string name) : UnaryFunction(std::move(name), kInfo) {
  lower_ = declare_parameter("lower", ParamKind::kScalar);
  upper_ = declare_parameter("upper", ParamKind::kScalar);
}

void DeadZone::configure(const ParameterScope& /*scope*/) {
  if (!std::isfinite(scalar(lower_))) fail(lower_, "must be finite, got " + format_double(scalar(lower_)));
  if (!std::isfinite(scalar(upper_)) || !(scalar(lower_) <= scalar(upper_))) {
    fail(upper_, "must be finite and not below 'lower' (" + format_double(scalar(lower_)) + "), got " +
                     format_double(scalar(upper_)));
  }
}

void DeadZone::apply(std::span<const double> u, std::span<double> y) const {
  const double lower = scalar(lower_);
  const double upper = scalar(upper_);
  for (std::size_t i = 0; i < u.size(); ++i) {
    y[i] = u[i] > upper ? u[i] - upper : (u[i] < lower ? u[i] - lower : 0.0);
  }
}

}  // namespace ctde
