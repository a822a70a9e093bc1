#include "domains/de/event_queue.hpp"

namespace ctde {

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
  // full group of children is scanned by smallest_of_group(), keeping the
  // minimum's key in registers.
  std::size_t i = 0;
  while (true) {
    const std::size_t first = i * kArity + 1;
    if (first + kArity > n) break;
    const std::size_t best = smallest_of_group<kArity>(h, first);
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
