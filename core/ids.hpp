#pragma once
/// Strong index types: an actor, an input port or a guard of a run, each
/// its own type, so that one cannot be passed where another is expected.

#include <compare>
#include <cstddef>
#include <cstdint>

namespace ctde {

/// An index of kind `Kind` (a tag type, never defined). Explicit from and
/// to the number; ordered as numbers. Copyable value type.
template <class Kind>
class Id {
 public:
  constexpr Id() = default;
  constexpr explicit Id(std::uint32_t value) : value_(value) {}

  /// The number, to index a vector.
  [[nodiscard]] constexpr std::uint32_t value() const { return value_; }
  [[nodiscard]] constexpr std::size_t index() const { return value_; }

  friend constexpr auto operator<=>(Id, Id) = default;

 private:
  std::uint32_t value_ = 0;
};

/// An actor, by its position in the run's topological order (its depth).
using ActorId = Id<struct ActorIdKind>;
/// An input port, numbered across the run's actors in depth order.
using InputId = Id<struct InputIdKind>;
/// An output port, numbered across the run's actors in depth order.
using OutputId = Id<struct OutputIdKind>;
/// A state-event guard, numbered across the run's generators in depth order.
using GuardId = Id<struct GuardIdKind>;

}  // namespace ctde
