#include "actors/math/quantizer.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

Quantizer::Quantizer(std::string name) : UnaryFunction(std::move(name), kInfo) {
  interval_ = declare_parameter("interval", ParamKind::kScalar);
  offset_ = declare_parameter("offset", ParamKind::kScalar, 0.0);
}

void Quantizer::configure(const ParameterScope& /*scope*/) {
  if (!(scalar(interval_) > 0) || !std::isfinite(scalar(interval_))) {
    fail(interval_, "must be a finite number > 0, got " + format_double(scalar(interval_)));
  }
  if (!std::isfinite(scalar(offset_))) fail(offset_, "must be finite, got " + format_double(scalar(offset_)));
}

void Quantizer::apply(std::span<const double> u, std::span<double> y) const {
  const double q = scalar(interval_);
  const double offset = scalar(offset_);
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = offset + q * std::round((u[i] - offset) / q);
}

}  // namespace ctde
