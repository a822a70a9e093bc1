#include "domains/de/event_queue.hpp"

namespace ctde {

namespace {
constexpr std::size_t kArity = 4;
}  // namespace

EventId EventQueue::insert(Event event) {
  event.seq = next_seq_++;
  std::size_t i = heap_.size();
  heap_.push_back(event);
  while (i > 0) {  // sift up
    const std::size_t parent = (i - 1) / kArity;
    if (!before(event, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = event;
  return {event.seq};
}

void EventQueue::remove_top() {
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  std::size_t i = 0;
  while (true) {  // sift down
    const std::size_t first = i * kArity + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = first + kArity < n ? first + kArity : n;
    for (std::size_t c = first + 1; c < end; ++c) {
      if (before(heap_[c], heap_[best])) best = c;
    }
    if (!before(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
}

void EventQueue::drop_cancelled() {
  while (!heap_.empty() && !cancelled_.empty()) {
    const auto it = cancelled_.find(heap_.front().seq);
    if (it == cancelled_.end()) return;
    cancelled_.erase(it);
    remove_top();
  }
}

void EventQueue::pop() {
  remove_top();
  drop_cancelled();
}

void EventQueue::cancel(EventId id) {
  if (id.seq >= next_seq_) return;
  bool pending = false;
  for (const Event& e : heap_) {
    if (e.seq == id.seq) {
      pending = true;
      break;
    }
  }
  if (!pending) return;  // unknown or already popped
  cancelled_.insert(id.seq);
  drop_cancelled();
}

}  // namespace ctde
