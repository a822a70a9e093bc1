#include "actors/discrete/exponential_random.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

ExponentialRandom::ExponentialRandom(std::string name) : RandomSource(std::move(name), kInfo) {
  mean_ = declare_parameter("mean", ParamKind::kScalar, 1.0);
}

void ExponentialRandom::configure(const ParameterScope& scope) {
  RandomSource::configure(scope);
  const double mean = scalar(mean_);
  if (!(mean > 0) || !std::isfinite(mean))
    fail(mean_, "must be a finite number > 0, got " + format_double(mean));
}

double ExponentialRandom::draw(RandomStream& stream) const { return stream.exponential(scalar(mean_)); }

}  // namespace ctde
