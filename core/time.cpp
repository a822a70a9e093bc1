#include "core/time.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

TimeResolution::TimeResolution(double seconds_per_tick) : seconds_per_tick_(seconds_per_tick) {
  if (!std::isfinite(seconds_per_tick) || seconds_per_tick < kFinest || seconds_per_tick > kCoarsest) {
    throw ModelError("time_resolution " + format_double(seconds_per_tick) +
                     " is outside the accepted range [1e-18, 1] s");
  }
  // A whole number of ticks per second (every 10^n up to 10^22 is exact as a double).
  const double per_second = std::nearbyint(1.0 / seconds_per_tick);
  if (std::fabs(per_second * seconds_per_tick - 1.0) <= 4 * std::numeric_limits<double>::epsilon()) {
    ticks_per_second_ = per_second;
  }
}

double TimeResolution::horizon() const { return static_cast<double>(kNever - 1) * seconds_per_tick_; }

Tick TimeResolution::to_ticks_checked(double seconds) const {
  if (std::isnan(seconds)) throw ModelError("a time is NaN");
  if (seconds == std::numeric_limits<double>::infinity()) return kNever;
  const double ticks = std::nearbyint(in_ticks(seconds));
  // 2^63 is exactly representable; anything at or beyond it does not fit.
  if (std::fabs(ticks) >= 9.2233720368547758e18) {
    throw ModelError("time " + format_double(seconds) + " s is beyond the representable horizon " +
                     format_double(horizon()) + " s at time_resolution " + format_double(seconds_per_tick_) +
                     " s");
  }
  return static_cast<Tick>(ticks);
}

Tick TimeResolution::to_ticks_clamped(double seconds) const {
  if (std::isnan(seconds)) return kNever;
  if (std::fabs(seconds) >= 0.5 * horizon()) return seconds > 0 ? kNever : kBeforeAll;
  return to_ticks(seconds);
}

std::string describe(const Tag& tag, const TimeResolution& resolution) {
  std::ostringstream out;
  out << "t=" << format_double(resolution.to_seconds(tag.time)) << " s (tick " << tag.time << ", microstep "
      << tag.microstep << ")";
  return out.str();
}

}  // namespace ctde
