#pragma once
/// The discrete-event side of a run: who fires at the current microstep and
/// in what order. It owns
///
/// - the time events (the queue, and the event being served while its actor
///   fires: ServedEvent, the hold pattern);
/// - the firing order of a microstep: the actors due, by depth, merging the
///   time events of the tag with the actors that received tokens;
/// - the token slots of the inputs: which microstep sees a token (a receiver
///   deeper than the sender sees it at once, any other at the next
///   microstep; a constant's value at every tag);
/// - the output refresh: whether a firing changed continuous outputs that a
///   later reader must see evaluated again (docs/semantics.md, "The
///   microstep's fixed point").
///
/// The director fires the actors and asks this type what comes next; its
/// loop has one path (docs/architecture.md). The hot path (next_due, send)
/// is inline and allocates nothing once the vectors have grown.

#include <algorithm>
#include <cassert>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/run_buffers.hpp"
#include "../../core/state_stream.hpp"
#include "event_queue.hpp"
#include "served_event.hpp"

namespace ctde {

/// An actor due at the current microstep (DiscreteScheduler::next_due).
struct DueActor {
  ActorId actor;
  bool from_queue = false;  ///< served from the queue (a time or state event), not only tokens
};

/// Not copyable (it points into itself and into the run's buffers, which must
/// outlive it).
class DiscreteScheduler {
 public:
  /// Schedules the actors whose input slots and owners `buffers` lays out.
  explicit DiscreteScheduler(RunBuffers& buffers) : b_(buffers) {}
  /// For `actors` actors; `open_early`: serve events with their slot opened
  /// before the actor fires (large models, ServedEvent).
  void lay_out(std::size_t actors, bool open_early) {
    scheduled_.assign(actors, 0);
    served_ = ServedEvent(queue_, open_early);
  }
  DiscreteScheduler(const DiscreteScheduler&) = delete;
  DiscreteScheduler& operator=(const DiscreteScheduler&) = delete;

  // ---- Time events

  /// Fires `actor` at `tag`: an actor's own request, in the place of the
  /// event being served when there is one.
  void fire_at(Tag tag, ActorId actor) { served_.schedule(Event::at(tag, actor)); }
  /// Fires `actor` at `tag` for the director (a located crossing, a step
  /// watcher), outside any firing.
  void queue(Tag tag, ActorId actor) { queue_.insert(Event::at(tag, actor)); }
  /// True when an event is queued at time `t` (any microstep).
  [[nodiscard]] bool queued_at(Tick t) const { return !queue_.empty() && queue_.peek().time() == t; }
  /// The time of the next queued event, or `otherwise` when none is queued
  /// before it.
  [[nodiscard]] Tick next_time(Tick otherwise) const {
    return queue_.empty() ? otherwise : std::min(queue_.peek().time(), otherwise);
  }
  /// The pending events in heap order, for looking ahead (prefetching).
  [[nodiscard]] std::span<const Event> pending() const { return queue_.heap(); }

  // ---- Snapshots (docs/snapshots.md)

  /// Writes the queued events and the token bookkeeping, between two tags
  /// (no event served, no slot open: scheduler_snapshot.cpp).
  void save(StateWriter& out) const;
  /// Reads what save() wrote, into a scheduler laid out for the same model.
  /// @throws SnapshotError when it does not fit (an actor beyond the
  ///         model's, events out of heap order).
  void restore(StateReader& in);

  // ---- Tokens

  /// Sends `token` from output port `port` to every input it drives: a receiver deeper than the actor firing
  /// now (inside a microstep) sees it at this microstep and joins its firing
  /// order; any other sees it at the next microstep.
  void send(OutputId port, std::span<const double> token) {
    const std::size_t p = port.index();
    for (ReceiverIndex r = b_.receivers_begin[p]; r < b_.receivers_begin[p + 1]; ++r) {
      const InputId input = b_.receivers[r.index()];
      const TokenSlice slot = b_.input_tokens[input.index()];
      const ActorId receiver = b_.input_owner[input.index()];
      if (in_microstep_ && receiver > current_) {  // fires later in this microstep
        std::copy(token.begin(), token.end(), b_.tokens_now.data() + slot.offset.index());
        if (b_.present_now[input.index()] == kAbsent) present_now_list_.push_back(input);
        b_.present_now[input.index()] = kSentNow;
        schedule_now(receiver);
        if (!b_.wakes_begin.empty()) wake(input, true);
        continue;
      }
      std::copy(token.begin(), token.end(), b_.tokens_next.data() + slot.offset.index());
      if (b_.present_next[input.index()] == kAbsent) {
        b_.present_next[input.index()] = kSentBefore;  // seen from the next microstep
        present_next_list_.push_back(input);
      }
      schedule_next(receiver);
      if (!b_.wakes_begin.empty()) wake(input, false);
    }
  }

  /// `input` holds `value` at every tag (it is driven by a constant); its
  /// reader fires once, at the next microstep, when the value appears.
  void present_always(InputId input, std::span<const double> value);

  // ---- Microsteps

  /// Starts the microstep `now`: tokens sent for it become visible, their
  /// readers are due. True when any actor is due (tokens or queued events).
  bool begin_microstep(Tag now) {
    if (!present_now_list_.empty() || !present_next_list_.empty() || !fire_next_.empty()) deliver();
    const bool any = !firing_.empty() || queued_now(now);
    in_microstep_ = any;
    next_ = 0;
    return any;
  }

  /// The next actor due at `now` in depth order, or false when every due
  /// actor has fired: a queued event of the tag and the actors with tokens,
  /// merged (an actor due both ways fires once). A queued event is served
  /// (its actor's fire_at takes its place) until end_firing().
  bool next_due(Tag now, DueActor& due) {
    while (queued_now(now)) {
      const ActorId top = queue_.peek().depth();
      if (top.value() < next_) {
        queue_.pop();  // a twin of an event already served: the actor fired at this tag
        continue;
      }
      if (!firing_.empty() && firing_.front() < top) break;
      if (!firing_.empty() && firing_.front() == top) pop_firing();
      served_.begin();
      return take(top, true, due);
    }
    if (firing_.empty()) return false;
    return take(pop_firing(), false, due);
  }

  /// The actor next_due() returned has fired (or failed): the event it
  /// served leaves the queue unless a new one took its place. A no-op when
  /// none is served.
  void end_firing() { served_.end(); }

  /// Every actor due at the microstep has fired: tokens sent from now on
  /// are for the next microstep.
  void end_microstep() { in_microstep_ = false; }

  /// True when anything is due at the microstep after `now`: tokens sent
  /// for it, an event queued at its tag.
  [[nodiscard]] bool due_after(Tag now) const {
    return !fire_next_.empty() || !present_next_list_.empty() || queued_now(Tag{now.time, now.microstep + 1});
  }

  /// True when anything is due at time `t` before the continuous phase may
  /// go on: a queued event at t, or tokens for the next microstep.
  [[nodiscard]] bool due_at(Tick t) const { return queued_at(t) || !fire_next_.empty(); }

  /// True when the queued event at `now` is all that is due there: no
  /// token for this microstep or the next, nothing else firing. Then
  /// begin_microstep(now) and next_due(now, ...) serve it (top_actor()).
  [[nodiscard]] bool lone_event(Tag now) const {
    return firing_.empty() && fire_next_.empty() && present_now_list_.empty() && present_next_list_.empty() &&
           queued_now(now);
  }
  /// The actor of the next queued event. Precondition: an event is queued.
  [[nodiscard]] ActorId top_actor() const { return queue_.peek().depth(); }
  /// begin_microstep(now) and next_due(now, ...) in one when
  /// lone_event(now): serves the queued event at `now` and returns its actor.
  ActorId serve_lone(Tag now) {
    (void)now;
    assert(lone_event(now));
    in_microstep_ = true;
    const ActorId top = queue_.peek().depth();
    served_.begin();
    DueActor due;
    take(top, true, due);
    return top;
  }
  /// After the firing of a lone event at `now` (and end_firing): true when
  /// nothing else is due at its time, at this microstep or the next (no
  /// token, no event queued at that time).
  [[nodiscard]] bool quiet_after(Tag now) const {
    return firing_.empty() && fire_next_.empty() && present_next_list_.empty() &&
           (queue_.empty() || queue_.peek().time() != now.time);
  }

  /// The actors due at `now` (tokens, and the queued event there), in depth
  /// order: for naming them when a run ends there.
  [[nodiscard]] std::vector<ActorId> due(Tag now) const;

  // ---- Output refresh

  /// A firing changed continuous outputs: they must be evaluated again
  /// before a reader of changing outputs fires, and after the microstep.
  void outputs_changed() { stale_ = true; }
  /// True once after outputs_changed(): the caller evaluates them now.
  [[nodiscard]] bool refresh_due() { return std::exchange(stale_, false); }

 private:
  /// The tokens sent for the microstep starting now become visible.
  void deliver();

  [[nodiscard]] bool queued_now(Tag now) const { return !queue_.empty() && queue_.peek().tag() == now; }

  bool take(ActorId actor, bool from_queue, DueActor& due) {
    current_ = actor;
    next_ = std::uint64_t{actor.value()} + 1;
    due = {actor, from_queue};
    if (!b_.sampling.empty()) {  // tell a loop's breaker whether this firing samples its loop
      std::uint8_t& sampling = b_.sampling[actor.index()];
      sampling = static_cast<std::uint8_t>((sampling & kBreaksLoop) |
                                           ((scheduled_[actor.index()] & kWokenNow) != 0 ? kLoopSample : 0));
      scheduled_[actor.index()] &= static_cast<std::uint8_t>(~kWokenNow);
    }
    return true;
  }

  /// A token on `input` enters a discrete loop (core/loop_sampling.hpp):
  /// the actors that break it are due first, at this microstep when `now`
  /// and they are still to fire in it (they are deeper than every sender
  /// into their loop), else at the next.
  void wake(InputId input, bool now) {
    for (std::uint32_t w = b_.wakes_begin[input.index()]; w < b_.wakes_begin[input.index() + 1]; ++w) {
      const ActorId breaker = b_.wakes[w];
      if (now && breaker > current_) {
        scheduled_[breaker.index()] |= kWokenNow;
        schedule_now(breaker);
      } else {
        scheduled_[breaker.index()] |= kWokenNext;
        schedule_next(breaker);
      }
    }
  }

  void schedule_now(ActorId a) {
    if ((scheduled_[a.index()] & kFiring) != 0) return;
    scheduled_[a.index()] |= kFiring;
    firing_.push_back(a);
    std::push_heap(firing_.begin(), firing_.end(), std::greater<>());
  }

  void schedule_next(ActorId a) {
    if ((scheduled_[a.index()] & kScheduledNext) != 0) return;
    scheduled_[a.index()] |= kScheduledNext;
    fire_next_.push_back(a);
  }

  /// Removes and returns the shallowest actor with tokens.
  ActorId pop_firing() {
    if (firing_.size() > 1) std::pop_heap(firing_.begin(), firing_.end(), std::greater<>());
    const ActorId a = firing_.back();
    firing_.pop_back();
    scheduled_[a.index()] &= static_cast<std::uint8_t>(~kFiring);
    return a;
  }

  static constexpr std::uint8_t kFiring = 1;         ///< in firing_ at this microstep
  static constexpr std::uint8_t kScheduledNext = 2;  ///< in fire_next_
  static constexpr std::uint8_t kWokenNow = 4;       ///< samples its loop at this microstep
  static constexpr std::uint8_t kWokenNext = 8;      ///< samples its loop at the next microstep

  RunBuffers& b_;
  std::vector<std::uint8_t> scheduled_;  ///< per actor (depth): kFiring, kScheduledNext, kWoken...
  EventQueue queue_;
  ServedEvent served_;
  std::vector<ActorId> firing_;             ///< this microstep's actors with tokens: a min-heap by depth
  std::vector<ActorId> fire_next_;          ///< actors with tokens for the next microstep
  std::vector<InputId> present_now_list_;   ///< inputs with a token at this microstep
  std::vector<InputId> present_next_list_;  ///< inputs with a token for the next one
  bool in_microstep_ = false;
  ActorId current_;  ///< the actor firing now (or last fired)
  /// The shallowest actor that may still fire in this microstep: a queued
  /// event for a shallower one is a twin of one served (the actor fired).
  std::uint64_t next_ = 0;
  bool stale_ = false;  ///< continuous outputs changed since they were evaluated
};

}  // namespace ctde
