// Conformance: how runs that cannot go on end (docs/semantics.md, "How a run
// ends"): with status error, a message naming the actor and the time, the
// trace closed by run_end; never with an internal error.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "core/fast_paths.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// x' = -sign(x), x(0) = 1, as a user writes it: a two-mode chart whose
/// modes give the derivative +1 or -1 of its state. x reaches 0 at t = 1 s;
/// from there each mode's derivative drives x back over zero into the other
/// mode, one tick later each time: the events accumulate at t = 1 s.
///
/// With the event state integrated, the chart's own state is x = 1 - t
/// integrated again to the event: the project's Dormand-Prince stepper lands
/// on x = 0 exactly, where the new mode's guard holds at once (the chattering
/// error, tested below); ARKODE's erk45 lands a rounding error off it and
/// the events accumulate (the Zeno error). `integrator` chooses.
std::string sign_chart(const std::string& event_state, const std::string& integrator = "ctde") {
  return R"({"ctde": 1, "name": "sign_chart",
    "director": {"stop_time": 2, "integrator": ")" +
         integrator + R"(", "event_state": ")" + event_state + R"("},
    "actors": [{"name": "sgn", "type": "ModalModel", "params": {
      "outputs": {"x": "x"},
      "states": {"x": 1},
      "modes": {"POS": {"der": {"x": -1}}, "NEG": {"der": {"x": 1}}},
      "initial": "POS",
      "transitions": [{"path": ["POS", "NEG"], "guard": "x <= 0"},
                      {"path": ["NEG", "POS"], "guard": "x >= 0"}]}}],
    "record": ["sgn.x"]})";
}

/// The same switching, the chart choosing the input of an Integrator (the
/// same two outcomes by integrator).
std::string sign_chart_integrator(const std::string& event_state, const std::string& integrator = "ctde") {
  return R"({"ctde": 1, "name": "sign_chart_integrator",
    "director": {"stop_time": 2, "integrator": ")" +
         integrator + R"(", "event_state": ")" + event_state + R"("},
    "actors": [{"name": "x", "type": "Integrator", "params": {"initial": 1}},
               {"name": "sgn", "type": "ModalModel", "params": {
      "inputs": {"x": 1},
      "outputs": {"dx": -1},
      "modes": {"POS": {"outputs": {"dx": -1}}, "NEG": {"outputs": {"dx": 1}}},
      "initial": "POS",
      "transitions": [{"path": ["POS", "NEG"], "guard": "x <= 0"},
                      {"path": ["NEG", "POS"], "guard": "x >= 0"}]}}],
    "connections": [["x.out", "sgn.x"], ["sgn.dx", "x.in"]],
    "record": ["x.out"]})";
}

/// Runs a sign chart, which must end with the error `what` ("Zeno
/// behaviour", "chattering") of its guard at t = 1 s (within the
/// kZenoEvents + 1 events, 64 ticks apart at most, that make it), the trace's
/// last line saying so.
Run run_to_error_at_one_second(const std::string& model, const std::string& what) {
  Run run;
  REQUIRE_NOTHROW(run = run_model(model));
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "sgn");
  CHECK(run.result.message.find(what + ": sgn (ModalModel), guard '") != std::string::npos);
  CHECK(run.result.time >= 1.0);
  CHECK(run.result.time <= 1.0 + 9 * 64e-12);
  REQUIRE(!run.lines.empty());
  CHECK(run.lines.back()["status"] == "error");
  return run;
}

/// The run of a sign chart ends with the Zeno error at t = 1 s.
void check_zeno_at_one_second(const std::string& model) {
  const Run run = run_to_error_at_one_second(model, "Zeno behaviour");
  REQUIRE(run.lines.size() >= 2);
  CHECK(run.lines[run.lines.size() - 2]["kind"] == "error");
  CHECK(run.lines.back()["kind"] == "run_end");
  // Up to the error, x follows |1 - t| to the solver's tolerance.
  const std::size_t x = run.columns.size() - 1;
  for (const Row& row : run.rows) CHECK(row.values[x] == doctest::Approx(std::abs(1 - row.t)).epsilon(1e-6));
}

}  // namespace

TEST_CASE("a chattering sign chart ends with the Zeno error, the event state interpolated") {
  check_zeno_at_one_second(sign_chart("interpolated"));
  check_zeno_at_one_second(sign_chart_integrator("interpolated"));
}

TEST_CASE("a chattering sign chart ends with the Zeno error, the event state integrated") {
  check_zeno_at_one_second(sign_chart("integrated", "arkode"));
  check_zeno_at_one_second(sign_chart_integrator("integrated", "arkode"));
}

TEST_CASE("a chattering sign chart whose state lands on zero exactly ends with the chattering error") {
  // The project's stepper lands on zero exactly; with the fast paths off
  // erk45 is ARKODE's, which does not, and the chart is Zeno as above.
  const std::string what = ctde::fast_paths_enabled() ? "chattering" : "Zeno behaviour";
  for (const std::string& model : {sign_chart("integrated"), sign_chart_integrator("integrated")}) {
    run_to_error_at_one_second(model, what);
  }
}

TEST_CASE("ctde run of a chattering sign chart exits 3 and the trace ends with run_end, status error") {
  for (const std::string event_state : {"interpolated", "integrated"}) {
    CAPTURE(event_state);
    const auto model = scratch_file("ctde_conformance", "sign_chart_" + event_state + ".json");
    const auto trace = scratch_file("ctde_conformance", "sign_chart_" + event_state + ".jsonl");
    std::ofstream(model) << sign_chart(event_state, "arkode");
    const CommandResult r = run_cli("run " + model.string() + " --quiet --trace " + trace.string());
    CHECK(r.status == 3);
    CHECK(r.output.find("Zeno behaviour: sgn (ModalModel)") != std::string::npos);
    CHECK(r.output.find("internal error") == std::string::npos);
    const std::string lines = read_text(trace);
    CHECK(lines.find("{\"kind\":\"run_end\",\"status\":\"error\"") != std::string::npos);
  }
}

TEST_CASE(
    "a model without states recorded on a grid fails at the first row that fails, the rows before it kept") {
  // y = sqrt(1 - t): NaN after t = 1. Nothing bounds the steps of a model
  // without states but its rows: each is evaluated in time order, so the run
  // fails at the first row after 1 s (1.25), not at the stop time.
  const Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 4, "output_interval": 0.25},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "sqrt(1 - t)", "inputs": 0}}],
      "record": ["f.out"]})j");
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "f");
  CHECK(run.result.message ==
        "at t=1.25 s (tick 1250000000000, microstep 0): f: expression \"sqrt(1 - t)\" gives nan");
  CHECK(run.result.time == 1.25);
  REQUIRE(run.rows.size() == 5);
  for (std::size_t r = 0; r < run.rows.size(); ++r) {
    CHECK(run.rows[r].t == 0.25 * static_cast<double>(r));
    CHECK(run.rows[r].values.back() == std::sqrt(1 - run.rows[r].t));
  }
}

TEST_CASE("a model without states recorded on a grid has one row per grid point, each at its exact time") {
  // The grid's times bound its steps; a row is written once, at its tick.
  const Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 1, "output_interval": 0.1},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "sin(t)", "inputs": 0}}],
      "record": ["f.out"]})j");
  REQUIRE(run.result.status == RunStatus::kOk);
  REQUIRE(run.rows.size() == 11);
  for (std::size_t r = 0; r < run.rows.size(); ++r) {
    const double t = static_cast<double>(r) / 10;  // the tick nearest k * 0.1, as the results write it
    CHECK(run.rows[r].t == t);
    CHECK(run.rows[r].values.back() == doctest::Approx(std::sin(t)).epsilon(1e-15));
  }
}
