// Conformance: a mode-chart guard on the time alone is a time event
// (docs/modal.md, "Guards on the time alone"). It is taken at exactly the
// tick where it first holds — the nearest tick of its constant, one tick
// later for a strict comparison — with a `time_event` trace line, and no
// state-event search (no `state_event`, no `step_reject`). An equivalent
// guard on a state (a clock c' = 1) is searched, and must agree within the
// located crossing's tick.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "actors/modal/chart_program.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

constexpr double kResolution = 1e-12;  // the default time_resolution

std::vector<nlohmann::json> lines_of(const Run& run, const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == kind) out.push_back(line);
  }
  return out;
}

/// A chart OFF -> ON taken when `guard` holds: x rises in OFF and falls in
/// ON, the output `level` is 0 in OFF and 1 in ON, and the clock c (c' = 1)
/// is there for guards on a state. Model parameter T_on = 0.5.
std::string switch_model(const std::string& guard, const std::string& stop_time = "2") {
  return R"({"ctde": 1, "name": "timed", "parameters": {"T_on": 0.5},
    "director": {"stop_time": )" +
         stop_time + R"(},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": { "x": "x" },
      "states": { "x": 0, "c": 0 },
      "modes": { "OFF": { "der": { "x": 1, "c": 1 }, "outputs": { "level": 0 } },
                 "ON":  { "der": { "x": -1, "c": 1 }, "outputs": { "level": 1 } } },
      "initial": "OFF",
      "transitions": [{ "path": ["OFF", "ON"], "guard": ")" +
         guard + R"(" }] }}],
    "record": ["m.x", "m.level"]})";
}

/// The tick of the nearest tick to `seconds`.
std::int64_t tick_of(double seconds) { return TimeResolution(kResolution).to_ticks(seconds); }

/// The run's only mode line's tick (the test fails otherwise).
std::int64_t switch_tick(const Run& run) {
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == 1);
  CHECK(modes[0]["n"] == 0);
  return modes[0]["tick"].get<std::int64_t>();
}

/// The chart's time events after the start (the start's firing is one too).
std::vector<nlohmann::json> later_time_events(const Run& run) {
  std::vector<nlohmann::json> out;
  for (const auto& line : lines_of(run, "time_event")) {
    if (line["actor"] == "m" && line["tick"].get<std::int64_t>() > 0) out.push_back(line);
  }
  return out;
}

/// No state-event search happened: no crossing located, no step rejected
/// for one, no solver step rejected at all.
void check_no_search(const Run& run) {
  CHECK(lines_of(run, "state_event").empty());
  CHECK(lines_of(run, "step_reject").empty());
  CHECK(run.result.stats.state_events == 0);
  CHECK(run.result.stats.rejected_steps == 0);
}

}  // namespace

TEST_CASE("conformance: a guard t >= 0.5 is a time event at exactly the tick of 0.5 s, without a search") {
  const Run run = run_model(switch_model("t >= 0.5"));
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::int64_t expected = tick_of(0.5);
  CHECK(expected == 500'000'000'000);
  CHECK(switch_tick(run) == expected);
  const auto events = later_time_events(run);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["tick"] == expected);
  CHECK(events[0]["n"] == 0);
  check_no_search(run);
  // The results show both sides at (0.5, 0) and (0.5, 1): OFF's level, then ON's.
  const std::size_t level = run.column("m.level");
  std::vector<const Row*> at_switch;
  for (const Row& row : run.rows) {
    if (row.t == 0.5) at_switch.push_back(&row);
  }
  REQUIRE(at_switch.size() == 2);
  CHECK(at_switch[0]->n == 0);
  CHECK(at_switch[0]->values[level] == 0.0);
  CHECK(at_switch[1]->n == 1);
  CHECK(at_switch[1]->values[level] == 1.0);
  // x rose to 0.5 and fell for 1.5 s.
  CHECK(run.rows.back().values[run.column("m.x")] == doctest::Approx(-1.0).epsilon(1e-12));
}

TEST_CASE("conformance: a time guard and its twin on a clock state switch at the same time") {
  // The oracle: c' = 1 from 0, so "c >= 0.5" is "t >= 0.5", located as a
  // state event; the located crossing is the first tick at which the guard
  // has crossed, so the two agree within a tick.
  const Run timed = run_model(switch_model("t >= 0.5"));
  const Run searched = run_model(switch_model("c >= 0.5"));
  REQUIRE(timed.result.status == RunStatus::kOk);
  REQUIRE(searched.result.status == RunStatus::kOk);
  CHECK(lines_of(searched, "state_event").size() == 1);  // the twin is searched
  CHECK(later_time_events(searched).empty());
  const std::int64_t at_time = switch_tick(timed);
  const std::int64_t at_crossing = switch_tick(searched);
  CHECK(std::abs(at_time - at_crossing) <= 1);
  CHECK(timed.rows.back().values[timed.column("m.x")] ==
        doctest::Approx(searched.rows.back().values[searched.column("m.x")]).epsilon(1e-9));
}

TEST_CASE("conformance: a strict time guard t > 0.5 is taken one tick after 0.5 s") {
  const Run run = run_model(switch_model("t > 0.5"));
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(switch_tick(run) == tick_of(0.5) + 1);
  CHECK(later_time_events(run).size() == 1);
  check_no_search(run);
  // Mirrored, with t on the right: "0.5 < t" is "t > 0.5", "0.5 <= t" is "t >= 0.5".
  CHECK(switch_tick(run_model(switch_model("0.5 < t"))) == tick_of(0.5) + 1);
  CHECK(switch_tick(run_model(switch_model("0.5 <= t"))) == tick_of(0.5));
}

TEST_CASE("conformance: a time guard reads parameters, and a --set override moves it") {
  const Run run = run_model(switch_model("t > T_on"));
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(switch_tick(run) == tick_of(0.5) + 1);
  check_no_search(run);
  const Run moved = run_model(switch_model("t > T_on"), {{"T_on", "0.8"}});
  REQUIRE(moved.result.status == RunStatus::kOk);
  CHECK(switch_tick(moved) == tick_of(0.8) + 1);
  check_no_search(moved);
  // An expression of parameters is folded to one constant.
  CHECK(switch_tick(run_model(switch_model("t >= 2 * T_on - 0.25"))) == tick_of(0.75));
  // The same through the command line.
  const auto file = scratch_file("ctde_conformance", "t_on.json");
  std::ofstream(file) << switch_model("t > T_on");
  const auto trace = scratch_file("ctde_conformance", "t_on.jsonl");
  const auto results = scratch_file("ctde_conformance", "t_on.csv");
  const CommandResult result = run_cli("run " + file.string() + " --quiet --set T_on=1.25 -o " +
                                       results.string() + " --trace " + trace.string());
  REQUIRE(result.status == 0);
  std::ifstream in(trace);
  std::vector<nlohmann::json> modes;
  for (std::string line; std::getline(in, line);) {
    auto json = nlohmann::json::parse(line);
    if (json["kind"] == "mode") modes.push_back(json);
    CHECK(json["kind"] != "state_event");
  }
  REQUIRE(modes.size() == 1);
  CHECK(modes[0]["tick"] == tick_of(1.25) + 1);
}

TEST_CASE("conformance: conjunctions and disjunctions of time comparisons are time events") {
  // A window that is open when the mode is entered: taken at its opening.
  CHECK(switch_tick(run_model(switch_model("t >= 0.5 && t < 2"))) == tick_of(0.5));
  // A window that closed before the opening of the other part: the first tick of the union.
  const Run run = run_model(switch_model("(t >= -1 && t < -0.5) || !(t < 1.5)"));
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(switch_tick(run) == tick_of(1.5));
  check_no_search(run);
  // A window already closed: never taken, and never searched.
  const Run never = run_model(switch_model("t > 3 && t <= 4"));
  REQUIRE(never.result.status == RunStatus::kOk);
  CHECK(lines_of(never, "mode").empty());
  check_no_search(never);
  // A guard that holds at the start is taken by the start's firing, at (0, 0).
  CHECK(switch_tick(run_model(switch_model("t <= 0.25"))) == 0);
}

TEST_CASE("conformance: a chain of time guards; a mode left before its time event ignores it") {
  // OFF -> ON at the clock's 0.3 (a state event); OFF's time guard at 1 s is
  // then stale: its time event fires the chart in ON, which has no time
  // guard due, and nothing happens. ON -> DONE at t >= 1.5 (a time event
  // asked for on entering ON).
  const std::string text = R"({"ctde": 1, "name": "chain", "director": {"stop_time": 2},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": { "c": "c" }, "states": { "c": 0 },
      "modes": { "OFF": { "der": { "c": 1 } }, "ON": { "der": { "c": 1 } }, "DONE": { "der": { "c": 0 } } },
      "initial": "OFF",
      "transitions": [{ "path": ["OFF", "DONE"], "guard": "t >= 1" },
                      { "path": ["OFF", "ON"], "guard": "c >= 0.3" },
                      { "path": ["ON", "DONE"], "guard": "t >= 1.5" }] }}]})";
  const Run run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == 2);
  CHECK(modes[0]["to"] == "ON");
  CHECK(std::abs(modes[0]["tick"].get<std::int64_t>() - tick_of(0.3)) <= 1);
  CHECK(modes[1]["to"] == "DONE");
  CHECK(modes[1]["tick"] == tick_of(1.5));
  CHECK(lines_of(run, "state_event").size() == 1);  // the clock's, only
}

TEST_CASE("conformance: guards that compute with t, or read states too, stay located state events") {
  // Recognised: comparisons of t itself against constants. "t - 0.5 >= 0"
  // and "t >= 0.5 && x > -1" are searched (and still switch at 0.5 s).
  for (const std::string guard : {"t - 0.5 >= 0", "t >= 0.5 && x > -1"}) {
    CAPTURE(guard);
    const Run run = run_model(switch_model(guard));
    REQUIRE(run.result.status == RunStatus::kOk);
    CHECK(lines_of(run, "state_event").size() == 1);
    CHECK(std::abs(switch_tick(run) - tick_of(0.5)) <= 1);
  }
}

TEST_CASE("conformance: TimePredicate decides comparisons of t in ticks, rounding constants to the nearest") {
  const TimeResolution millisecond(1e-3);
  const auto first_from = [&](const std::string& text, Tick from) {
    ExpressionCompiler compiler;
    compiler.define_variable("t", SymbolKind::kTime);
    compiler.define_variable("x", SymbolKind::kState);
    compiler.define_constant("T_on", 0.0104);
    auto predicate = TimePredicate::recognise(compiler.compile(parse_predicate(text), kAnySymbol, "test"), 0);
    REQUIRE(predicate.has_value());
    predicate->resolve(millisecond, 0, 1000);
    return predicate->first_from(from);
  };
  CHECK(first_from("t >= T_on", 0) == 10);  // 10.4 ms: the nearest tick is 10
  CHECK(first_from("t > T_on", 0) == 11);
  CHECK(first_from("t <= T_on", 0) == 0);
  CHECK(first_from("t <= T_on", 11) == kNever);
  CHECK(first_from("t < T_on", 9) == 9);
  CHECK(first_from("t < T_on", 10) == kNever);
  CHECK(first_from("T_on > t || t >= 0.5", 10) == 500);
  CHECK(first_from("!(t < 0.02) && !(t > 0.03)", 0) == 20);
  CHECK(first_from("t >= 0.02 && t < 0.02", 0) == kNever);
  CHECK(first_from("t >= 5", 0) == kNever);  // after the run's last tick
  CHECK(first_from("t >= -1e300", 7) == 7);  // far before the horizon
  CHECK(first_from("t <= 1e300", 1000) == 1000);
  // Not recognised: a side that computes with t, a state, a comparison of constants.
  ExpressionCompiler compiler;
  compiler.define_variable("t", SymbolKind::kTime);
  compiler.define_variable("x", SymbolKind::kState);
  for (const std::string text : {"t - 1 >= 0", "t >= x", "t >= 1 && x > 0", "2 * t > 1", "1 < 2"}) {
    CAPTURE(text);
    CHECK_FALSE(TimePredicate::recognise(compiler.compile(parse_predicate(text), kAnySymbol, "test"), 0));
  }
}
