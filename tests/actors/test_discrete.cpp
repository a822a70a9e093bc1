// The discrete actors (actors/discrete/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::events_of;
using ctde::test::run_model;

TEST_CASE("TimeDelay(0) sends each token at the next microstep, a positive delay later") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [
      {"name": "kick", "type": "SingleEvent", "params": {"time": 1, "value": 4}},
      {"name": "zero", "type": "TimeDelay", "params": {"delay": 0}},
      {"name": "later", "type": "TimeDelay", "params": {"delay": 0.25}}],
    "connections": [["kick.out", "zero.in"], ["zero.out", "later.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  int zero_n = -1;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "zero") zero_n = line["n"].get<int>();
  }
  CHECK(zero_n == 1);  // kick sends at (1, 0); the delay of 0 sends it on at (1, 1)
  CHECK(events_of(run, "later") == std::vector<std::pair<double, double>>{{1.25, 4}});
}

TEST_CASE("Server departures for deterministic arrivals are exact") {
  // Arrivals every 1 s from t = 0, service 1.5 s: the queue grows; departure
  // k (from 1) is at 1.5 k exactly.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 1, "values": [1]}},
      {"name": "id", "type": "Counter"},
      {"name": "server", "type": "Server", "params": {"service_time": 1.5}}],
    "connections": [["arrivals.out", "id.in"], ["id.out", "server.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto departures = events_of(run, "server");
  REQUIRE(departures.size() == 6);  // 1.5, 3, ..., 9
  for (std::size_t k = 0; k < departures.size(); ++k) {
    CHECK(departures[k].first == 1.5 * static_cast<double>(k + 1));
    CHECK(departures[k].second == static_cast<double>(k + 1));  // FIFO: customer k+1
  }
}

TEST_CASE("a Server with room departs each customer one service time after arrival") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 2, "offsets": [0.5], "values": [7]}},
      {"name": "server", "type": "Server", "params": {"service_time": 0.75}}],
    "connections": [["arrivals.out", "server.in"]]})");
  const auto departures = events_of(run, "server");
  REQUIRE(departures.size() == 5);
  for (std::size_t k = 0; k < departures.size(); ++k) {
    CHECK(departures[k].first == 0.5 + 2.0 * static_cast<double>(k) + 0.75);
  }
}

TEST_CASE("a Queue releases its oldest token on each trigger and drops beyond capacity") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [
      {"name": "arrivals", "type": "DiscreteClock", "params": {"period": 1}},
      {"name": "id", "type": "Counter"},
      {"name": "queue", "type": "Queue", "params": {"capacity": 2}},
      {"name": "pull", "type": "DiscreteClock", "params": {"period": 4, "offsets": [3.5]}}],
    "connections": [["arrivals.out", "id.in"], ["id.out", "queue.in"], ["pull.out", "queue.trigger"]]})");
  // Tokens 1, 2 fill the queue; 3, 4 are dropped; at 3.5 token 1 leaves; 5
  // enters at 4; 6 and 7 are dropped; at 7.5 token 2 leaves; 8 enters at 8.
  using Series = std::vector<std::pair<double, double>>;
  CHECK(events_of(run, "queue") == Series{{3.5, 1}, {7.5, 2}});
}
