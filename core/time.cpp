#include "core/time.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
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
    // 10^-n (1/1e-18 is not exactly 1e18 in doubles): exactly 10^n ticks per second.
    double power = 1;
    for (int n = 0; n <= 18; ++n, power *= 10) {
      if (std::fabs(per_second / power - 1.0) <= 4 * std::numeric_limits<double>::epsilon()) {
        decimal_places_ = n;
        ticks_per_second_ = power;
      }
    }
  }
}

void TimeResolution::append_seconds(std::string& out, Tick tick) const {
  if (decimal_places_ < 0 || tick == kNever) {
    append_double(out, to_seconds(tick));
    return;
  }
  // The tick's digits, then the decimal point n digits from the right
  // (zero-padded on the left), then the fraction's trailing zeros dropped.
  if (tick < 0) out += '-';
  const std::uint64_t magnitude =
      tick < 0 ? ~static_cast<std::uint64_t>(tick) + 1 : static_cast<std::uint64_t>(tick);
  char digits[24];
  const char* const end = std::to_chars(digits, digits + sizeof digits, magnitude).ptr;
  const auto count = static_cast<int>(end - digits);
  const int places = decimal_places_;
  const int whole = count - places;  // digits before the point (none or fewer: "0.")
  if (whole > 0) {
    out.append(digits, static_cast<std::size_t>(whole));
  } else {
    out += '0';
  }
  const char* fraction_end = end;
  const char* const fraction_begin = whole > 0 ? digits + whole : digits;
  while (fraction_end > fraction_begin && fraction_end[-1] == '0') --fraction_end;
  if (fraction_end == fraction_begin) return;
  out += '.';
  if (whole < 0) out.append(static_cast<std::size_t>(-whole), '0');
  out.append(fraction_begin, fraction_end);
}

std::string TimeResolution::seconds_text(Tick tick) const {
  std::string out;
  append_seconds(out, tick);
  return out;
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

std::optional<Tick> TimeResolution::whole_ticks(double seconds) const {
  if (!std::isfinite(seconds)) return std::nullopt;
  const double ticks = std::nearbyint(in_ticks(seconds));
  if (std::fabs(ticks) >= 9.2233720368547758e18) return std::nullopt;
  const auto tick = static_cast<Tick>(ticks);
  if (to_seconds(tick) != seconds) return std::nullopt;
  return tick;
}

Tick TimeResolution::to_ticks_clamped(double seconds) const {
  if (std::isnan(seconds)) return kNever;
  if (std::fabs(seconds) >= 0.5 * horizon()) return seconds > 0 ? kNever : kBeforeAll;
  return to_ticks(seconds);
}

std::string describe(const Tag& tag, const TimeResolution& resolution) {
  std::ostringstream out;
  out << "t=" << resolution.seconds_text(tag.time) << " s (tick " << tag.time << ", microstep "
      << tag.microstep << ")";
  return out.str();
}

}  // namespace ctde
