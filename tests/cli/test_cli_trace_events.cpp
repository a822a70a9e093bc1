// `ctde run --trace-events KINDS` (docs/trace-format.md, "Filtered traces"):
// the trace keeps the lines of those kinds, the very lines of the unfiltered
// trace in the same order, plus run_start (naming the kinds kept), snapshot,
// error and run_end; an unknown kind is refused listing the known ones.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "support/cli_helpers.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ctde::test::CommandResult;
using ctde::test::example_models;
using ctde::test::read_text;
using ctde::test::run_cli;
using Json = nlohmann::ordered_json;

std::string scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_trace_events_test", name).string();
}

/// The trace's lines, each parsed.
std::vector<Json> trace_lines(const std::string& path) {
  std::vector<Json> lines;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  return lines;
}

/// The lines of `lines` whose kind is in `kinds`.
std::vector<Json> of_kinds(const std::vector<Json>& lines, const std::set<std::string>& kinds) {
  std::vector<Json> out;
  for (const Json& line : lines) {
    if (kinds.count(line["kind"].get<std::string>()) != 0) out.push_back(line);
  }
  return out;
}

/// Runs `arguments` twice, with and without `--trace-events kinds`, and
/// returns both traces (unfiltered first).
std::pair<std::vector<Json>, std::vector<Json>> both_traces(const std::string& arguments,
                                                            const std::string& kinds,
                                                            const std::string& name) {
  const std::string all = scratch(name + "_all.jsonl");
  const std::string some = scratch(name + "_some.jsonl");
  const CommandResult a = run_cli(arguments + " --quiet --trace " + all);
  REQUIRE_MESSAGE(a.status == 0, a.output);
  const CommandResult b = run_cli(arguments + " --quiet --trace " + some + " --trace-events " + kinds);
  REQUIRE_MESSAGE(b.status == 0, b.output);
  return {trace_lines(all), trace_lines(some)};
}

/// `filtered` is `all` without the lines of the kinds left out (`kept` and
/// the ones always kept), its run_start naming the kinds kept.
void check_filtered(const std::vector<Json>& all, const std::vector<Json>& filtered,
                    std::set<std::string> kept) {
  kept.insert({"run_start", "snapshot", "error", "run_end"});
  REQUIRE(!filtered.empty());
  Json start = filtered.front();
  REQUIRE(start.contains("trace_events"));
  std::set<std::string> named;
  for (const Json& kind : start["trace_events"]) named.insert(kind.get<std::string>());
  CHECK(named == kept);
  start.erase("trace_events");
  std::vector<Json> expected = of_kinds(all, kept);
  CHECK(start == expected.front());
  expected.front() = filtered.front();
  CHECK(filtered == expected);
}

}  // namespace

TEST_CASE("--trace-events state_event keeps the ball's state events, as the unfiltered trace has them") {
  const std::string ball = example_models() + "bouncing_ball.json";
  const auto [all, filtered] = both_traces("run " + ball, "state_event", "ball");
  check_filtered(all, filtered, {"state_event"});
  // Only state events between the first and the last line, one per impact before the stop time
  // (dropped from h0 = 10 at rest, e = 0.8: the first at sqrt(2 h0 / g), then flights of 2 e^i v1 / g).
  REQUIRE(filtered.size() > 2);
  CHECK(filtered.front()["kind"] == "run_start");
  CHECK(filtered.back()["kind"] == "run_end");
  for (std::size_t i = 1; i + 1 < filtered.size(); ++i) CHECK(filtered[i]["kind"] == "state_event");
  const double g = 9.81;
  const double v1 = std::sqrt(2 * g * 10);
  double t = std::sqrt(2 * 10 / g);
  double speed = 0.8 * v1;
  std::size_t impacts = 0;
  while (t < 10) {
    ++impacts;
    t += 2 * speed / g;
    speed *= 0.8;
  }
  CHECK(filtered.size() - 2 == impacts);
  CHECK(of_kinds(all, {"state_event"}).size() == impacts);
  CHECK(filtered.back()["state_events"] == impacts);
  // The unfiltered trace names no filter.
  CHECK(!all.front().contains("trace_events"));
}

TEST_CASE("--trace-events keeps several kinds in the order they happened, and snapshot lines on resuming") {
  const std::string thermostat = example_models() + "thermostat.json";
  const auto [all, filtered] = both_traces("run " + thermostat, "mode,state_event", "thermostat");
  CHECK(of_kinds(all, {"mode"}).size() > 3);
  CHECK(of_kinds(all, {"step_reject"}).size() > 3);  // left out
  check_filtered(all, filtered, {"state_event", "mode"});

  const std::string tank = example_models() + "tank_queue.json";
  const std::string snap = scratch("tank.snap");
  REQUIRE(run_cli("run " + tank + " --quiet --snapshot-at 5 --snapshot " + snap).status == 0);
  const auto [rest, rest_filtered] =
      both_traces("run " + tank + " --resume " + snap, "time_event", "resumed");
  check_filtered(rest, rest_filtered, {"time_event"});
  REQUIRE(rest_filtered.size() > 3);
  CHECK(rest_filtered[1]["kind"] == "snapshot");
  CHECK(rest_filtered[1]["action"] == "resumed");
  CHECK(rest_filtered[2]["kind"] == "time_event");
}

TEST_CASE("an unknown --trace-events kind is refused listing the known ones; nothing is written") {
  const std::string ball = example_models() + "bouncing_ball.json";
  const std::string trace = scratch("never.jsonl");
  CommandResult r = run_cli("run " + ball + " --trace " + trace + " --trace-events state_event,impact");
  CHECK(r.status == 2);
  CHECK(r.output ==
        "ctde: error: --trace-events state_event,impact: unknown kind of trace line 'impact' (known: "
        "run_start, "
        "time_event, event, step, step_reject, state_event, reset, mode, solver, snapshot, fmu_log, error, "
        "run_end; "
        "docs/trace-format.md)\n");
  r = run_cli("run " + ball + " --trace " + trace + " --trace-events state_event,");
  CHECK(r.status == 2);
  CHECK(r.output.find("--trace-events state_event,: expects kinds of trace line separated by commas") !=
        std::string::npos);
  r = run_cli("run " + ball + " --trace-events state_event");
  CHECK(r.status == 2);
  CHECK(r.output == "ctde: error: --trace-events needs --trace FILE: the trace it filters\n");
  CHECK(!std::filesystem::exists(trace));
}

TEST_CASE("`step` lines, written only when named: one per solver step, their counts add up to run_end's") {
  const std::string ball = example_models() + "bouncing_ball.json";
  const auto [all, filtered] = both_traces("run " + ball, "step,step_reject", "steps");
  CHECK(of_kinds(all, {"step"}).empty());  // an unfiltered trace has none
  const std::vector<Json> steps = of_kinds(filtered, {"step"});
  const Json& end = filtered.back();
  CHECK(steps.size() == end["steps"].get<std::size_t>());
  std::uint64_t rhs = 0;
  std::uint64_t rejected = 0;
  double last_t1 = 0;
  for (const Json& s : steps) {
    CHECK(s["t1"].get<double>() > s["t0"].get<double>());
    CHECK(s["t0"].get<double>() <=
          last_t1 + 1e-15);  // from where the last one ended, or an event cut it back
    last_t1 = s["t1"].get<double>();
    rhs += s["rhs_evals"].get<std::uint64_t>();
    rejected += s["rejected"].get<std::uint64_t>();
    CHECK(s["loop_solves"] == 0);
  }
  CHECK(last_t1 == 10.0);
  CHECK(rejected == end["rejected_steps"].get<std::uint64_t>());
  // The director's own evaluations (event searches, slopes) are in run_end's count only.
  CHECK(rhs <= end["rhs_evals"].get<std::uint64_t>());
  CHECK(rhs >= 6 * steps.size());  // Dormand-Prince: 6 new evaluations a step (FSAL)
  // Each step that overshot an impact is followed by its step_reject, ending where the step ended.
  for (std::size_t i = 1; i < filtered.size(); ++i) {
    if (filtered[i]["kind"] != "step_reject") continue;
    CHECK(filtered[i - 1]["kind"] == "step");
    CHECK(filtered[i]["t1"] == filtered[i - 1]["t1"]);
  }
}

TEST_CASE("`step` lines count an algebraic loop's solves and Newton iterations per step") {
  // actuator_loop: the loop F = u - 0.5 F in the derivatives, solved at every evaluation.
  const std::string model = example_models() + "actuator_loop.json";
  const std::string trace = scratch("loop_steps.jsonl");
  const CommandResult r = run_cli("run " + model + " --quiet --trace " + trace + " --trace-events step");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const std::vector<Json> lines = trace_lines(trace);
  const std::vector<Json> steps = of_kinds(lines, {"step"});
  REQUIRE(steps.size() > 10);
  std::uint64_t solves = 0;
  std::uint64_t iterations = 0;
  for (const Json& s : steps) {
    // every evaluation of the derivatives solves the loop once, and the step's end once more
    CHECK(s["loop_solves"].get<std::uint64_t>() >= s["rhs_evals"].get<std::uint64_t>());
    solves += s["loop_solves"].get<std::uint64_t>();
    iterations += s["loop_iterations"].get<std::uint64_t>();
  }
  const Json& end = lines.back();
  CHECK(solves <= end["loop_solves"].get<std::uint64_t>());
  CHECK(solves + 5 >= end["loop_solves"].get<std::uint64_t>());  // the rest: at the start, at events
  CHECK(iterations <= end["loop_iterations"].get<std::uint64_t>());
  CHECK(iterations > 0);
}
