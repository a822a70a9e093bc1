#include "actors/discrete/gaussian_random.hpp"

#include <cmath>
#include <numbers>

#include "core/format.hpp"

namespace ctde {

GaussianRandom::GaussianRandom(std::string name) : RandomSource(std::move(name), kInfo) {
  mean_ = declare_parameter("mean", ParamKind::kScalar, 0.0);
  deviation_ = declare_parameter("standard_deviation", ParamKind::kScalar, 1.0);
}

void GaussianRandom::configure(const ParameterScope& scope) {
  RandomSource::configure(scope);
  if (!std::isfinite(scalar(mean_))) fail(mean_, "must be finite, got " + format_double(scalar(mean_)));
  const double deviation = scalar(deviation_);
  if (!(deviation >= 0) || !std::isfinite(deviation)) {
    fail(deviation_, "must be a finite number >= 0, got " + format_double(deviation));
  }
}

double GaussianRandom::draw(RandomStream& stream) const {
  // Box-Muller from two uniform draws per sample (the cosine branch only):
  // 1 - u is in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2.0 * std::log(1.0 - stream.uniform()));
  const double angle = 2.0 * std::numbers::pi * stream.uniform();
  return scalar(mean_) + scalar(deviation_) * radius * std::cos(angle);
}

}  // namespace ctde
