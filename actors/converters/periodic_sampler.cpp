#include "actors/converters/periodic_sampler.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

PeriodicSampler::PeriodicSampler(std::string name) : Actor(std::move(name), "PeriodicSampler", TimeMode::kHybrid) {
  declare_input("in", PortKind::kContinuous);
  declare_output("out", PortKind::kDiscrete);
  period_ = declare_parameter("period", ParamKind::kScalar);
  offset_ = declare_parameter("offset", ParamKind::kScalar, 0.0);
}

void PeriodicSampler::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(period_) > 0) || !std::isfinite(scalar(period_))) {
    fail(period_, "must be a finite number > 0, got " + format_double(scalar(period_)));
  }
  if (!(scalar(offset_) >= 0)) fail(offset_, "must be >= 0");
}

}  // namespace ctde
