// The DE event set: its total order, cancellation, and agreement with a
// reference ordered set.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "domains/de/event_queue.hpp"

using ctde::Event;
using ctde::EventId;
using ctde::EventQueue;
using ctde::Tag;
using ctde::Tick;

namespace {

std::vector<Event> drain(EventQueue& q) {
  std::vector<Event> out;
  while (!q.empty()) {
    out.push_back(q.peek());
    q.pop();
  }
  return out;
}

std::vector<std::uint32_t> payloads(const std::vector<Event>& events) {
  std::vector<std::uint32_t> out;
  for (const Event& e : events) out.push_back(e.payload());
  return out;
}

}  // namespace

TEST_CASE("events come out by time, then microstep, then depth, then insertion order") {
  EventQueue q;
  q.insert(Event(Tag{5, 0}, 0, 0, 1));
  q.insert(Event(Tag{3, 2}, 0, 0, 2));
  q.insert(Event(Tag{3, 1}, 7, 0, 3));
  q.insert(Event(Tag{3, 1}, 2, 0, 4));
  q.insert(Event(Tag{3, 1}, 7, 0, 5));  // twin of 3, inserted later
  q.insert(Event(Tag{-4, 9}, 3, 0, 6));  // negative ticks come before positive ones
  q.insert(Event(Tag{3, 1}, 2, 0, 7));  // twin of 4, inserted later
  q.insert(Event(Tag{3, 0}, 9, 0, 8));
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{6, 8, 4, 7, 3, 5, 2, 1});
}

TEST_CASE("an event keeps its fields and gets an increasing sequence number") {
  EventQueue q;
  const EventId first = q.insert(Event(Tag{10, 3}, 4, 11, 12));
  const EventId second = q.insert(Event(Tag{10, 3}, 4, 21, 22));
  CHECK(first.seq < second.seq);
  const Event e = q.peek();
  CHECK(e.tag() == Tag{10, 3});
  CHECK(e.time() == 10);
  CHECK(e.microstep() == 3);
  CHECK(e.depth() == 4);
  CHECK(e.target() == 11);
  CHECK(e.payload() == 12);
  CHECK(e.seq() == first.seq);
  q.pop();
  CHECK(q.peek().seq() == second.seq);
  CHECK(q.peek().target() == 21);
}

TEST_CASE("Event::at names a receiver by its depth") {
  const Event e = Event::at(Tag{7, 1}, 5);
  CHECK(e.tag() == Tag{7, 1});
  CHECK(e.depth() == 5);
  CHECK(e.target() == 5);
  CHECK(e.payload() == 0);
}

TEST_CASE("a cancelled event is never returned, wherever it is") {
  EventQueue q;
  q.insert(Event(Tag{1, 0}, 0, 0, 1));
  const EventId middle = q.insert(Event(Tag{2, 0}, 0, 0, 2));
  q.insert(Event(Tag{3, 0}, 0, 0, 3));
  const EventId last = q.insert(Event(Tag{4, 0}, 0, 0, 4));
  q.cancel(middle);
  q.cancel(last);
  CHECK(q.size() == 2);
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{1, 3});
}

TEST_CASE("cancelling the next event shows the one after it at once") {
  EventQueue q;
  const EventId top = q.insert(Event(Tag{1, 0}, 0, 0, 1));
  q.insert(Event(Tag{2, 0}, 0, 0, 2));
  q.cancel(top);
  CHECK(q.size() == 1);
  CHECK(q.peek().payload() == 2);
}

TEST_CASE("cancelling a popped, an already cancelled or an unknown id does nothing") {
  EventQueue q;
  const EventId popped = q.insert(Event(Tag{1, 0}, 0, 0, 1));
  const EventId cancelled = q.insert(Event(Tag{5, 0}, 0, 0, 5));
  q.insert(Event(Tag{6, 0}, 0, 0, 6));
  q.pop();
  q.cancel(cancelled);
  REQUIRE(q.size() == 1);
  // The popped event's place is reused by the next insertion; its old id
  // must not reach the new event.
  q.insert(Event(Tag{2, 0}, 0, 0, 2));
  q.insert(Event(Tag{3, 0}, 0, 0, 3));
  q.cancel(popped);
  q.cancel(cancelled);
  q.cancel(EventId{});
  q.cancel(EventId{999, 999});
  CHECK(q.size() == 3);
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{2, 3, 6});
}

TEST_CASE("size counts live events and empty means no live event") {
  EventQueue q;
  CHECK(q.empty());
  CHECK(q.size() == 0);
  const EventId a = q.insert(Event(Tag{2, 0}, 0, 0, 0));
  const EventId b = q.insert(Event(Tag{1, 0}, 0, 0, 0));
  const EventId c = q.insert(Event(Tag{3, 0}, 0, 0, 0));
  CHECK(q.size() == 3);
  q.cancel(a);  // not at the front: a mark only
  CHECK(q.size() == 2);
  q.cancel(a);
  CHECK(q.size() == 2);
  q.pop();
  CHECK(q.size() == 1);
  CHECK_FALSE(q.empty());
  q.cancel(b);  // already popped
  CHECK(q.size() == 1);
  q.cancel(c);
  CHECK(q.size() == 0);
  CHECK(q.empty());
}

TEST_CASE("events inserted at the current time keep the total order") {
  // Zero-delay events (at the time of the last pop) arrive out of depth
  // order, mixed with events that were already queued at that time.
  EventQueue q;
  q.insert(Event(Tag{5, 0}, 0, 0, 0));
  q.insert(Event(Tag{5, 1}, 4, 0, 14));
  q.insert(Event(Tag{9, 0}, 0, 0, 90));
  q.pop();  // (5, 0)
  q.insert(Event(Tag{5, 1}, 7, 0, 17));
  q.insert(Event(Tag{5, 1}, 3, 0, 13));
  q.insert(Event(Tag{5, 1}, 7, 0, 27));
  q.insert(Event(Tag{5, 2}, 0, 0, 20));
  q.insert(Event(Tag{5, 1}, 5, 0, 15));
  q.insert(Event(Tag{4, 0}, 0, 0, 40));  // in the past: still ordered
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{40, 13, 14, 15, 17, 27, 20, 90});
}

TEST_CASE("replace_top is a pop followed by an insert") {
  EventQueue q;
  for (std::uint32_t i = 0; i < 10; ++i) q.insert(Event(Tag{Tick{i} * 10, 0}, 0, 0, i));
  const EventId id = q.replace_top(Event(Tag{55, 0}, 0, 0, 55));
  CHECK(q.size() == 10);
  CHECK(q.peek().payload() == 1);
  q.cancel(id);
  q.replace_top(Event(Tag{10, 1}, 0, 0, 11));  // goes straight back to the front
  q.replace_top(Event(Tag{10, 1}, 0, 0, 12));  // the same tag as the one it replaces
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{12, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("another_at tells whether a live event besides the front is at a tag") {
  EventQueue q;
  q.insert(Event(Tag{1, 0}, 3, 0, 0));
  CHECK_FALSE(q.another_at(Tag{1, 0}));
  const EventId second = q.insert(Event(Tag{1, 0}, 5, 0, 0));
  q.insert(Event(Tag{1, 1}, 0, 0, 0));
  CHECK(q.another_at(Tag{1, 0}));
  q.cancel(second);
  CHECK_FALSE(q.another_at(Tag{1, 0}));
  q.pop();
  CHECK_FALSE(q.another_at(Tag{1, 1}));
}

TEST_CASE("another_at sees a live event hidden below cancelled ones") {
  EventQueue q;
  q.insert(Event(Tag{1, 0}, 0, 0, 0));
  std::vector<EventId> ids;
  for (std::uint32_t d = 1; d <= 40; ++d) ids.push_back(q.insert(Event(Tag{1, 0}, d, 0, d)));
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) q.cancel(ids[i]);  // all but the latest (deepest) one
  CHECK(q.size() == 2);
  CHECK(q.another_at(Tag{1, 0}));
  q.cancel(ids.back());
  CHECK_FALSE(q.another_at(Tag{1, 0}));
}

TEST_CASE("a copy is independent and takes the same ids") {
  EventQueue q;
  q.insert(Event(Tag{1, 0}, 0, 0, 1));
  const EventId id = q.insert(Event(Tag{2, 0}, 0, 0, 2));
  EventQueue copy = q;
  copy.cancel(id);
  CHECK(copy.size() == 1);
  CHECK(q.size() == 2);
  CHECK(payloads(drain(q)) == std::vector<std::uint32_t>{1, 2});
  CHECK(payloads(drain(copy)) == std::vector<std::uint32_t>{1});
}

TEST_CASE("random inserts, pops, replacements and cancels agree with an ordered reference") {
  using Key = std::tuple<Tick, std::uint32_t, std::uint32_t, std::uint64_t>;  // time, microstep, depth, seq
  struct Fields {
    std::uint32_t target;
    std::uint32_t payload;
  };
  const auto key_of = [](const Event& e) { return Key{e.time(), e.microstep(), e.depth(), e.seq()}; };

  std::mt19937_64 rng(20240607);
  EventQueue q;
  std::multiset<Key> reference;
  std::map<std::uint64_t, Fields> fields;  // by seq
  std::map<std::uint64_t, Key> key_by_seq;
  std::vector<EventId> ids;                // every id ever returned, popped ones included
  Tick now = 0;                            // time of the last pop
  std::size_t cancels_that_hit = 0;
  std::size_t zero_delay = 0;

  const auto random_event = [&] {
    const auto r = rng() % 10;
    Tick time = now;  // zero delay: 40 %
    if (r >= 4 && r < 9) time = now + static_cast<Tick>(rng() % 20);
    if (r == 9) time = now - static_cast<Tick>(rng() % 5);  // in the past
    if (time == now) ++zero_delay;
    const auto n = static_cast<std::uint32_t>(rng() % 3);
    const auto depth = static_cast<std::uint32_t>(rng() % 4);
    return Event(Tag{time, n}, depth, static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()));
  };
  const auto record = [&](EventId id, const Event& e) {
    const Key k{e.time(), e.microstep(), e.depth(), id.seq};
    reference.insert(k);
    fields[id.seq] = {e.target(), e.payload()};
    key_by_seq[id.seq] = k;
    ids.push_back(id);
  };
  const auto check_front = [&] {
    REQUIRE(q.size() == reference.size());
    REQUIRE(q.empty() == reference.empty());
    if (reference.empty()) return;
    const Event& top = q.peek();
    REQUIRE(key_of(top) == *reference.begin());
    REQUIRE(top.target() == fields[top.seq()].target);
    REQUIRE(top.payload() == fields[top.seq()].payload);
  };

  for (int step = 0; step < 10000; ++step) {
    const auto op = rng() % 10;
    if (op < 4 || reference.empty()) {
      const Event e = random_event();
      record(q.insert(e), e);
    } else if (op < 6) {
      now = q.peek().time();
      reference.erase(reference.begin());
      q.pop();
    } else if (op < 8) {
      now = q.peek().time();
      reference.erase(reference.begin());
      const Event e = random_event();
      record(q.replace_top(e), e);
    } else {
      const EventId victim = ids[rng() % ids.size()];
      const auto it = reference.find(key_by_seq[victim.seq]);
      if (it != reference.end()) {
        reference.erase(it);
        ++cancels_that_hit;
      }
      q.cancel(victim);
    }
    check_front();
  }
  while (!reference.empty()) {
    check_front();
    reference.erase(reference.begin());
    q.pop();
  }
  CHECK(q.empty());
  CHECK(q.size() == 0);
  // The run exercised what it claims to.
  CHECK(cancels_that_hit > 300);
  CHECK(zero_delay > 2000);
}
