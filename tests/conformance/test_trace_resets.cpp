// Conformance: a `reset` trace line is written only when continuous states
// really changed at an event (docs/semantics.md, "The continuous phase").
// A mode chart changes mode without touching its states unless a `set`
// writes them; a chart without outputs used to write a `reset` that changed
// nothing at every transition.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

std::vector<nlohmann::json> lines_of(const Run& run, const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == kind) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("conformance: a chart without outputs changes mode twice with no reset line") {
  // x rises in UP, falls in DOWN, stays in REST: the second transition at
  // t = 2 shows the solver took DOWN's derivative (it restarts on a mode
  // change with or without outputs), and nothing is traced as a reset.
  const Run run = run_model(R"({"ctde": 1, "name": "silent", "director": {"stop_time": 3},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "states": { "x": 0 },
      "modes": { "UP": { "der": { "x": 1 } }, "DOWN": { "der": { "x": -1 } }, "REST": { } },
      "initial": "UP",
      "transitions": [{ "path": ["UP", "DOWN"], "guard": "x >= 1" },
                      { "path": ["DOWN", "REST"], "guard": "x <= 0" }] }}]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == 2);
  CHECK(modes[0]["t"].get<double>() == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(modes[1]["t"].get<double>() == doctest::Approx(2.0).epsilon(1e-9));
  CHECK(lines_of(run, "reset").empty());

  // Without states either: a timer on time guards alone.
  const Run timer = run_model(R"({"ctde": 1, "name": "timer", "director": {"stop_time": 2},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "modes": { "A": { }, "B": { }, "C": { } }, "initial": "A",
      "transitions": [{ "path": ["A", "B"], "guard": "t >= 0.5" },
                      { "path": ["B", "C"], "guard": "t >= 1" }] }}]})");
  REQUIRE(timer.result.status == RunStatus::kOk);
  CHECK(lines_of(timer, "mode").size() == 2);
  CHECK(lines_of(timer, "reset").empty());
}

TEST_CASE("conformance: a chart that sets a state traces one reset per transition, with before and after") {
  // A -> B sets y = 10 (a plain transition's set); B -> I -> C sets y = 20
  // (the instantaneous mode's set); x is not written. Both at time guards,
  // so the tags are exact.
  const Run run = run_model(R"({"ctde": 1, "name": "sets", "director": {"stop_time": 2},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": { "y": "y" },
      "states": { "x": 0, "y": 0 },
      "modes": { "A": { "der": { "x": 1 } }, "B": { "der": { "x": 1 } },
                 "I": { "set": { "y": 20 } }, "C": { "der": { "x": 1 } } },
      "initial": "A",
      "transitions": [{ "path": ["A", "B"], "guard": "t >= 0.5", "set": { "y": 10 } },
                      { "path": ["B", "I", "C"], "guard": "t >= 1.5" }] }}],
    "record": ["m.y"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  const auto resets = lines_of(run, "reset");
  REQUIRE(modes.size() == 2);
  REQUIRE(resets.size() == 2);
  const double expected_y[2][2] = {{0, 10}, {10, 20}};
  for (std::size_t k = 0; k < 2; ++k) {
    CAPTURE(k);
    CHECK(resets[k]["actor"] == "m");
    CHECK(resets[k]["tick"] == modes[k]["tick"]);
    const auto& before = resets[k]["before"];
    const auto& after = resets[k]["after"];
    REQUIRE(before.size() == 2);
    REQUIRE(after.size() == 2);
    CHECK(before[0] == after[0]);  // x untouched
    CHECK(before[0].get<double>() == doctest::Approx(modes[k]["t"].get<double>()).epsilon(1e-12));
    CHECK(before[1].get<double>() == expected_y[k][0]);
    CHECK(after[1].get<double>() == expected_y[k][1]);
  }
  CHECK(run.rows.back().values[run.column("m.y")] == 20.0);
}

TEST_CASE("conformance: a set that writes back the value already there traces no reset") {
  const Run run = run_model(R"({"ctde": 1, "name": "same", "director": {"stop_time": 1},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": { "y": "y" }, "states": { "y": 3 },
      "modes": { "A": { }, "B": { } }, "initial": "A",
      "transitions": [{ "path": ["A", "B"], "guard": "t >= 0.5", "set": { "y": "y" } }] }}]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(lines_of(run, "mode").size() == 1);
  CHECK(lines_of(run, "reset").empty());
}
