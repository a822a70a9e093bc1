// The state-event generators (actors/events/) in small runs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

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
