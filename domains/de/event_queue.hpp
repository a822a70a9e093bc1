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
/// or close_open) for the director to overlap with the actor's firing
/// (ServedEvent, served_event.hpp, chooses between the two). The order is
/// compared as one 128-bit key; the smallest of a full group of four
/// children is found without branches. The alternatives measured (binary
/// and 8-ary heaps, Boost.Heap's pairing and d-ary heaps, other event
/// layouts) and their figures are in docs/performance.md, "Discrete events".

#include <cstdint>
#include <span>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/time.hpp"

namespace ctde {

/// A pending event: the order key, stored ready to compare. Copyable value
/// type (16 bytes). `time_key` is the tick with its sign bit flipped (so that
/// unsigned order is time order); `order_key` is microstep << 32 | depth.
struct Event {
  std::uint64_t time_key = 0;
  std::uint64_t order_key = 0;

  /// An event for `actor` (its depth) at `tag`.
  [[nodiscard]] static Event at(Tag tag, ActorId actor) {
    return {static_cast<std::uint64_t>(tag.time) ^ kSignBit,
            (std::uint64_t{tag.microstep} << 32) | actor.value()};
  }
  [[nodiscard]] Tag tag() const { return {time(), static_cast<std::uint32_t>(order_key >> 32)}; }
  [[nodiscard]] Tick time() const { return static_cast<Tick>(time_key ^ kSignBit); }
  /// The actor to fire (its depth).
  [[nodiscard]] ActorId depth() const { return ActorId{static_cast<std::uint32_t>(order_key)}; }

  friend bool operator==(const Event&, const Event&) = default;
  static constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
};
static_assert(sizeof(Event) == 16);

/// The event set. Copyable and movable (a value type).
class EventQueue {
 public:
  /// Children per heap node.
  static constexpr std::size_t kArity = 4;
  /// The order as one unsigned 128-bit number (time_key high, order_key
  /// low): comparing two of them compiles to a subtract-with-borrow and no
  /// branch, which the sift's minimum-of-four selects on (docs/performance.md,
  /// "The queue's alternatives, as measured").
  __extension__ using Key = unsigned __int128;
  [[nodiscard]] static Key key(const Event& e) { return (Key{e.time_key} << 64) | e.order_key; }
  /// True when `a` comes before `b` in the queue's order.
  [[nodiscard]] static bool before(const Event& a, const Event& b) { return key(a) < key(b); }
  /// The position of the first of the smallest of h[first], ...,
  /// h[first + kGroup - 1] in the queue's order, their keys compared packed:
  /// the minimum's key stays in registers. The benchmark's heaps scan with
  /// it (bench/de/heap_variants.cpp); the library's sift selects on masks
  /// (smallest_of_four, event_queue.cpp), as GCC branches on this loop
  /// (docs/performance.md, "Discrete events").
  template <std::size_t kGroup>
  [[nodiscard]] static std::size_t smallest_of_group(const Event* h, std::size_t first) {
    std::size_t best = first;
    Key best_key = key(h[first]);
    for (std::size_t c = first + 1; c < first + kGroup; ++c) {
      const Key k = key(h[c]);
      if (k < best_key) {
        best_key = k;
        best = c;
      }
    }
    return best;
  }

  /// Adds `event` (into the open slot if there is one). O(log n). Inline:
  /// every hold firing ends here.
  void insert(Event event) {
    if (has_open_) {
      has_open_ = false;
      sift_up(open_, event);
      return;
    }
    const std::size_t i = heap_.size();
    heap_.push_back(event);
    sift_up(i, event);
  }
  /// The next event in order. Precondition: !empty().
  [[nodiscard]] const Event& peek() const { return heap_.front(); }
  /// Removes the next event. Precondition: !empty(). O(log n).
  void pop();
  /// The pending events in heap order: the top first, the children of
  /// position i at kArity * i + 1 ... kArity * i + kArity. For looking ahead
  /// (prefetching what the next events fire), not for iteration in order.
  [[nodiscard]] std::span<const Event> heap() const { return heap_; }
  /// Removes the next event and inserts `event` in one sift (the hold
  /// operation). Precondition: !empty(), no slot open.
  void replace_top(Event event);
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
  /// True when no event is pending.
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  /// The number of pending events.
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  /// Reserves room for `n` pending events.
  void reserve(std::size_t n) { heap_.reserve(n); }
  /// Replaces the pending events by `heap`, in heap order as heap() gave
  /// them (a snapshot's): the same order as the queue that gave it, event
  /// for event. Precondition: no slot open.
  /// @throws std::invalid_argument when `heap` is not in heap order.
  void assign(std::vector<Event> heap);

 private:
  void remove_top();
  void sift_down_from_top(Event moved);
  /// Moves the hole at the top down to a leaf (Floyd); returns the leaf.
  std::size_t descend_from_top();
  /// Places `event` at hole `i` or above it.
  void sift_up(std::size_t i, Event event);

  std::vector<Event> heap_;
  std::size_t open_ = 0;  ///< the open slot, when has_open_
  bool has_open_ = false;
};

}  // namespace ctde
