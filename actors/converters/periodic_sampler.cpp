#include "actors/converters/periodic_sampler.hpp"

#include <algorithm>
#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

PeriodicSampler::PeriodicSampler(std::string name)
    : SelfTimed(std::move(name), kInfo, TimeMode::kHybrid, kInferredWidth) {
  in_ = declare_input("in", PortKind::kContinuous);
  period_ = declare_parameter("period", ParamKind::kScalar);
  offset_ = declare_parameter("offset", ParamKind::kScalar, 0.0);
}

void PeriodicSampler::configure(const ParameterScope& /*scope*/) {
  if (!(scalar(period_) > 0) || !std::isfinite(scalar(period_))) {
    fail(period_, "must be a finite number > 0, got " + format_double(scalar(period_)));
  }
  if (!(scalar(offset_) >= 0)) fail(offset_, "must be >= 0");
}

Tick PeriodicSampler::time_of(FireContext& context, std::uint64_t k) const {
  const TimeResolution& r = context.resolution();
  const double offset = scalar(offset_);
  if (!std::isfinite(offset) || offset >= 0.5 * r.horizon()) return kNever;
  return periodic_tick(context, scalar(period_), r.to_ticks(offset), k);
}

void PeriodicSampler::send(FireContext& context, std::uint64_t /*k*/) const {
  const auto in = context.input(in_);
  const auto token = context.scratch(in.size());
  std::copy(in.begin(), in.end(), token.begin());
  context.emit(out_, token);
}

void PeriodicSampler::check_times(const TimeResolution& resolution) const {
  check_duration(period_, resolution, /*zero_allowed=*/false);
  check_duration(offset_, resolution, /*zero_allowed=*/true);
}

}  // namespace ctde
