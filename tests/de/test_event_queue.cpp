// The DE event set: its order, the hold operation (whole, in halves, and
// through ServedEvent), and agreement with a reference.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

#include "domains/de/event_queue.hpp"
#include "domains/de/served_event.hpp"

using ctde::ActorId;
using ctde::Event;
using ctde::EventQueue;
using ctde::ServedEvent;
using ctde::Tag;

namespace {
std::vector<Event> drain(EventQueue& q) {
  std::vector<Event> out;
  while (!q.empty()) {
    out.push_back(q.peek());
    q.pop();
  }
  return out;
}
}  // namespace

TEST_CASE("events come out by time, then microstep, then depth") {
  EventQueue q;
  q.insert(Event::at(Tag{5, 0}, ActorId{1}));
  q.insert(Event::at(Tag{3, 2}, ActorId{0}));
  q.insert(Event::at(Tag{3, 1}, ActorId{7}));
  q.insert(Event::at(Tag{3, 1}, ActorId{2}));
  q.insert(Event::at(Tag{-4, 9}, ActorId{3}));  // negative ticks order before positive ones
  const auto out = drain(q);
  REQUIRE(out.size() == 5);
  CHECK(out[0].tag() == Tag{-4, 9});
  CHECK(out[1].tag() == Tag{3, 1});
  CHECK(out[1].depth() == ActorId{2});
  CHECK(out[2].depth() == ActorId{7});
  CHECK(out[3].tag() == Tag{3, 2});
  CHECK(out[4].tag() == Tag{5, 0});
}

TEST_CASE("replace_top is a pop followed by an insert") {
  EventQueue q;
  for (int i = 0; i < 10; ++i) q.insert(Event::at(Tag{i * 10, 0}, ActorId{0}));
  q.replace_top(Event::at(Tag{55, 0}, ActorId{0}));
  const auto out = drain(q);
  REQUIRE(out.size() == 10);
  CHECK(out[0].time() == 10);
  CHECK(out[4].time() == 50);
  CHECK(out[5].time() == 55);
  CHECK(out[6].time() == 60);
}

TEST_CASE("an open top slot takes the next insert, or the last event when closed") {
  EventQueue q;
  for (int i = 0; i < 10; ++i) q.insert(Event::at(Tag{i * 10, 0}, ActorId{0}));
  q.open_top();  // serves 0
  CHECK(q.has_open());
  q.insert(Event::at(Tag{55, 0}, ActorId{0}));
  CHECK_FALSE(q.has_open());
  q.insert(Event::at(Tag{56, 0}, ActorId{0}));  // an ordinary insert: the slot is taken
  std::vector<ctde::Tick> times;
  for (const Event& e : drain(q)) times.push_back(e.time());
  CHECK(times == std::vector<ctde::Tick>{10, 20, 30, 40, 50, 55, 56, 60, 70, 80, 90});

  for (int i = 0; i < 6; ++i) q.insert(Event::at(Tag{i, 0}, ActorId{0}));
  q.open_top();  // serves 0; nothing takes the slot
  q.close_open();
  CHECK_FALSE(q.has_open());
  times.clear();
  for (const Event& e : drain(q)) times.push_back(e.time());
  CHECK(times == std::vector<ctde::Tick>{1, 2, 3, 4, 5});

  q.insert(Event::at(Tag{7, 0}, ActorId{0}));  // a single event: the open slot is the top itself
  q.open_top();
  q.close_open();
  CHECK(q.empty());
  q.insert(Event::at(Tag{7, 0}, ActorId{0}));
  q.open_top();
  q.insert(Event::at(Tag{8, 1}, ActorId{2}));
  CHECK(q.size() == 1);
  CHECK(q.peek() == Event::at(Tag{8, 1}, ActorId{2}));
}

TEST_CASE("random inserts, pops, replaces and open slots agree with an ordered reference") {
  std::mt19937_64 rng(2024);
  EventQueue q;
  std::multimap<std::pair<std::uint64_t, std::uint64_t>, int> reference;
  const auto key = [](const Event& e) { return std::make_pair(e.time_key, e.order_key); };
  for (int step = 0; step < 10000; ++step) {
    const int op = static_cast<int>(rng() % 9);
    const Event e =
        Event::at(Tag{static_cast<ctde::Tick>(rng() % 200) - 50, static_cast<std::uint32_t>(rng() % 3)},
                  ActorId{static_cast<std::uint32_t>(rng() % 5)});
    if (op < 5 || reference.empty()) {
      q.insert(e);
      reference.emplace(key(e), 0);
    } else if (op < 7) {
      REQUIRE(key(q.peek()) == reference.begin()->first);
      q.pop();
      reference.erase(reference.begin());
    } else if (op < 8) {
      REQUIRE(key(q.peek()) == reference.begin()->first);
      reference.erase(reference.begin());
      q.replace_top(e);
      reference.emplace(key(e), 0);
    } else if (op < 9) {  // the hold operation in halves: fill the open slot, or close it
      reference.erase(reference.begin());
      q.open_top();
      if (rng() % 2 == 0) {
        q.insert(e);
        reference.emplace(key(e), 0);
      } else {
        q.close_open();
      }
    }
    REQUIRE(q.size() == reference.size());
    REQUIRE(q.empty() == reference.empty());
    if (!reference.empty()) REQUIRE(key(q.peek()) == reference.begin()->first);
  }
  while (!reference.empty()) {
    REQUIRE(!q.empty());
    REQUIRE(key(q.peek()) == reference.begin()->first);
    q.pop();
    reference.erase(reference.begin());
  }
  CHECK(q.empty());
}

TEST_CASE("a deep queue of ties in time and microstep serves in the order of a std::priority_queue") {
  // Thousands pending, so that almost every step down the heap scans a full
  // group of four children (the branch-free scan); times drawn from a few
  // values, so that groups tie on time and on microstep and the depth
  // decides. The reference orders (time, microstep, depth) tuples.
  using Order = std::tuple<ctde::Tick, std::uint32_t, std::uint32_t>;
  const auto order = [](const Event& e) { return Order{e.time(), e.tag().microstep, e.depth().value()}; };
  std::mt19937_64 rng(77);
  const auto draw = [&](ctde::Tick after) {
    return Event::at(Tag{after + static_cast<ctde::Tick>(rng() % 4), static_cast<std::uint32_t>(rng() % 2)},
                     ActorId{static_cast<std::uint32_t>(rng() % 4000)});
  };
  EventQueue q;
  std::priority_queue<Order, std::vector<Order>, std::greater<>> reference;
  for (int i = 0; i < 5000; ++i) {
    const Event e = draw(0);
    q.insert(e);
    reference.push(order(e));
  }
  for (int step = 0; step < 60000; ++step) {
    REQUIRE(order(q.peek()) == reference.top());
    const ctde::Tick now = q.peek().time();
    reference.pop();
    const Event next = draw(now + 1);
    switch (step % 3) {
      case 0:  // the hold operation in halves (large models)
        q.open_top();
        q.insert(next);
        break;
      case 1:  // whole (small models)
        q.replace_top(next);
        break;
      default:  // a pop and a push
        q.pop();
        q.insert(next);
    }
    reference.push(order(next));
  }
  while (!reference.empty()) {
    REQUIRE(order(q.peek()) == reference.top());
    q.pop();
    reference.pop();
  }
  CHECK(q.empty());
}

TEST_CASE("ServedEvent: the served event leaves, or what its actor schedules takes its place; both ways") {
  for (const bool open_early : {false, true}) {
    CAPTURE(open_early);
    EventQueue q;
    ServedEvent served(q, open_early);
    for (std::uint32_t d = 0; d < 6; ++d)
      q.insert(Event::at(Tag{static_cast<ctde::Tick>(10 + d), 0}, ActorId{d}));
    // Served, and rescheduled by its actor (the hold pattern): one event in
    // its place, later than every other.
    REQUIRE(q.peek().depth() == ActorId{0});
    served.begin();
    served.schedule(Event::at(Tag{100, 0}, ActorId{0}));
    served.end();
    CHECK(q.size() == 6);
    CHECK(q.peek().depth() == ActorId{1});
    // Served, and its actor schedules nothing: the event just leaves.
    served.begin();
    served.end();
    CHECK(q.size() == 5);
    CHECK(q.peek().depth() == ActorId{2});
    // Two events scheduled while serving: the first takes the place, the
    // second is a plain insertion; the order stays total.
    served.begin();
    served.schedule(Event::at(Tag{11, 0}, ActorId{7}));
    served.schedule(Event::at(Tag{12, 1}, ActorId{8}));
    served.end();
    std::vector<std::uint32_t> order;
    while (!q.empty()) {
      order.push_back(q.peek().depth().value());
      q.pop();
    }
    CHECK(order == std::vector<std::uint32_t>{7, 8, 3, 4, 5, 0});
    // Nothing served: end() is a no-op, schedule() inserts.
    served.end();
    served.schedule(Event::at(Tag{1, 0}, ActorId{9}));
    CHECK(q.size() == 1);
  }
}
