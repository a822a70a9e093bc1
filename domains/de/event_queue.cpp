#include "domains/de/event_queue.hpp"

namespace ctde {

namespace {

// The smallest of h[first], ..., h[first + 3] (the first of equals): the
// sift's scan of a full group. Which child is smallest is a coin toss no
// predictor learns, so every choice is a select on a mask, never a branch
// (docs/performance.md, "Discrete events": GCC branched on two of the
// three comparisons of the plain loop).
std::size_t smallest_of_four(const Event* h, std::size_t first) {
  std::size_t best = first;
  std::uint64_t best_time = h[first].time_key;
  std::uint64_t best_order = h[first].order_key;
  for (std::size_t c = first + 1; c < first + EventQueue::kArity; ++c) {
    const Event e = h[c];
    const bool is_less = EventQueue::key(e) < ((EventQueue::Key{best_time} << 64) | best_order);
    const std::uint64_t less = -static_cast<std::uint64_t>(is_less);
    best ^= (c ^ best) & less;
    best_time ^= (e.time_key ^ best_time) & less;
    best_order ^= (e.order_key ^ best_order) & less;
  }
  return best;
}

}  // namespace

void EventQueue::remove_top() {
  const Event last = heap_.back();
  heap_.pop_back();
  if (heap_.empty()) return;
  sift_down_from_top(last);
}

void EventQueue::replace_top(Event event) { sift_down_from_top(event); }

void EventQueue::sift_down_from_top(Event last) { sift_up(descend_from_top(), last); }

std::size_t EventQueue::descend_from_top() {
  const std::size_t n = heap_.size();
  Event* const h = heap_.data();
  // Floyd's bottom-up deletion: move the hole down along the smallest
  // children to a leaf without comparing with the event that will fill it
  // (which almost always belongs near the bottom); sift_up() places it. A
  // full group of children is scanned by smallest_of_four(), without a
  // branch.
  std::size_t i = 0;
  while (true) {
    const std::size_t first = i * kArity + 1;
    if (first + kArity > n) break;
    const std::size_t best = smallest_of_four(h, first);
    h[i] = h[best];
    i = best;
  }
  if (const std::size_t first = i * kArity + 1; first < n) {  // the one partial group
    std::size_t best = first;
    for (std::size_t c = first + 1; c < n; ++c) {
      if (before(h[c], h[best])) best = c;
    }
    h[i] = h[best];
    i = best;
  }
  return i;
}

void EventQueue::sift_up(std::size_t i, Event event) {
  Event* const h = heap_.data();
  const Key moving = key(event);
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!(moving < key(h[parent]))) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = event;
}

void EventQueue::open_top() {
  open_ = descend_from_top();
  has_open_ = true;
}

void EventQueue::close_open() {
  has_open_ = false;
  const Event last = heap_.back();
  heap_.pop_back();
  // The open slot is a leaf: the last event needs at most to move up from it.
  if (open_ < heap_.size()) sift_up(open_, last);
}

void EventQueue::pop() { remove_top(); }

}  // namespace ctde
