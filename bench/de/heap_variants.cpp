// The heap variants behind docs/performance.md's table ("The queue's
// alternatives, as measured"): the hold loop on the heap alone (no director,
// no actors), N pending 16-byte events,
// E events, the same random draws as the other hold programs. Each variant
// is a d-ary min-heap with Floyd's deletion (walk the hole to a leaf, then
// sift the new event up); they differ in the arity and in how the smallest
// of a group of children is found. The 4-ary heap with the packed compare
// is ctde's own EventQueue, measured as the library builds it. For
// comparison, Boost.Heap's pairing heap (pop then push, and an update of the
// served event's handle) and its 4-ary heap (pop then push).
//
//   heap_variants N E      (prints one line per variant: seconds)
//
// Built and run by bench/de/run_heap_variants.sh.
#include <boost/heap/d_ary_heap.hpp>
#include <boost/heap/pairing_heap.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "domains/de/event_queue.hpp"

namespace {

// The library's event (two 64-bit keys) and its packed key.
using ctde::Event;
using Key = ctde::EventQueue::Key;
Key key(const Event& e) { return ctde::EventQueue::key(e); }
bool two_field_before(const Event& a, const Event& b) {
  return a.time_key < b.time_key || (a.time_key == b.time_key && a.order_key < b.order_key);
}

/// kPacked: the minimum of a full group kept as a 128-bit key in registers
/// (the library's own scan, EventQueue::smallest_of_group(): subtract-with-
/// borrow and conditional moves); otherwise the two-field comparison over a
/// group bounded by the heap's size.
template <std::size_t kArity, bool kPacked>
class Heap {
 public:
  void insert(Event e) {
    data_.push_back(e);
    sift_up(data_.size() - 1, e);
  }
  [[nodiscard]] const Event& top() const { return data_.front(); }
  __attribute__((noinline)) void replace_top(Event e) { sift_up(descend(), e); }

 private:
  std::size_t descend() {
    const std::size_t n = data_.size();
    Event* const h = data_.data();
    std::size_t i = 0;
    while (true) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) return i;
      std::size_t best = first;
      if (kPacked && first + kArity <= n) {
        best = ctde::EventQueue::smallest_of_group<kArity>(h, first);
      } else {
        for (std::size_t c = first + 1; c < std::min(n, first + kArity); ++c) {
          if (two_field_before(h[c], h[best])) best = c;
        }
      }
      h[i] = h[best];
      i = best;
    }
  }
  void sift_up(std::size_t i, Event e) {
    Event* const h = data_.data();
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!two_field_before(e, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = e;
  }
  std::vector<Event> data_;
};

/// Boost.Heap's order is "a has lower priority than b": a comes later.
struct Later {
  bool operator()(const Event& a, const Event& b) const { return key(b) < key(a); }
};
using Pairing = boost::heap::pairing_heap<Event, boost::heap::compare<Later>>;
using BoostFourAry = boost::heap::d_ary_heap<Event, boost::heap::arity<4>, boost::heap::compare<Later>>;

/// The hold step on each kind of heap: serve the top, schedule its id again.
template <std::size_t kArity, bool kPacked>
void hold(Heap<kArity, kPacked>& heap, Event next) {
  heap.replace_top(next);
}
template <class BoostHeap>
void hold(BoostHeap& heap, Event next) {
  heap.pop();
  heap.push(next);
}
/// The pairing heap with handles: the served event's key is updated in place.
struct PairingUpdate {
  Pairing heap;
  std::vector<Pairing::handle_type> handles;
  void insert(Event e) { handles.push_back(heap.push(e)); }
  [[nodiscard]] const Event& top() const { return heap.top(); }
};
void hold(PairingUpdate& h, Event next) { h.heap.decrease(h.handles[next.order_key], next); }

/// ctde's queue: the time is the tick, the id the depth.
struct Library {
  ctde::EventQueue queue;
  void insert(Event e) {
    queue.insert(ctde::Event::at({static_cast<ctde::Tick>(e.time_key), 0},
                                 ctde::ActorId{static_cast<std::uint32_t>(e.order_key)}));
  }
  [[nodiscard]] Event top() const {
    return {static_cast<std::uint64_t>(queue.peek().time()), queue.peek().depth().value()};
  }
};
void hold(Library& h, Event next) {
  h.queue.replace_top(ctde::Event::at({static_cast<ctde::Tick>(next.time_key), 0},
                                      ctde::ActorId{static_cast<std::uint32_t>(next.order_key)}));
}

template <class H>
void insert(H& heap, Event e) {
  if constexpr (requires { heap.insert(e); }) {
    heap.insert(e);
  } else {
    heap.push(e);
  }
}

template <class H>
void run(const char* label, std::uint32_t n, std::uint64_t events) {
  std::mt19937_64 generator{12345};
  std::exponential_distribution<double> interval{1.0};
  const auto draw = [&] {
    return static_cast<std::uint64_t>(std::max<std::int64_t>(1, std::llround(interval(generator) * 1e9)));
  };
  H heap;
  for (std::uint32_t i = 0; i < n; ++i) insert(heap, Event{draw(), i});
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t checksum = 0;
  for (std::uint64_t k = 0; k < events; ++k) {
    const Event top = heap.top();
    checksum += top.order_key;
    hold(heap, Event{top.time_key + draw(), top.order_key});
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("variant=%s n=%u seconds=%.3f checksum=%llu\n", label, n, seconds,
              static_cast<unsigned long long>(checksum));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: heap_variants N E\n");
    return 2;
  }
  const auto n = static_cast<std::uint32_t>(std::atof(argv[1]));
  const auto e = static_cast<std::uint64_t>(std::atof(argv[2]));
  run<Heap<4, false>>("4-ary,two-field", n, e);
  run<Heap<2, true>>("2-ary,packed", n, e);
  run<Library>("ctde::EventQueue", n, e);  // the 4-ary heap with the packed compare
  run<Heap<8, true>>("8-ary,packed", n, e);
  run<Pairing>("boost-pairing", n, e);
  run<PairingUpdate>("boost-pairing-update", n, e);
  run<BoostFourAry>("boost-4-ary", n, e);
  return 0;
}
