#pragma once
/// The DE event set: pending time events in a total, deterministic order.
///
/// Order: time tick, microstep, depth (the receiver's topological depth),
/// insertion sequence. Never by pointer, never by hash-map iteration.
///
/// Implementation: an implicit 4-ary min-heap over a vector of 32-byte
/// events (capacity is kept, so steady state allocates nothing). Cancelling
/// marks the event's sequence number; marked events are dropped when they
/// reach the top (the set of marks is empty, and free, unless cancel is used).

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "core/time.hpp"

namespace ctde {

/// A pending event. Copyable value type (32 bytes).
struct Event {
  Tag tag;                   ///< when (ticks, microstep)
  std::uint32_t depth = 0;   ///< the receiver's depth: simultaneous events fire upstream first
  std::uint64_t seq = 0;     ///< insertion sequence, assigned by the queue
  std::uint32_t target = 0;  ///< the receiving actor
  std::uint32_t payload = 0; ///< for the receiver's use
};

/// Identifies an inserted event for cancel(). Copyable value type.
struct EventId {
  std::uint64_t seq = 0;
};

/// The event set. Copyable and movable (a value type).
class EventQueue {
 public:
  /// Adds `event` (its seq is assigned here). O(log n).
  EventId insert(Event event);
  /// The next event in order. Precondition: !empty().
  [[nodiscard]] const Event& peek() const { return heap_.front(); }
  /// Removes the next event. Precondition: !empty(). O(log n).
  void pop();
  /// Marks an event so that it is never returned; a no-op for unknown or
  /// already popped events.
  void cancel(EventId id);
  /// True when no live event is pending.
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  /// The number of pending events (cancelled ones still count until they surface).
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  /// Reserves room for `n` pending events.
  void reserve(std::size_t n) { heap_.reserve(n); }

 private:
  static bool before(const Event& a, const Event& b) {
    if (a.tag.time != b.tag.time) return a.tag.time < b.tag.time;
    if (a.tag.microstep != b.tag.microstep) return a.tag.microstep < b.tag.microstep;
    if (a.depth != b.depth) return a.depth < b.depth;
    return a.seq < b.seq;
  }
  void remove_top();
  void drop_cancelled();

  std::vector<Event> heap_;
  std::unordered_set<std::uint64_t> cancelled_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace ctde
