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
