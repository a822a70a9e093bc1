// The state-event generators (actors/events/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::Run;
using ctde::test::run_model;

namespace {

/// The times of the state events of `actor` (its trace's state_event lines).
std::vector<double> event_times(const Run& run, const std::string& actor) {
  std::vector<double> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event" && line["actor"] == actor) out.push_back(line["t"].get<double>());
  }
  return out;
}

}  // namespace

TEST_CASE("direction filtering: rising, falling and both see their own crossings of a sine") {
  const Run run = run_model(R"({"ctde": 1, "name": "directions",
    "director": {"stop_time": 2.25, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "s", "type": "Sine", "params": {"frequency": 1}},
               {"name": "up", "type": "ZeroCrossingDetector", "params": {"direction": "rising"}},
               {"name": "down", "type": "ZeroCrossingDetector", "params": {"direction": "falling"}},
               {"name": "any", "type": "ZeroCrossingDetector", "params": {"direction": "both"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["s.out", "up.in"], ["s.out", "down.in"], ["s.out", "any.in"], ["s.out", "x.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto near = [](const std::vector<double>& found, const std::vector<double>& expected) {
    if (found.size() != expected.size()) return false;
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (std::abs(found[i] - expected[i]) > 1e-11) return false;
    }
    return true;
  };
  CHECK(near(event_times(run, "up"), {1.0, 2.0}));
  CHECK(near(event_times(run, "down"), {0.5, 1.5}));
  CHECK(near(event_times(run, "any"), {0.5, 1.0, 1.5, 2.0}));
}

TEST_CASE("Relay on a sine: switchings located at sin(2 pi t) = 0.5 rising and -0.5 falling") {
  // Off (-1) until 1/12, on (+1) until 7/12, off until 13/12, on until 1.5: the integral of the
  // output at 1.5 is -1/12 + 6/12 - 6/12 + 5/12 = 1/3.
  const Run run = run_model(R"({"ctde": 1, "director": {"stop_time": 1.5, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "s", "type": "Sine", "params": {"frequency": 1}},
               {"name": "relay", "type": "Relay",
                "params": {"on_threshold": 0.5, "off_threshold": -0.5, "on_value": 1, "off_value": -1}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["s.out", "relay.in"], ["relay.out", "x.in"]], "record": ["x.out", "relay.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto times = event_times(run, "relay");
  const std::vector<double> expected{1.0 / 12, 7.0 / 12, 13.0 / 12};
  REQUIRE(times.size() == expected.size());
  for (std::size_t i = 0; i < times.size(); ++i)
    CHECK(times[i] == doctest::Approx(expected[i]).epsilon(1e-11));
  CHECK(run.rows.back().values[run.column("x.out")] == doctest::Approx(1.0 / 3).epsilon(1e-9));
  CHECK(run.rows.back().values[run.column("relay.out")] == 1);
}

namespace {

/// A thermostat: T' = heater - 1 from T(0) = t0, the heater 2 (the relay off) below 19 and 0 (the
/// relay on) above 21.
Run thermostat(double t0, const std::string& initial) {
  return run_model(R"({"ctde": 1, "director": {"stop_time": 7, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "T", "type": "Integrator", "params": {"initial": )" +
                   format_double(t0) + R"(}},
               {"name": "relay", "type": "Relay", "params": {"on_threshold": 21, "off_threshold": 19,
                "on_value": 0, "off_value": 2, "initial": ")" +
                   initial + R"("}},
               {"name": "loss", "type": "Constant", "params": {"value": -1}},
               {"name": "net", "type": "Sum"}],
    "connections": [["T.out", "relay.in"], ["relay.out", "net.in0"], ["loss.out", "net.in1"],
                    ["net.out", "T.in"]], "record": ["T.out", "relay.out"]})");
}

}  // namespace

TEST_CASE("Relay started above on_threshold is on at the start: a thermostat at 25 cools to 19") {
  // initial "off" (heat) is overridden: 25 > 21, so on (no heat); T = 25 - t falls to 19 at t = 6,
  // the relay switches off (heat), and T = 19 + (t - 6) is 20 at t = 7.
  const Run run = thermostat(25, "off");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(run.rows.front().t == 0);
  CHECK(run.rows.front().values[run.column("relay.out")] == 0);
  const auto times = event_times(run, "relay");
  REQUIRE(times.size() == 1);
  CHECK(times[0] == doctest::Approx(6).epsilon(1e-11));
  CHECK(run.rows.back().values[run.column("T.out")] == doctest::Approx(20).epsilon(1e-9));
}

TEST_CASE("Relay started below off_threshold is off at the start; between the thresholds, `initial`") {
  // 17 < 19: off (heat) though initial is "on": T = 17 + t reaches 21 at t = 4, falls to 19 at
  // t = 6, heats again: 20 at 7.
  const Run below = thermostat(17, "on");
  REQUIRE(below.result.status == RunStatus::kOk);
  CHECK(below.rows.front().values[below.column("relay.out")] == 2);
  const auto below_times = event_times(below, "relay");
  REQUIRE(below_times.size() == 2);
  CHECK(below_times[0] == doctest::Approx(4).epsilon(1e-11));
  CHECK(below_times[1] == doctest::Approx(6).epsilon(1e-11));
  CHECK(below.rows.back().values[below.column("T.out")] == doctest::Approx(20).epsilon(1e-9));
  // 20, between: "on" (no heat) falls to 19 at t = 1, heats to 21 at t = 3, falls to 19 at t = 5.
  const Run on = thermostat(20, "on");
  REQUIRE(on.result.status == RunStatus::kOk);
  CHECK(on.rows.front().values[on.column("relay.out")] == 0);
  const auto times = event_times(on, "relay");
  REQUIRE(times.size() >= 3);  // and at 7, the stop time
  CHECK(times[0] == doctest::Approx(1).epsilon(1e-11));
  CHECK(times[1] == doctest::Approx(3).epsilon(1e-11));
  CHECK(times[2] == doctest::Approx(5).epsilon(1e-11));
  // "off" (heat) from 20 reaches 21 at t = 1.
  const Run off = thermostat(20, "off");
  REQUIRE(off.result.status == RunStatus::kOk);
  CHECK(off.rows.front().values[off.column("relay.out")] == 2);
  REQUIRE(!event_times(off, "relay").empty());
  CHECK(event_times(off, "relay")[0] == doctest::Approx(1).epsilon(1e-11));
}

TEST_CASE("Relay: thresholds must not cross; initial is on or off") {
  const auto error_of = [](const std::string& params) {
    return ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Clock"}, {"name": "r", "type": "Relay", "params": )" +
                                        params + R"(}], "connections": [["u.out", "r.in"]]})");
  };
  CHECK(error_of(R"({"on_threshold": 0, "off_threshold": 1})")
            .find("actor 'r' (Relay), parameter 'off_threshold': (1) must not exceed 'on_threshold' (0)") !=
        std::string::npos);
  CHECK(error_of(R"({"initial": "half"})").find("parameter 'initial': must be \"on\" or \"off\"") !=
        std::string::npos);
}

TEST_CASE("crossing detectors send `value` instead of the input's, when set") {
  const Run run = run_model(R"({"ctde": 1, "director": {"stop_time": 1.9},
    "actors": [{"name": "s", "type": "Sine", "params": {"frequency": 1}},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 0.5, "value": 7}},
               {"name": "zero", "type": "ZeroCrossingDetector", "params": {"direction": "rising", "value": -3}}],
    "connections": [["s.out", "level.in"], ["s.out", "zero.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto level = ctde::test::events_of(run, "level");
  REQUIRE(level.size() == 4);  // 1/12, 5/12, 13/12, 17/12
  for (const auto& [t, v] : level) CHECK(v == 7);
  const auto zero = ctde::test::events_of(run, "zero");
  REQUIRE(zero.size() == 1);  // t = 1 (the start, at zero, is no crossing)
  CHECK(zero[0].second == -3);
}
