// Conformance (docs/semantics.md, "Step control" and "Crossings made by
// events"): no crossing is missed because nothing else needs a step, or
// because it happens between microsteps of one instant.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::Run;
using ctde::test::run_model;

namespace {

/// The times of the `event` lines of `actor`.
std::vector<double> event_times(const Run& run, const std::string& actor) {
  std::vector<double> times;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == actor) times.push_back(line["t"].get<double>());
  }
  return times;
}

/// Where sin(2 pi f t) crosses 1/2 in [0, periods / f): rising at
/// (1/12 + k) / f, falling at (5/12 + k) / f, in time order.
std::vector<double> half_crossings(double f, int periods) {
  std::vector<double> times;
  for (int k = 0; k < periods; ++k) {
    times.push_back((1.0 / 12 + k) / f);
    times.push_back((5.0 / 12 + k) / f);
  }
  return times;
}

void check_times(const std::vector<double>& got, const std::vector<double>& expected, double tolerance) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(got[i] - expected[i]) <= tolerance);
  }
}

}  // namespace

TEST_CASE("conformance 4: a sine into a level detector without any state finds every crossing") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [{"name": "s", "type": "Sine", "params": {"frequency": 1}},
               {"name": "det", "type": "LevelCrossingDetector", "params": {"level": 0.5}}],
    "connections": [["s.out", "det.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  check_times(event_times(run, "det"), half_crossings(1.0, 3), 2e-12);
}

TEST_CASE("conformance 4: a fast sine beside a slow state: every crossing, not only where the state steps") {
  // x' = 1 - x needs a few long steps; the 50 Hz sine crosses 1/2 twenty
  // times in 0.2 s.
  const std::string plant = R"(
               {"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "dx", "type": "Sum", "params": {"signs": "+-"}},
               {"name": "x", "type": "Integrator"},)";
  const std::string plant_links = R"(["one.out", "dx.in0"], ["x.out", "dx.in1"], ["dx.out", "x.in"],)";
  const auto sine = run_model(R"({"ctde": 1, "director": {"stop_time": 0.2, "rtol": 1e-8},
    "actors": [)" + plant + R"(
               {"name": "s", "type": "Sine", "params": {"frequency": 50}},
               {"name": "det", "type": "LevelCrossingDetector", "params": {"level": 0.5}}],
    "connections": [)" + plant_links +
                              R"(["s.out", "det.in"]]})");
  REQUIRE(sine.result.status == RunStatus::kOk);
  check_times(event_times(sine, "det"), half_crossings(50.0, 10), 2e-12);
  // The same sine written as an expression of t with its own step bound:
  // the same crossings (a consistency oracle for the step control).
  const auto expression = run_model(R"({"ctde": 1, "director": {"stop_time": 0.2, "rtol": 1e-8},
    "actors": [)" + plant + R"(
               {"name": "s", "type": "Expression",
                "params": {"expr": "sin(2 * _pi * 50 * t) * 1", "inputs": 0, "max_step": 0.00125}},
               {"name": "det", "type": "LevelCrossingDetector", "params": {"level": 0.5}}],
    "connections": [)" + plant_links +
                                    R"(["s.out", "det.in"]]})");
  REQUIRE(expression.result.status == RunStatus::kOk);
  check_times(event_times(expression, "det"), half_crossings(50.0, 10), 2e-12);
}

TEST_CASE("conformance 4: a recorded sine without states is recorded at its step bound, not only at events") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "s", "type": "Sine", "params": {"frequency": 2}}],
    "record": ["s.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  // A sixteenth of the period (1/32 s): 32 steps, a row at each end.
  REQUIRE(run.rows.size() == 33);
  for (const auto& row : run.rows) {
    CHECK(row.values[0] == doctest::Approx(std::sin(2 * std::numbers::pi * 2 * row.t)).epsilon(1e-12));
  }
}

TEST_CASE(
    "conformance 5: a level crossed and crossed back in successive microsteps is a sequence of events") {
  // At t = 1 five clocks send 1.5, 0, 2, -1, 1 into a Merge, which passes
  // them on in microsteps 0..4 to a hold: its value crosses the level 0.5
  // falling, rising, falling, rising, each crossing seen after its
  // microstep and fired at the next one.
  std::string clocks;
  std::string links;
  const double values[] = {1.5, 0, 2, -1, 1};
  for (int i = 0; i < 5; ++i) {
    const std::string name = ctde::concat({"clock", std::to_string(i)});
    clocks += R"({"name": ")";
    clocks += name;
    clocks += R"(", "type": "DiscreteClock", "params": {"period": 10, "offsets": [1], "values": [)";
    clocks += std::to_string(values[i]);
    clocks += "]}}, ";
    links += R"([")";
    links += name;
    links += R"(.out", "merge.in)";
    links += std::to_string(i);
    links += R"("], )";
  }
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [)" + clocks + R"({"name": "merge", "type": "Merge", "params": {"inputs": 5}},
               {"name": "hold", "type": "ZeroOrderHold", "params": {"initial": 1.5}},
               {"name": "down", "type": "LevelCrossingDetector", "params": {"level": 0.5, "direction": "falling"}},
               {"name": "up", "type": "LevelCrossingDetector", "params": {"level": 0.5, "direction": "rising"}}],
    "connections": [)" + links +
                             R"(["merge.out", "hold.in"], ["hold.out", "down.in"], ["hold.out", "up.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::tuple<std::string, double, int>> fired;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event") {
      fired.emplace_back(line["actor"].get<std::string>(), line["t"].get<double>(), line["n"].get<int>());
    }
  }
  const std::vector<std::tuple<std::string, double, int>> expected = {
      {"down", 1.0, 2}, {"up", 1.0, 3}, {"down", 1.0, 4}, {"up", 1.0, 5}};
  CHECK(fired == expected);
  CHECK(run.result.stats.state_events == 4);
}

TEST_CASE("a guard that reaches its level and stays there crosses where it reaches it, to the tick") {
  // A ramp saturated at 1 from t = 1 on: the rising crossing of level 1 is at 1 s exactly. The
  // search once ended on the step's end, where the guard is exactly at its level (1.0019 s).
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [{"name": "r", "type": "Ramp", "params": {"slope": 1}},
               {"name": "s", "type": "Saturation", "params": {"lower": -5, "upper": 1}},
               {"name": "d", "type": "LevelCrossingDetector", "params": {"level": 1, "direction": "rising"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["r.out", "s.in"], ["s.out", "d.in"], ["s.out", "x.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<nlohmann::json> located;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event") located.push_back(line);
  }
  REQUIRE(located.size() == 1);
  CHECK(located[0]["tick"].get<std::int64_t>() == 1000000000000);  // 1 s at the default 1e-12 s
  CHECK(located[0]["bracket"].get<double>() <= 1e-12 + 1e-15);
  CHECK(event_times(run, "d") == std::vector<double>{1.0});
}

TEST_CASE("without event_tolerance, every located crossing's bracket is at most one tick (tank_queue)") {
  // Its level crossings often meet a point where the guard is exactly at its level, which
  // once ended the search on a bracket of up to 2e-8 s (docs/trace-format.md, `bracket`).
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/examples/models/tank_queue.json", std::ios::binary);
  REQUIRE(in.good());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  int located = 0;
  for (const auto& line : run.lines) {
    if (line["kind"] != "state_event" || line["iterations"] == 0) continue;
    ++located;
    CAPTURE(line.dump());
    CHECK(line["bracket"].get<double>() <= 1e-12 + 1e-14);  // a tick, give or take the times' rounding
  }
  CHECK(located >= 10);
}
