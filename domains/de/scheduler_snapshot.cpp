// The scheduler's part of a snapshot (docs/snapshots.md): the queued events
// in heap order, as they are (the same heap pops in the same order, twins
// included), and the token bookkeeping between two microsteps.
#include <stdexcept>

#include "domains/de/discrete_scheduler.hpp"

namespace ctde {

void EventQueue::assign(std::vector<Event> heap) {
  for (std::size_t i = 1; i < heap.size(); ++i) {
    if (before(heap[i], heap[(i - 1) / kArity]))
      throw std::invalid_argument("EventQueue::assign: the events are not in heap order");
  }
  heap_ = std::move(heap);
  has_open_ = false;
  open_ = 0;
}

void DiscreteScheduler::save(StateWriter& out) const {
  out.values(queue_.heap());
  out.values(scheduled_);
  out.values(firing_);
  out.values(fire_next_);
  out.values(present_now_list_);
  out.values(present_next_list_);
  out.boolean(in_microstep_);
  out.u32(current_.value());
  out.u64(next_);
  out.boolean(stale_);
}

void DiscreteScheduler::restore(StateReader& in) {
  std::vector<Event> heap = in.values<Event>();
  const std::size_t actors = scheduled_.size();
  for (const Event& e : heap) {
    if (e.depth().index() >= actors) in.fail("a queued event for an actor this model does not have");
  }
  try {
    queue_.assign(std::move(heap));
  } catch (const std::invalid_argument&) {
    in.fail("the queued events are not in the queue's order (corrupt)");
  }
  in.values_into(std::span<std::uint8_t>(scheduled_));
  firing_ = in.values<ActorId>();
  fire_next_ = in.values<ActorId>();
  present_now_list_ = in.values<InputId>();
  present_next_list_ = in.values<InputId>();
  for (const std::vector<ActorId>* list : {&firing_, &fire_next_}) {
    for (const ActorId a : *list) {
      if (a.index() >= actors) in.fail("an actor due that this model does not have");
    }
  }
  for (const std::vector<InputId>* list : {&present_now_list_, &present_next_list_}) {
    for (const InputId p : *list) {
      if (p.index() >= b_.present_now.size()) in.fail("a token on an input this model does not have");
    }
  }
  in_microstep_ = in.boolean();
  current_ = ActorId{in.u32()};
  next_ = in.u64();
  stale_ = in.boolean();
}

}  // namespace ctde
