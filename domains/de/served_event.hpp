#pragma once
/// The event being served while its actor fires: the hold pattern, where
/// the firing usually schedules the actor's next event, which then takes the
/// served event's place in one sift instead of a pop and a push.
///
/// Two ways to do it, chosen once per run by the model's size: a small
/// model keeps the served event at the top while the actor fires and
/// replaces it (replace_top); a large one opens its slot before the actor
/// fires (open_top), so that the heap's walk down, whose loads miss the cache,
/// overlaps the actor's own (docs/performance.md, "Discrete events": 6–8 %
/// faster at 1e5 actors, 13 % slower at 1e3). One type, so that the
/// director's loop has one path.

#include "event_queue.hpp"

namespace ctde {

/// Serves events of one queue. Copyable value type (it points to the queue,
/// which must outlive it).
class ServedEvent {
 public:
  ServedEvent() = default;
  /// Serves `queue`'s events; `open_early`: open the served event's slot
  /// before its actor fires (large models).
  ServedEvent(EventQueue& queue, bool open_early) : queue_(&queue), open_early_(open_early) {}

  /// Starts serving the queue's top (precondition: not empty, nothing served).
  void begin() {
    if (open_early_) {
      queue_->open_top();  // the heap's half of the hold operation
    } else {
      held_ = true;
    }
  }

  /// Schedules `event`: in the served event's place while it is held or
  /// open, else as a plain insertion.
  void schedule(Event event) {
    if (held_) {
      held_ = false;
      queue_->replace_top(event);
      return;
    }
    queue_->insert(event);  // fills the open slot when there is one
  }

  /// The served event's actor has fired (or failed): the event leaves the
  /// queue, unless an event scheduled meanwhile took its place. A no-op when
  /// nothing is served.
  void end() {
    if (held_) {
      held_ = false;
      queue_->pop();
    } else if (queue_->has_open()) {
      queue_->close_open();
    }
  }

 private:
  EventQueue* queue_ = nullptr;
  bool open_early_ = false;
  bool held_ = false;  ///< the served event is still at the top (small models)
};

}  // namespace ctde
