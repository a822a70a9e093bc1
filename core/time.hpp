#pragma once
/// Model time: integer ticks at a fixed resolution, and superdense tags.
///
/// Model time is an `int64` count of ticks. With the default resolution of
/// 1e-12 s the representable horizon is about 9.2e6 s (106 days); a coarser
/// resolution buys a longer horizon. Doubles appear only at the solver's
/// boundary, converted by `TimeResolution`.

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace ctde {

/// A point of model time, in ticks of the model's time resolution.
using Tick = std::int64_t;

/// "Never": later than every representable time (a period of "inf", an empty queue).
inline constexpr Tick kNever = std::numeric_limits<Tick>::max();
/// Earlier than every representable time.
inline constexpr Tick kBeforeAll = std::numeric_limits<Tick>::min();

/// A superdense time stamp: (time in ticks, microstep). Ordered lexicographically.
/// Copyable value type.
struct Tag {
  Tick time = 0;
  std::uint32_t microstep = 0;

  friend constexpr auto operator<=>(const Tag&, const Tag&) = default;
};

/// Conversion between seconds and ticks for one resolution. Copyable value type.
class TimeResolution {
 public:
  /// Smallest and largest accepted resolutions, in seconds.
  static constexpr double kFinest = 1e-18;
  static constexpr double kCoarsest = 1.0;

  /// @param seconds_per_tick in [kFinest, kCoarsest].
  /// @throws ModelError when out of range or not finite.
  explicit TimeResolution(double seconds_per_tick = 1e-12);

  [[nodiscard]] double seconds_per_tick() const { return seconds_per_tick_; }

  /// Nearest tick to `seconds` (halfway between two: the even one); `+inf`
  /// maps to kNever.
  /// @throws ModelError when |seconds| exceeds the representable horizon, or NaN.
  [[nodiscard]] Tick to_ticks(double seconds) const {
    // Inline for actors' hot paths (a time event per firing); NaN, infinity
    // and times beyond the horizon go to to_ticks_checked.
    const double ticks = std::nearbyint(in_ticks(seconds));
    if (std::fabs(ticks) < 9.2233720368547758e18) return static_cast<Tick>(ticks);
    return to_ticks_checked(seconds);
  }

  /// As to_ticks, but never throws: kNever for +inf, NaN or beyond the
  /// horizon, kBeforeAll for -inf or before it (for times that may lie
  /// outside any run, such as a Step's jump time).
  [[nodiscard]] Tick to_ticks_clamped(double seconds) const;

  /// The time of `tick` in seconds (kNever gives +inf): the double nearest to
  /// tick × resolution when a second is a whole number of ticks (1e-12 s,
  /// 1e-9 s...), so that to_seconds(to_ticks(0.3)) == 0.3 and the solver's
  /// time at a time event is the time the model asked for, not a few ulps
  /// before or after it.
  [[nodiscard]] double to_seconds(Tick tick) const {
    if (tick == kNever) return std::numeric_limits<double>::infinity();
    if (ticks_per_second_ > 0) return static_cast<double>(tick) / ticks_per_second_;
    return static_cast<double>(tick) * seconds_per_tick_;
  }

  /// `seconds` as a whole number of ticks when it is one exactly (to_seconds
  /// of that tick is `seconds`: 1e-5 at 1e-12 s is 10000000 ticks); nothing
  /// otherwise (1/3, NaN, beyond the horizon).
  [[nodiscard]] std::optional<Tick> whole_ticks(double seconds) const;

  /// Appends the time of `tick` in seconds as text. At a resolution of
  /// 10^-n s it is the tick's exact decimal value, from integer arithmetic
  /// ("0.1" for tick 100000000000 at 1e-12 s, "9007.199254740993" above
  /// 2^53 ticks): plain notation, no exponent, no trailing zeros, read back
  /// as the double nearest that value. At other resolutions it is the
  /// shortest text that reads back to to_seconds(tick). kNever is "inf".
  /// Allocates nothing once `out` has the capacity.
  void append_seconds(std::string& out, Tick tick) const;
  /// append_seconds() as a string.
  [[nodiscard]] std::string seconds_text(Tick tick) const;

  /// Largest representable time, in seconds.
  [[nodiscard]] double horizon() const;

 private:
  [[nodiscard]] Tick to_ticks_checked(double seconds) const;

  /// `seconds` in ticks, before rounding: exact ticks per second are
  /// multiplied (one rounding); 1e-12, the resolution's double, is not 1e-12.
  [[nodiscard]] double in_ticks(double seconds) const {
    return ticks_per_second_ > 0 ? seconds * ticks_per_second_ : seconds / seconds_per_tick_;
  }

  double seconds_per_tick_;
  /// 1 / seconds_per_tick_ when that is a whole number (every 10^-n), else 0.
  double ticks_per_second_ = 0;
  /// n when seconds_per_tick_ is 10^-n (ticks_per_second_ is exactly 10^n), else -1.
  int decimal_places_ = -1;
};

/// "t=1.5 s (tick 1500000000000, n 2)" — for messages.
[[nodiscard]] std::string describe(const Tag& tag, const TimeResolution& resolution);

}  // namespace ctde
