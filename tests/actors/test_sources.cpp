// The sources (actors/sources/): the continuous ones called directly through
// hand-made contexts (no director, no solver), the discrete ones in small runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "actors/sources/clock.hpp"
#include "actors/sources/ramp.hpp"
#include "actors/sources/sine.hpp"
#include "actors/sources/step.hpp"
#include "actors/sources/time_table.hpp"
#include "support/actor_bench.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::Bench;
using ctde::test::check_close;
using ctde::test::events_of;
using ctde::test::kSecond;
using ctde::test::run_model;
using ctde::test::Values;

TEST_CASE("Clock and Sine: values, no time events") {
  Clock clock("clock");
  Bench clock_bench(clock, {}, {1});
  clock_bench.initialize();
  CHECK(clock_bench.evaluate(2.5) == Values{2.5});
  CHECK(clock_bench.director.requested.empty());

  Sine sine("sine");
  sine.set_parameter("amplitude", 2.0);
  sine.set_parameter("frequency", 0.5);
  sine.set_parameter("phase", 0.25);
  sine.set_parameter("bias", 1.0);
  Bench sine_bench(sine, {}, {1});
  sine_bench.initialize();
  check_close(sine_bench.evaluate(0.3), {2 * std::sin(std::numbers::pi * 0.3 + 0.25) + 1});
  check_close(sine_bench.evaluate(0.0), {2 * std::sin(0.25) + 1});
  CHECK(sine_bench.director.requested.empty());
}

TEST_CASE("Step: before until its time event, after from it") {
  Step step("step");
  step.set_parameter("time", 1.5);
  step.set_parameter("before", 2.0);
  step.set_parameter("after", 5.0);
  Bench bench(step, {}, {1});
  bench.initialize();
  CHECK(bench.director.requested == std::vector<Tick>{kSecond * 3 / 2});
  CHECK(bench.out() == Values{2});
  CHECK(bench.evaluate(1.0) == Values{2});
  CHECK(bench.evaluate(1.5) == Values{2});  // the solver reaching the jump: still before
  bench.time_event(kSecond * 3 / 2);
  CHECK(bench.out() == Values{5});
  CHECK(bench.evaluate(1.5) == Values{5});
  CHECK(bench.evaluate(7.0) == Values{5});
  CHECK(bench.director.requested.size() == 1);
}

TEST_CASE("Step: a time before the start shows after from the start; at the start it jumps there") {
  {
    Step step("early");
    step.set_parameter("time", 1.0);
    Bench bench(step, {}, {1});
    bench.director.start = 2 * kSecond;
    bench.initialize();
    CHECK(bench.director.requested.empty());
    CHECK(bench.out() == Values{1});
    CHECK(bench.evaluate(2.0) == Values{1});
  }
  {
    Step step("at_start");
    step.set_parameter("time", 2.0);
    Bench bench(step, {}, {1});
    bench.director.start = 2 * kSecond;
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{2 * kSecond});
    CHECK(bench.evaluate(2.0) == Values{0});
    bench.time_event(2 * kSecond);
    CHECK(bench.evaluate(2.0) == Values{1});
  }
  {
    Step step("late");
    step.set_parameter("time", 20.0);  // after the stop time: never
    Bench bench(step, {}, {1});
    bench.initialize();
    CHECK(bench.director.requested.empty());
    CHECK(bench.evaluate(9.0) == Values{0});
  }
}

TEST_CASE("Ramp: 0 until start_time, a time event at the kink, then slope * (t - start_time)") {
  Ramp ramp("ramp");
  ramp.set_parameter("slope", 2.0);
  ramp.set_parameter("start_time", 1.0);
  Bench bench(ramp, {}, {1});
  bench.initialize();
  CHECK(bench.director.requested == std::vector<Tick>{kSecond});
  CHECK(bench.out() == Values{0});
  CHECK(bench.evaluate(0.5) == Values{0});
  CHECK(bench.evaluate(1.0) == Values{0});
  bench.time_event(kSecond);
  CHECK(bench.out() == Values{0});
  check_close(bench.evaluate(3.0), {4});
  check_close(bench.evaluate(1.25), {0.5});

  Ramp early("early");
  early.set_parameter("slope", -1.0);
  early.set_parameter("start_time", 0.5);
  Bench early_bench(early, {}, {1});
  early_bench.director.start = kSecond;
  early_bench.initialize();
  CHECK(early_bench.director.requested.empty());
  check_close(early_bench.out(), {-0.5});
  check_close(early_bench.evaluate(2.0), {-1.5});
}

TEST_CASE("TimeTable: linear segments, and a jump as two time events at one tick") {
  TimeTable table("table");
  table.set_parameter("points", Matrix{5, 2, {0, 0, 1, 10, 2, 20, 2, -5, 3, 0}});
  Bench bench(table, {}, {1});
  bench.initialize();
  auto& requested = bench.director.requested;
  CHECK(requested == std::vector<Tick>{0});  // the point at the start
  CHECK(bench.out() == Values{0});

  bench.time_event(0);
  CHECK(requested.back() == kSecond);
  check_close(bench.evaluate(0.5), {5});
  CHECK(bench.evaluate(1.0) == Values{10});
  bench.time_event(kSecond);
  CHECK(requested.back() == 2 * kSecond);
  check_close(bench.evaluate(1.5), {15});

  // The jump at t = 2: the left value until both events have fired.
  CHECK(bench.evaluate(2.0) == Values{20});
  bench.time_event(2 * kSecond, 0);
  CHECK(requested.back() == 2 * kSecond);  // fire_at(now): the next microstep
  CHECK(requested.size() == 4);
  CHECK(bench.evaluate(2.0) == Values{20});
  bench.time_event(2 * kSecond, 1);
  CHECK(requested.back() == 3 * kSecond);
  CHECK(bench.evaluate(2.0) == Values{-5});
  check_close(bench.evaluate(2.5), {-2.5});

  bench.time_event(3 * kSecond);
  CHECK(requested == std::vector<Tick>{0, kSecond, 2 * kSecond, 2 * kSecond, 3 * kSecond});
  CHECK(bench.evaluate(3.0) == Values{0});
  CHECK(bench.evaluate(8.0) == Values{0});  // after the last point: the last value
}

TEST_CASE("TimeTable: hold interpolation, several columns, points before the start") {
  {
    TimeTable table("hold");
    table.set_parameter("points", Matrix{2, 3, {1, 7, 70, 2, 9, 90}});
    table.set_parameter("interpolation", "hold");
    Bench bench(table, {}, {2});
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{kSecond});
    CHECK(bench.out() == Values{7, 70});  // before the first point: the first value
    bench.time_event(kSecond);
    CHECK(bench.evaluate(1.5) == Values{7, 70});
    CHECK(bench.evaluate(2.0) == Values{7, 70});
    bench.time_event(2 * kSecond);
    CHECK(bench.evaluate(2.0) == Values{9, 90});
    CHECK(bench.director.requested.size() == 2);
  }
  {
    TimeTable table("late_start");
    table.set_parameter("points", Matrix{3, 2, {0, 0, 1, 10, 2, 20}});
    Bench bench(table, {}, {1});
    bench.director.start = kSecond * 3 / 2;
    bench.initialize();
    CHECK(bench.director.requested == std::vector<Tick>{2 * kSecond});
    check_close(bench.out(), {15});
    check_close(bench.evaluate(1.75), {17.5});
  }
}

TEST_CASE("the Poisson clock's mean interval is within a statistical bound and reproducible") {
  const std::string model = R"({"ctde": 1, "director": {"stop_time": 20000},
    "actors": [{"name": "p", "type": "PoissonClock", "params": {"mean_interval": 2, "seed": SEED}},
               {"name": "n", "type": "Counter"}],
    "connections": [["p.out", "n.in"]]})";
  const auto with_seed = [&](const std::string& seed) {
    std::string text = model;
    text.replace(text.find("SEED"), 4, seed);
    return run_model(text);
  };
  const auto run = with_seed("11");
  const auto count = static_cast<double>(events_of(run, "p").size());
  // N ~ Poisson(20000 / 2): mean 10000, standard deviation 100; allow 5 sd.
  CHECK(std::fabs(count - 10000.0) < 500.0);
  CHECK(with_seed("11").trace == run.trace);
  CHECK(with_seed("12").trace != run.trace);
}

TEST_CASE("PoissonClock's times are the documented draws: -mean ln(1 - u), rounded to ticks") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [{"name": "p", "type": "PoissonClock", "params": {"mean_interval": 0.5, "seed": 3}},
               {"name": "n", "type": "Counter"}],
    "connections": [["p.out", "n.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = events_of(run, "p");
  REQUIRE(events.size() >= 5);
  std::mt19937_64 engine(3);
  const ctde::TimeResolution resolution;
  ctde::Tick t = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    CAPTURE(i);
    const double u = static_cast<double>(engine() >> 11U) * 0x1p-53;
    t += std::max<ctde::Tick>(1, resolution.to_ticks(-0.5 * std::log(1.0 - u)));
    CHECK(resolution.to_ticks(events[i].first) == t);  // the trace's time, read back to its tick
    CHECK(events[i].second == 1);
  }
  // The next draw falls after the stop time.
  const double u = static_cast<double>(engine() >> 11U) * 0x1p-53;
  CHECK(t + resolution.to_ticks(-0.5 * std::log(1.0 - u)) > resolution.to_ticks(10));
}

TEST_CASE("an infinite period gives each offset once") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "c", "type": "DiscreteClock",
                "params": {"period": "inf", "offsets": [0.5, 1.5], "values": [1, 2]}},
               {"name": "n", "type": "Counter"}],
    "connections": [["c.out", "n.in"]]})");
  CHECK(events_of(run, "c") == std::vector<std::pair<double, double>>{{0.5, 1}, {1.5, 2}});
}

TEST_CASE("a DiscreteClock's stop_time ends its events: the last at or before it") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "c", "type": "DiscreteClock", "params": {"period": 0.5, "stop_time": 1.5}},
               {"name": "d", "type": "DiscreteClock",
                "params": {"period": 1, "offsets": [0, 0.25], "values": [1, 2], "stop_time": 1.2}},
               {"name": "none", "type": "DiscreteClock", "params": {"stop_time": -1}}]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  using Series = std::vector<std::pair<double, double>>;
  CHECK(events_of(run, "c") == Series{{0, 1}, {0.5, 1}, {1, 1}, {1.5, 1}});
  CHECK(events_of(run, "d") == Series{{0, 1}, {0.25, 2}, {1, 1}});
  CHECK(events_of(run, "none").empty());
}
