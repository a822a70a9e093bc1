#include "actors/discrete/uniform_random.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

UniformRandom::UniformRandom(std::string name) : RandomSource(std::move(name), kInfo) {
  lower_ = declare_parameter("lower", ParamKind::kScalar, 0.0);
  upper_ = declare_parameter("upper", ParamKind::kScalar, 1.0);
}

void UniformRandom::configure(const ParameterScope& scope) {
  RandomSource::configure(scope);
  const double lower = scalar(lower_);
  const double upper = scalar(upper_);
  if (!std::isfinite(lower)) fail(lower_, "must be finite, got " + format_double(lower));
  if (!std::isfinite(upper) || !(upper > lower)) {
    fail(upper_,
         "must be finite and above 'lower' (" + format_double(lower) + "), got " + format_double(upper));
  }
}

double UniformRandom::draw(RandomStream& stream) const {
  const double lower = scalar(lower_);
  return lower + (scalar(upper_) - lower) * stream.uniform();
}

}  // namespace ctde
