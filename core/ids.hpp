#pragma once
/// Strong index types: an actor, an input port, a guard, an element of the
/// run's buffers..., each its own type, so that one cannot be passed where
/// another is expected. An Id is a trivially copyable wrapper of a 32-bit
/// number: it compiles to the number (no cost in the hot loops).

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
  /// The index `i` as an Id. Precondition: i < 2^32 (a run's counts are
  /// 32-bit).
  [[nodiscard]] static constexpr Id at(std::size_t i) { return Id{static_cast<std::uint32_t>(i)}; }

  /// The next index, for walking a range of them in order.
  constexpr Id& operator++() {
    ++value_;
    return *this;
  }

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
/// An actor, by its index in FlatModel::actors (definition order: depth
/// first through composites), not its depth: the director maps a depth to
/// this index to find the actor's description.
using FlatIndex = Id<struct FlatIndexKind>;
/// An element of RunBuffers::signals (the values of every output port, one
/// double each).
using SignalIndex = Id<struct SignalIndexKind>;
/// An element of the run's continuous state vector x (and of dx/dt).
using StateIndex = Id<struct StateIndexKind>;
/// An independent part of the continuous side (one integrator each),
/// numbered in the order of its first actor by depth.
using PartId = Id<struct PartIdKind>;
/// An element of RunBuffers::tokens_now and tokens_next (the tokens on
/// every discrete input, one double each).
using TokenIndex = Id<struct TokenIndexKind>;
/// An element of RunBuffers::receivers (the discrete inputs driven by the
/// outputs, output by output).
using ReceiverIndex = Id<struct ReceiverIndexKind>;

}  // namespace ctde
