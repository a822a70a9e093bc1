#pragma once
/// Directions of a state-event guard's crossing (docs/semantics.md, "State events").

#include <cstdint>
#include <optional>
#include <string_view>

namespace ctde {

/// Which crossings of zero by a guard g are events. A bit set: kBoth is
/// kRising | kFalling; kNone marks "did not cross".
///
/// A rising crossing is g reaching or passing zero from below (g < 0, then
/// g >= 0); a falling one, from above (g > 0, then g <= 0). A guard that
/// sits exactly at zero has no side until it leaves it, so touching zero
/// and going back is not a crossing unless a step ends exactly at the
/// touch, and leaving zero never is.
enum class Crossing : std::uint8_t { kNone = 0, kRising = 1, kFalling = 2, kBoth = 3 };

/// Where a guard's value of exactly zero belongs (a guard's option,
/// Actor::guard_zero_side).
///   kOwn:   zero is a side of its own (the default, as described above).
///   kBelow: zero is on the negative side: the guard's two domains are
///           g > 0 and g <= 0, as FMI's event indicators' (z > 0, z <= 0). A
///           falling crossing is g > 0, then g <= 0 (reaching zero, as with
///           kOwn); a rising one is g <= 0, then g > 0 (leaving zero
///           upwards: a guard resting at exactly zero that then rises
///           crosses, at the first point where it is above zero).
enum class ZeroSide : std::uint8_t { kOwn, kBelow };

/// True when `direction` (a set) includes `crossing` (one direction).
[[nodiscard]] constexpr bool includes(Crossing direction, Crossing crossing) {
  return (static_cast<std::uint8_t>(direction) & static_cast<std::uint8_t>(crossing)) != 0;
}

/// "rising", "falling", "both" or "none".
[[nodiscard]] std::string_view to_string(Crossing crossing);
/// The direction named "rising", "falling" or "both"; empty for anything else.
[[nodiscard]] std::optional<Crossing> parse_crossing(std::string_view text);

}  // namespace ctde
