// Conformance: times given in seconds land on the nearest tick, and a tick's
// time in seconds is the time that was asked for (docs/semantics.md, "Time
// and tags").
#include <doctest/doctest.h>

#include <string>

#include "core/format.hpp"
#include "core/time.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("a Step and a SingleEvent at k * 0.1 s fire at tick k * 1e11 for k = 1..1000, at t = k / 10") {
  std::string actors;
  for (int k = 1; k <= 1000; ++k) {
    const std::string time = format_double(k * 0.1);
    if (k > 1) actors += ",";
    actors += R"({"name": "e)" + std::to_string(k) + R"(", "type": "SingleEvent", "params": {"time": )" +
              time + "}},";
    actors +=
        R"({"name": "s)" + std::to_string(k) + R"(", "type": "Step", "params": {"time": )" + time + "}}";
  }
  const Run run = run_model(R"({"ctde": 1, "name": "ticks", "director": {"stop_time": 100.5}, "actors": [)" +
                            actors + "]}");
  REQUIRE(run.result.status == RunStatus::kOk);
  int events = 0;
  int time_events = 0;
  for (const auto& line : run.lines) {
    const bool event = line["kind"] == "event";
    if (!event && line["kind"] != "time_event") continue;
    const std::string actor = line["actor"];
    const int k = std::stoi(actor.substr(1));
    CAPTURE(actor);
    CHECK(line["tick"].get<std::int64_t>() == k * std::int64_t{100'000'000'000});
    CHECK(line["t"].get<double>() == k / 10.0);  // not k * 0.1: the double nearest to k/10
    (event ? events : time_events)++;
  }
  CHECK(events == 1000);       // the SingleEvents' tokens
  CHECK(time_events == 2000);  // every actor's time event
}

TEST_CASE("to_ticks takes the nearest tick and to_seconds gives back the decimal time") {
  const TimeResolution ps(1e-12);
  for (int k = 1; k <= 1000; ++k) {
    CAPTURE(k);
    CHECK(ps.to_ticks(k * 0.1) == k * std::int64_t{100'000'000'000});
    CHECK(ps.to_seconds(ps.to_ticks(k * 0.1)) == k / 10.0);  // the double nearest to k/10
  }
  CHECK(ps.to_ticks(0.4e-12) == 0);
  CHECK(ps.to_ticks(0.6e-12) == 1);
  CHECK(ps.to_ticks(-0.6e-12) == -1);
  const TimeResolution coarse(1e-3);
  CHECK(coarse.to_ticks(0.0014) == 1);
  CHECK(coarse.to_ticks(0.0016) == 2);
  CHECK(coarse.to_seconds(3) == 0.003);
}
