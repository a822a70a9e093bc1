// The discrete scheduler without a model: hand-laid buffers of a few actors,
// the firing order of a microstep, token slots and twins of served events.
#include <doctest/doctest.h>

#include <vector>

#include "domains/de/discrete_scheduler.hpp"

using ctde::ActorId;
using ctde::DiscreteScheduler;
using ctde::DueActor;
using ctde::InputId;
using ctde::RunBuffers;
using ctde::Tag;

namespace {

/// Buffers for `actors` actors in a line, actor k's output 0 driving one
/// scalar input of each actor in receivers[k] (one input per edge).
RunBuffers line_buffers(std::uint32_t actors, const std::vector<std::vector<std::uint32_t>>& receivers) {
  RunBuffers b;
  b.receivers_begin.emplace_back(0);
  for (std::uint32_t a = 0; a < actors; ++a) {
    for (const std::uint32_t r : receivers[a]) {
      const auto input = static_cast<std::uint32_t>(b.input_owner.size());
      b.input_owner.emplace_back(r);
      b.input_tokens.push_back({ctde::TokenIndex{input}, 1});
      b.receivers.emplace_back(input);
    }
    b.receivers_begin.push_back(ctde::ReceiverIndex::at(b.receivers.size()));
  }
  const std::size_t inputs = b.input_owner.size();
  b.tokens_now.assign(inputs, 0.0);
  b.tokens_next.assign(inputs, 0.0);
  b.present_now.assign(inputs, ctde::kAbsent);
  b.present_next.assign(inputs, ctde::kAbsent);
  return b;
}

/// The actors the scheduler fires at `now`, in order; each in `sends` sends
/// `value` on its output 0 as it fires.
std::vector<std::uint32_t> fire_all(DiscreteScheduler& s, Tag now,
                                    const std::vector<std::uint32_t>& sends = {},
                                    std::vector<bool>* from_queue = nullptr) {
  std::vector<std::uint32_t> fired;
  if (!s.begin_microstep(now)) return fired;
  DueActor due;
  while (s.next_due(now, due)) {
    fired.push_back(due.actor.value());
    if (from_queue != nullptr) from_queue->push_back(due.from_queue);
    for (const std::uint32_t a : sends) {
      if (a == due.actor.value()) {
        const double token = 10.0 + a;
        s.send(ctde::OutputId{a}, std::span<const double>(&token, 1));
      }
    }
    s.end_firing();
  }
  s.end_microstep();
  return fired;
}

}  // namespace

TEST_CASE("the scheduler fires queued actors of a tag in depth order, each once") {
  RunBuffers b = line_buffers(4, {{}, {}, {}, {}});
  DiscreteScheduler s(b);
  s.lay_out(4, false);
  s.queue(Tag{5, 0}, ActorId{3});
  s.queue(Tag{5, 0}, ActorId{1});
  s.queue(Tag{5, 0}, ActorId{1});  // a twin: the actor fires once
  s.queue(Tag{5, 1}, ActorId{0});
  s.queue(Tag{7, 0}, ActorId{2});
  CHECK(s.due_at(5));
  CHECK(s.next_time(100) == 5);
  CHECK(fire_all(s, Tag{5, 0}) == std::vector<std::uint32_t>{1, 3});
  CHECK(s.due_after(Tag{5, 0}));  // (5, 1) is queued
  CHECK(fire_all(s, Tag{5, 1}) == std::vector<std::uint32_t>{0});
  CHECK_FALSE(s.due_after(Tag{5, 1}));
  CHECK_FALSE(s.due_at(5));
  CHECK(s.next_time(6) == 6);  // the stop comes first
  CHECK(s.next_time(100) == 7);
}

TEST_CASE("a token reaches a deeper receiver in the same microstep and a shallower one at the next") {
  // 0 -> 2 and 2 -> 1: actor 2 fires after 0 at once, actor 1 (shallower
  // than its sender) one microstep later.
  RunBuffers b = line_buffers(3, {{2}, {}, {1}});
  DiscreteScheduler s(b);
  s.lay_out(3, false);
  s.queue(Tag{0, 0}, ActorId{0});
  std::vector<bool> from_queue;
  CHECK(fire_all(s, Tag{0, 0}, {0, 2}, &from_queue) == std::vector<std::uint32_t>{0, 2});
  CHECK(from_queue == std::vector<bool>{true, false});
  CHECK(b.present_now[0] == ctde::kSentNow);  // 0's token, seen by 2 at (0, 0)
  CHECK(b.tokens_now[0] == 10.0);
  CHECK(b.present_next[1] == ctde::kSentBefore);  // 2's token, for 1 at (0, 1)
  CHECK(b.tokens_next[1] == 12.0);
  REQUIRE(s.due_after(Tag{0, 0}));
  CHECK(fire_all(s, Tag{0, 1}) == std::vector<std::uint32_t>{1});
  CHECK(b.present_now[0] == ctde::kAbsent);  // a token lives one microstep
  CHECK(b.present_now[1] == ctde::kSentBefore);
  CHECK(b.tokens_now[1] == 12.0);
  CHECK_FALSE(s.due_after(Tag{0, 1}));
  CHECK_FALSE(s.begin_microstep(Tag{0, 2}));
  CHECK(b.present_now[1] == ctde::kAbsent);
}

TEST_CASE("an actor due by a token and a queued event at one tag fires once, as a queued event") {
  RunBuffers b = line_buffers(3, {{1, 2}, {}, {}});
  DiscreteScheduler s(b);
  s.lay_out(3, false);
  s.queue(Tag{0, 0}, ActorId{0});
  s.queue(Tag{0, 0}, ActorId{2});
  std::vector<bool> from_queue;
  CHECK(fire_all(s, Tag{0, 0}, {0}, &from_queue) == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(from_queue == std::vector<bool>{true, false, true});
  CHECK_FALSE(s.due_after(Tag{0, 0}));
}

TEST_CASE("a served actor's own fire_at takes its event's place, in both ways of serving") {
  for (const bool open_early : {false, true}) {
    RunBuffers b = line_buffers(2, {{}, {}});
    DiscreteScheduler s(b);
    s.lay_out(2, open_early);
    s.queue(Tag{1, 0}, ActorId{0});
    s.queue(Tag{4, 0}, ActorId{1});
    REQUIRE(s.begin_microstep(Tag{1, 0}));
    DueActor due;
    REQUIRE(s.next_due(Tag{1, 0}, due));
    s.fire_at(Tag{3, 0}, ActorId{0});
    s.end_firing();
    CHECK_FALSE(s.next_due(Tag{1, 0}, due));
    s.end_microstep();
    CHECK(s.pending().size() == 2);
    CHECK(s.next_time(100) == 3);
    CHECK(fire_all(s, Tag{3, 0}) == std::vector<std::uint32_t>{0});
    CHECK(s.next_time(100) == 4);
  }
}

TEST_CASE("a constant's value is present at every tag and its reader fires once") {
  RunBuffers b = line_buffers(2, {{1}, {}});
  DiscreteScheduler s(b);
  s.lay_out(2, false);
  const double value = 2.5;
  s.present_always(InputId{0}, std::span<const double>(&value, 1));
  CHECK(fire_all(s, Tag{0, 0}) == std::vector<std::uint32_t>{1});
  CHECK(b.present_now[0] == ctde::kConstantValue);
  CHECK(b.tokens_now[0] == 2.5);
  CHECK_FALSE(s.begin_microstep(Tag{0, 1}));
  CHECK(b.present_now[0] == ctde::kConstantValue);
  CHECK(b.tokens_now[0] == 2.5);
}

TEST_CASE("the scheduler names the actors still due, and asks for one refresh after outputs change") {
  RunBuffers b = line_buffers(3, {{}, {}, {}});
  DiscreteScheduler s(b);
  s.lay_out(3, false);
  s.queue(Tag{2, 0}, ActorId{2});
  s.queue(Tag{2, 0}, ActorId{0});
  const std::vector<ActorId> due = s.due(Tag{2, 0});
  REQUIRE(due.size() == 1);  // the queue's top; the other is behind it
  CHECK(due[0] == ActorId{0});
  CHECK_FALSE(s.refresh_due());
  s.outputs_changed();
  s.outputs_changed();
  CHECK(s.refresh_due());
  CHECK_FALSE(s.refresh_due());
}
