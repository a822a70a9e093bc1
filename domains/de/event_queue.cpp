#include "domains/de/event_queue.hpp"

namespace ctde {

EventId EventQueue::insert(Event event) {
  std::size_t i = heap_.size();
  heap_.push_back(event);
  while (i > 0) {  // sift up
    const std::size_t parent = (i - 1) / kArity;
    if (!before(event, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = event;
  return {event};
}

void EventQueue::remove_top() {
  const Event last = heap_.back();
  heap_.pop_back();
  if (heap_.empty()) return;
  sift_down_from_top(last);
}

bool EventQueue::another_at(Tag tag) const {
  const Event probe = Event::at(tag, 0);
  const std::size_t n = heap_.size();
  for (std::size_t c = 1; c <= kArity && c < n; ++c) {
    if (heap_[c].time_key == probe.time_key && (heap_[c].order_key >> 32) == (probe.order_key >> 32)) {
      return true;
    }
  }
  return false;
}

EventId EventQueue::replace_top(Event event) {
  sift_down_from_top(event);
  drop_cancelled();
  return {event};
}

void EventQueue::sift_down_from_top(Event last) {
  const std::size_t n = heap_.size();
  // Floyd's bottom-up deletion: move the hole down along the smallest
  // children to a leaf without comparing with `last` (which almost always
  // belongs near the bottom), then sift `last` up from there.
  std::size_t i = 0;
  while (true) {
    const std::size_t first = i * kArity + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = first + kArity < n ? first + kArity : n;
    for (std::size_t c = first + 1; c < end; ++c) {
      if (before(heap_[c], heap_[best])) best = c;
    }
    heap_[i] = heap_[best];
    i = best;
  }
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!before(last, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = last;
}

void EventQueue::drop_cancelled_slow() {
  while (!heap_.empty()) {
    const auto it = cancelled_.find(heap_.front());
    if (it == cancelled_.end()) return;
    if (--it->second == 0) cancelled_.erase(it);
    remove_top();
  }
}

void EventQueue::pop() {
  remove_top();
  drop_cancelled();
}

void EventQueue::cancel(EventId id) {
  std::uint32_t pending = 0;
  for (const Event& e : heap_) pending += e == id.event ? 1 : 0;
  const auto it = cancelled_.find(id.event);
  const std::uint32_t marked = it == cancelled_.end() ? 0 : it->second;
  if (pending <= marked) return;  // none pending, or all already marked
  ++cancelled_[id.event];
  drop_cancelled();
}

}  // namespace ctde
