#include "actors/sources/discrete_clock.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

DiscreteClock::DiscreteClock(std::string name) : SelfTimed(std::move(name), kInfo, TimeMode::kDiscrete, 1) {
  period_ = declare_parameter("period", ParamKind::kScalar, 1.0);
  offsets_ = declare_parameter("offsets", ParamKind::kVector, std::vector<double>{0.0});
  values_ = declare_parameter("values", ParamKind::kVector, std::vector<double>{1.0});
  stop_time_ = declare_parameter("stop_time", ParamKind::kScalar, HUGE_VAL);
}

void DiscreteClock::configure(const ParameterScope& /*scope*/) {
  const double period = scalar(period_);
  if (!(period > 0)) fail(period_, "must be > 0 (or \"inf\"), got " + format_double(period));
  const auto offsets = vector(offsets_);
  if (vector(values_).size() != offsets.size()) {
    fail("'values' has " + std::to_string(vector(values_).size()) + " entries but 'offsets' has " +
         std::to_string(offsets.size()) + "; give one value per offset");
  }
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < 0 || (std::isfinite(period) && offsets[i] >= period)) {
      fail(offsets_, "offset " + format_double(offsets[i]) + " is outside [0, period)");
    }
    if (i > 0 && offsets[i] <= offsets[i - 1]) fail(offsets_, "offsets must increase");
  }
  if (std::isnan(scalar(stop_time_))) fail(stop_time_, "must be a time in seconds or \"inf\", got NaN");
}

Tick DiscreteClock::next_time(const ReadContext& context, std::uint64_t period_index,
                              std::size_t offset_index) const {
  const TimeResolution& r = context.resolution();
  const Tick offset = r.to_ticks(vector(offsets_)[offset_index]);
  if (period_index == 0) return context.start_tick() + offset;
  const double period = scalar(period_);
  if (!std::isfinite(period)) return kNever;
  return periodic_tick(context, period, offset, period_index);
}

Tick DiscreteClock::last_tick(const ReadContext& context) const {
  // Events at times up to `stop_time` (the model's time in seconds, at its
  // nearest tick); a stop time before the start sends nothing.
  return context.resolution().to_ticks_clamped(scalar(stop_time_));
}

Tick DiscreteClock::time_of(FireContext& context, std::uint64_t k) const {
  const std::size_t n = vector(offsets_).size();
  return next_time(context, k / n, static_cast<std::size_t>(k % n));
}

void DiscreteClock::send(FireContext& context, std::uint64_t k) const {
  context.emit(out_, vector(values_)[static_cast<std::size_t>(k % vector(values_).size())]);
}

void DiscreteClock::check_times(const TimeResolution& resolution) const {
  check_duration(period_, resolution, /*zero_allowed=*/false);
  for (const double offset : vector(offsets_))
    check_duration(offsets_, offset, resolution, /*zero_allowed=*/true);
}

}  // namespace ctde
