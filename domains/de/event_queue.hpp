#pragma once
/// The DE event set: pending time events in a total, deterministic order.
///
/// Order: time tick, then microstep, then depth — the receiver's position in
/// the model's topological order, so that simultaneous events fire upstream
/// first. Never by pointer, never by hash-map iteration.
///
/// Depth is unique per actor and an event carries nothing else, so two
/// events with the same (time, microstep, depth) are the same request: the
/// actor fires once at that tag either way. An insertion sequence could only
/// order such twins, which no observer can tell apart, so the queue does not
/// store one; the order is total on everything observable. This keeps an
/// event at 16 bytes.
///
/// Implementation: an implicit 4-ary min-heap over a vector (capacity is
/// kept: steady state allocates nothing), with Floyd's bottom-up deletion and
/// a replace_top() for the hold pattern (the event that fires an actor makes
/// room for the one it schedules), also in two halves (open_top, then insert
/// or close_open) for the director to overlap with the actor's firing. The
/// order is compared as one 128-bit key; the smallest of a full group of four
/// children is found without branches. Cancelling marks an event; marked
/// events are dropped when they reach the top (the marks cost nothing unless
/// used).
///
/// Measured: the whole hold benchmark through the director (bench/de/
/// run_hold.sh, 1e7 events, N pending; instruction counts from callgrind,
/// 1e6 events, are steadier than wall time on this project's 2-core VM):
///
/// | implementation                    | N = 1e3 Minstr | N = 1e5 Minstr |
/// |-----------------------------------|----------------|----------------|
/// | binary heap, 32-byte events       |   819          |  1455          |
/// | 4-ary heap, 32-byte events        |   799          |  1393          |
/// | 8-ary heap, 32-byte events        |   909          |  1545          |
/// | 4-ary heap, 16-byte events        |   see docs/performance.md        |
///
/// (including the random draws, which the bare-heap baseline spends too),
/// and the heap alone on the same hold loop (bench/de/run_heap_variants.sh,
/// 1e7 events, best of 3, seconds, 2026-11-24):
///
/// | 16-byte events                                 | N = 1e3 | N = 1e5 |
/// |------------------------------------------------|---------|---------|
/// | 4-ary, two-field compare, bounded loop         |  0.78   |  1.38   |
/// | binary, 128-bit key                            |  0.50   |  1.16   |
/// | 4-ary, 128-bit key, unrolled group: this one   |  0.47   |  0.80   |
/// | 8-ary, 128-bit key, unrolled group             |  0.55   |  0.85   |
/// | Boost.Heap pairing heap, pop + push            |  2.08   |  5.30   |
/// | Boost.Heap pairing heap, decrease(handle)      |  2.14   |  5.48   |
/// | Boost.Heap 4-ary d_ary_heap, pop + push        |  0.81   |  1.32   |
///
/// The pairing heap allocates a node per event and chases pointers: slower
/// than any implicit heap at both sizes, and updating the served event's
/// node in place (the hold pattern's natural use of it) is slower still.
/// The two-field compare branches on every child, on which of them is
/// smallest: a choice no predictor can learn. Aligning each group of four
/// to a cache line made no difference (a one-off variant, two runs:
/// 0.49–0.50 s and 0.79–0.83 s aligned, 0.49–0.50 s and 0.79–0.80 s not).
/// A separate FIFO for the current time (OMNeT++) does not pay here: tokens
/// sent at (t, n) never enter this queue (the director delivers them through
/// double-buffered input slots at (t, n+1)), so only fire_at(now) requests
/// would use it.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "../../core/time.hpp"

namespace ctde {

/// A pending event: the order key, stored ready to compare. Copyable value
/// type (16 bytes). `time_key` is the tick with its sign bit flipped (so that
/// unsigned order is time order); `order_key` is microstep << 32 | depth.
struct Event {
  std::uint64_t time_key = 0;
  std::uint64_t order_key = 0;

  /// An event for the actor at `depth` at `tag`.
  [[nodiscard]] static Event at(Tag tag, std::uint32_t depth) {
    return {static_cast<std::uint64_t>(tag.time) ^ kSignBit, (std::uint64_t{tag.microstep} << 32) | depth};
  }
  [[nodiscard]] Tag tag() const { return {time(), static_cast<std::uint32_t>(order_key >> 32)}; }
  [[nodiscard]] Tick time() const { return static_cast<Tick>(time_key ^ kSignBit); }
  [[nodiscard]] std::uint32_t depth() const { return static_cast<std::uint32_t>(order_key); }

  friend bool operator==(const Event&, const Event&) = default;
  static constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
};
static_assert(sizeof(Event) == 16);

/// Identifies an inserted event for cancel() (the event itself: twins are
/// interchangeable). Copyable value type.
struct EventId {
  Event event;
};

/// The event set. Copyable and movable (a value type).
class EventQueue {
 public:
  /// Children per heap node.
  static constexpr std::size_t kArity = 4;
  /// The order as one unsigned 128-bit number (time_key high, order_key
  /// low): comparing two of them compiles to a subtract-with-borrow and no
  /// branch, which the sift's minimum-of-four selects on (see the table).
  __extension__ using Key = unsigned __int128;
  [[nodiscard]] static Key key(const Event& e) { return (Key{e.time_key} << 64) | e.order_key; }
  /// True when `a` comes before `b` in the queue's order.
  [[nodiscard]] static bool before(const Event& a, const Event& b) { return key(a) < key(b); }

  /// Adds `event` (into the open slot if there is one). O(log n).
  EventId insert(Event event);
  /// The next event in order. Precondition: !empty().
  [[nodiscard]] const Event& peek() const { return heap_.front(); }
  /// Removes the next event. Precondition: !empty(). O(log n).
  void pop();
  /// The pending events in heap order: the top first, the children of
  /// position i at kArity * i + 1 ... kArity * i + kArity. For looking ahead
  /// (prefetching what the next events fire), not for iteration in order.
  [[nodiscard]] std::span<const Event> heap() const { return heap_; }
  /// True when an event other than the top is at `tag` (O(arity): it would
  /// be a child of the top).
  [[nodiscard]] bool another_at(Tag tag) const;
  /// Removes the next event and inserts `event` in one sift (the hold
  /// operation). Precondition: !empty(), no slot open.
  EventId replace_top(Event event);
  /// The hold operation in two halves, so that the heap's half (the walk
  /// down, whose loads miss the cache in large queues) runs before the
  /// served actor fires and its loads overlap with the actor's: open_top()
  /// removes the next event and leaves its slot open at a leaf; then
  /// insert() puts the event the actor schedules there, or close_open()
  /// moves the last event into it. While a slot is open only insert(),
  /// close_open() and heap() may be called (the open slot counts in size()
  /// and holds a stale event). Precondition of open_top(): !empty(), no
  /// slot open.
  void open_top();
  /// Closes the open slot with no new event. Precondition: has_open().
  void close_open();
  /// True between open_top() and the next insert() or close_open().
  [[nodiscard]] bool has_open() const { return has_open_; }
  /// Marks one pending event equal to `id` so that it is never returned; a
  /// no-op when none is pending. O(n) (a scan to check that it is pending).
  void cancel(EventId id);
  /// True when no live event is pending.
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  /// The number of pending events (cancelled ones count until they surface).
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  /// Reserves room for `n` pending events.
  void reserve(std::size_t n) { heap_.reserve(n); }

 private:
  struct EventHash {
    std::size_t operator()(const Event& e) const { return e.time_key * 0x9E3779B97F4A7C15ULL ^ e.order_key; }
  };
  EventId fill_open(Event event);
  void remove_top();
  void sift_down_from_top(Event moved);
  /// Moves the hole at the top down to a leaf (Floyd); returns the leaf.
  std::size_t descend_from_top();
  /// Places `event` at hole `i` or above it.
  void sift_up(std::size_t i, Event event);
  void drop_cancelled() {
    if (!cancelled_.empty()) drop_cancelled_slow();
  }
  void drop_cancelled_slow();

  std::vector<Event> heap_;
  std::size_t open_ = 0;  ///< the open slot, when has_open_
  bool has_open_ = false;
  std::unordered_map<Event, std::uint32_t, EventHash> cancelled_;  ///< marks per key
};

}  // namespace ctde
