// The FMU actor in runs and commands: the FMU's log messages as `fmu_log`
// trace lines (FMI 2.0 and 3.0, model exchange and co-simulation),
// terminateSimulation asked by fmi2CompletedIntegratorStep, and `ctde graph`
// drawing an FMU's ports.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/trace.hpp"
#include "support/cli_helpers.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::fmu_model;
using ctde::test::run_model;

namespace {

/// The raw text of the trace lines of kind `kind`.
std::vector<std::string> raw_lines(const test::Run& run, const std::string& kind) {
  std::vector<std::string> found;
  std::istringstream in(run.trace);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("{\"kind\":\"" + kind + "\"") == 0) found.push_back(line);
  }
  return found;
}

/// The fmu_log lines of `run`, parsed.
std::vector<nlohmann::json> fmu_logs(const test::Run& run) {
  std::vector<nlohmann::json> logs;
  for (const auto& line : run.lines) {
    if (line["kind"] == "fmu_log") logs.push_back(line);
  }
  return logs;
}

}  // namespace

TEST_CASE("an actor's own trace line carries its kind, the tag, the actor and its fields in order") {
  std::ostringstream out;
  {
    TraceWriter trace(out);
    const std::vector<TraceField> fields{{"category", "c"}, {"message", "say \"hi\""}};
    trace.actor_line(Tag{250'000'000'000, 1}, "note", "plant.a", fields);  // 0.25 s in 1e-12 s ticks
  }
  CHECK(
      out.str() ==
      "{\"kind\":\"note\",\"t\":0.25,\"tick\":250000000000,\"n\":1,\"actor\":\"plant.a\",\"category\":\"c\","
      "\"message\":\"say \\\"hi\\\"\"}\n");
  CHECK(is_director_trace_kind("event"));
  CHECK(is_director_trace_kind("reset"));
  CHECK(is_director_trace_kind("run_end"));
  CHECK_FALSE(is_director_trace_kind("fmu_log"));
}

TEST_CASE("the FMU's log messages are fmu_log trace lines at the firing that made them") {
  const auto run =
      run_model(fmu_model("stair_log", R"("start": {"last": 3})", R"("stop_time": 1)", R"("a.count")"));
  REQUIRE(run.result.status == RunStatus::kStopped);
  const std::vector<nlohmann::json> logs = fmu_logs(run);
  REQUIRE(logs.size() == 4);
  for (int k = 1; k <= 3; ++k) {
    const nlohmann::json& line = logs[static_cast<std::size_t>(k - 1)];
    CAPTURE(k);
    CHECK(line["actor"] == "a");
    CHECK(line["tick"] == static_cast<std::int64_t>(k) * 100000000000);
    CHECK(line["category"] == "logEvents");
    CHECK(line["status"] == "fmi2OK");
    CHECK(line["message"] == "count " + std::to_string(k));
  }
  CHECK(logs[3]["tick"] == 300000000000);
  CHECK(logs[3]["status"] == "fmi2Warning");
  CHECK(logs[3]["message"] == "count reached last: terminating");
  // Each line follows the time event of its firing, at the same tag.
  for (std::size_t i = 1; i < run.lines.size(); ++i) {
    if (run.lines[i]["kind"] != "fmu_log" || run.lines[i]["message"] != "count 2") continue;
    CHECK(run.lines[i - 1]["kind"] == "time_event");
    CHECK(run.lines[i - 1]["tick"] == run.lines[i]["tick"]);
    CHECK(run.lines[i - 1]["n"] == run.lines[i]["n"]);
  }
  // The keys in the documented order (docs/trace-format.md).
  const std::vector<std::string> raw = raw_lines(run, "fmu_log");
  REQUIRE(raw.size() == 4);
  CHECK(raw[0].find(R"({"kind":"fmu_log","t":)") == 0);
  CHECK(raw[0].find(R"(,"tick":100000000000,"n":)") != std::string::npos);
  CHECK(raw[0].find(R"(,"actor":"a","category":"logEvents","status":"fmi2OK","message":"count 1"})") !=
        std::string::npos);
  // The same FMU without logging writes no fmu_log line.
  const auto quiet =
      run_model(fmu_model("stair", R"("start": {"last": 3})", R"("stop_time": 1)", R"("a.count")"));
  CHECK(fmu_logs(quiet).empty());
  CHECK(quiet.csv == run.csv);
}

TEST_CASE(
    "an FMI 3.0 co-simulation FMU's messages are traced at the communication point whose step made them") {
  const auto run = run_model(fmu_model(
      "stair_log3", R"("interface": "co-simulation", "communication_step": 0.05, "start": {"last": 2})",
      R"("stop_time": 1)", R"("a.count")"));
  REQUIRE(run.result.status == RunStatus::kStopped);
  const std::vector<nlohmann::json> logs = fmu_logs(run);
  REQUIRE(logs.size() == 3);
  // count k happens at k * 0.1, inside the step that ends there.
  CHECK(logs[0]["tick"] == 100000000000);
  CHECK(logs[0]["message"] == "count 1");
  CHECK(logs[0]["status"] == "fmi3OK");
  CHECK(logs[1]["tick"] == 200000000000);
  CHECK(logs[1]["message"] == "count 2");
  CHECK(logs[2]["tick"] == 200000000000);
  CHECK(logs[2]["status"] == "fmi3Warning");
  CHECK(run.result.time == doctest::Approx(0.2));
}

TEST_CASE("what a Model Exchange FMU logs during a step is traced at that step's end") {
  // step_log logs each evaluation and each completed step with its time.
  const auto run = run_model(fmu_model("step_log", "", R"("stop_time": 2)", R"("a.x")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const double tick = 1e-12;
  std::vector<double>
      trace_points;              // step ends (logged by fmi2CompletedIntegratorStep) and the FMU's firings
  std::vector<double> computes;  // the times the evaluations' lines carry
  double last = -1;
  for (const auto& line : run.lines) {
    if (line.contains("t") && line["t"].is_number()) {
      CHECK(line["t"].get<double>() >= last);  // the trace's time order stays monotone
      last = line["t"].get<double>();
    }
    if (line["kind"] == "time_event" && line["actor"] == "a") trace_points.push_back(line["t"].get<double>());
    if (line["kind"] != "fmu_log") continue;
    const std::string message = line["message"];
    const double logged = std::stod(message.substr(message.find("t = ") + 4));
    if (message.rfind("step done", 0) == 0) {
      CHECK(std::fabs(line["t"].get<double>() - logged) <= tick);  // at the step's end, not the next firing
      CHECK(line["n"] == 0);
      trace_points.push_back(logged);
    } else {
      computes.push_back(line["t"].get<double>());
    }
  }
  REQUIRE(trace_points.size() >= 4);
  REQUIRE(computes.size() >= trace_points.size());
  // Every evaluation's line is at a step end or a firing of the FMU, and they spread over the run.
  std::vector<double> distinct;
  for (const double traced : computes) {
    CAPTURE(traced);
    bool at_point = false;
    for (const double point : trace_points) at_point = at_point || std::fabs(point - traced) <= tick;
    CHECK(at_point);
    if (distinct.empty() || traced > distinct.back() + tick) distinct.push_back(traced);
  }
  CHECK(distinct.size() >= 4);
}

TEST_CASE("terminateSimulation from fmi2CompletedIntegratorStep stops the run after that step") {
  const auto run =
      run_model(fmu_model("step_terminate", "", R"("stop_time": 2)", R"("a.x", "a.at", "a.resets")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kStopped, run.result.message);
  // The first accepted step ending with x = t >= 0.5 asks to terminate; the
  // event the actor then runs records its time in `at`.
  const double at = run.rows.back().values[run.column("a.at")];
  // Rows are written at every step end (no output_interval): the step is
  // the first to end at or after 0.5 s, to a tick.
  const auto first_end =
      std::find_if(run.rows.begin(), run.rows.end(), [](const auto& row) { return row.t >= 0.5; });
  REQUIRE(first_end != run.rows.end());
  CHECK(std::abs(at - first_end->t) <= 1e-12);
  CHECK(at < 2);
  CHECK(run.result.time == doctest::Approx(at).epsilon(1e-12));
  CHECK(run.rows.back().t == doctest::Approx(at).epsilon(1e-12));
  CHECK(run.lines.back()["kind"] == "run_end");
  CHECK(run.lines.back()["status"] == "stopped");
  // Its twin that asks for an event instead runs to the end.
  const auto twin = run_model(fmu_model("step_event", "", R"("stop_time": 2)", R"("a.x", "a.at")"));
  CHECK(twin.result.status == RunStatus::kOk);
  CHECK(twin.rows.back().values[1] == doctest::Approx(at).epsilon(1e-12));
}

TEST_CASE("ctde graph draws an FMU with its ports on the connections") {
  const std::filesystem::path model = test::scratch_file("ctde_fmi_runs_test", "graph.json");
  std::ofstream(model) << fmu_model("feedthrough", "", R"("stop_time": 1)", "",
                                    R"(, {"name": "t", "type": "Ramp"},
                                       {"name": "n", "type": "Constant", "params": {"value": 4}},
                                       {"name": "g", "type": "Gain", "params": {"k": 2}},
                                       {"name": "m", "type": "Gain"})",
                                    R"(["t.out", "a.u"], ["n.out", "a.n"], ["n.out", "a.on"],
                                       ["a.y", "g.in"], ["a.n_out", "m.in"])");
  const auto drawn = test::run_cli("graph " + model.string());
  REQUIRE_MESSAGE(drawn.status == 0, drawn.output);
  const std::string& dot = drawn.output;
  CHECK_MESSAGE(dot.find("0 [label=\"a\\nFMU\"") != std::string::npos, dot);
  // Edge labels name the ports (the input alone when the output is the usual `out`).
  CHECK(dot.find("1->0 [style=solid, color=\"#1f4e79\", label=\"u\"];") != std::string::npos);
  CHECK(dot.find("2->0 [style=solid, color=\"#777777\", label=\"n\"];") != std::string::npos);
  CHECK(dot.find("2->0 [style=solid, color=\"#777777\", label=\"on\"];") != std::string::npos);
  CHECK(dot.find("0->3 [style=solid, color=\"#1f4e79\", label=\"y -> in\"];") != std::string::npos);
  CHECK(dot.find("0->4 [style=solid, color=\"#1f4e79\", label=\"n_out -> in\"];") != std::string::npos);
}

TEST_CASE("a loop through an FMU output that does not depend on the input it reaches is no algebraic loop") {
  // y2 = x (state only) -> g -> u1, and y1 = 2 u1: u1 = 3 e^-t, y1 = 6 e^-t.
  const std::string director = R"("stop_time": 2, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25)";
  const auto run = run_model(fmu_model("two_paths", "", director, R"("a.y1", "a.y2", "g.out")",
                                       R"(, {"name": "g", "type": "Gain", "params": {"k": 3}})",
                                       R"(["a.y2", "g.in"], ["g.out", "a.u1"])"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  REQUIRE(run.rows.size() >= 9);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[1] == doctest::Approx(std::exp(-row.t)).epsilon(1e-8));
    CHECK(row.values[2] == doctest::Approx(3 * std::exp(-row.t)).epsilon(1e-8));
    CHECK(row.values[0] == doctest::Approx(6 * std::exp(-row.t)).epsilon(1e-8));  // read after g: not stale
  }
  // The FMU feeding itself (y2 -> u1 directly): y1 = 2 e^-t.
  const auto self = run_model(fmu_model("two_paths", "", director, R"("a.y1")", "", R"(["a.y2", "a.u1"])"));
  REQUIRE_MESSAGE(self.result.status == RunStatus::kOk, self.result.message);
  for (const auto& row : self.rows) {
    CAPTURE(row.t);
    CHECK(row.values[0] == doctest::Approx(2 * std::exp(-row.t)).epsilon(1e-8));
  }
  // ctde validate shows the FMU evaluated twice: before g (for y2) and after it (for y1).
  const std::filesystem::path model = test::scratch_file("ctde_fmi_runs_test", "two_paths.json");
  std::ofstream(model) << fmu_model("two_paths", "", R"("stop_time": 1)", "",
                                    R"(, {"name": "g", "type": "Gain", "params": {"k": 3}})",
                                    R"(["a.y2", "g.in"], ["g.out", "a.u1"])");
  const auto validated = test::run_cli("validate " + model.string());
  REQUIRE_MESSAGE(validated.status == 0, validated.output);
  CHECK_MESSAGE(validated.output.find("continuous schedule: a, g, a\n") != std::string::npos,
                validated.output);
}

TEST_CASE("a loop through the FMU output that depends on the input is an algebraic loop naming its actors") {
  const auto message = [](const std::string& more_actors, const std::string& connections) {
    return test::run_setup_error(fmu_model("two_paths", "", R"("stop_time": 1, "algebraic_loops": "error")",
                                           "", more_actors, connections));
  };
  const std::string gain = R"(, {"name": "g", "type": "Gain", "params": {"k": 3}})";
  CHECK(message(gain, R"(["a.y1", "g.in"], ["g.out", "a.u1"])")
            .find("algebraic loop among direct-feedthrough continuous actors: a -> g -> a") !=
        std::string::npos);
  CHECK(message("", R"(["a.y1", "a.u1"])")
            .find("algebraic loop among direct-feedthrough continuous actors: a -> a") != std::string::npos);
}

TEST_CASE("a loop that closes through an FMU's direct feedthrough is solved: y = k u + n, u = g y") {
  // The feedthrough FMU: y = 2 u + n (on); with u = 0.25 y, y = 0.5 y + 4: y = 8 at every time.
  const auto run_with = [](double g) {
    return run_model(fmu_model("feedthrough", "", R"("stop_time": 1, "output_interval": 0.25)",
                               R"("a.y", "g.out")",
                               R"(, {"name": "g", "type": "Gain", "params": {"k": )" + std::to_string(g) +
                                   R"(}}, {"name": "n", "type": "Constant", "params": {"value": 4}},
                                   {"name": "on", "type": "Constant", "params": {"value": 1}})",
                               R"(["a.y", "g.in"], ["g.out", "a.u"], ["n.out", "a.n"], ["on.out", "a.on"])"));
  };
  const auto solved = run_with(0.25);
  REQUIRE_MESSAGE(solved.result.status == RunStatus::kOk, solved.result.message);
  REQUIRE(solved.rows.size() >= 5);
  for (const auto& row : solved.rows) {
    CAPTURE(row.t);
    CHECK(row.values[0] == doctest::Approx(8.0).epsilon(1e-12));
    CHECK(row.values[1] == doctest::Approx(2.0).epsilon(1e-12));
  }
  // u = 0.5 y: y = y + 4 has no solution; the loop's Jacobian is singular.
  const auto singular = run_with(0.5);
  CHECK(singular.result.status == RunStatus::kError);
  CHECK_MESSAGE(
      singular.result.message.find("algebraic loop a -> g -> a: no solution found at t = 0 s: the loop's "
                                   "Jacobian is singular") != std::string::npos,
      singular.result.message);
}

TEST_CASE(
    "FMU event indicators have FMI's domains z > 0 and z <= 0: resting at zero, then rising, is an event") {
  const auto run = run_model(
      fmu_model("rest_rise", "", R"("stop_time": 1)", R"("a.rise_at", "a.fall_at", "a.rises", "a.falls")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const auto& last = run.rows.back().values;
  // z1 falls to zero at 0.25 s: the event is at that tick; z0 leaves zero upwards after 0.5 s: the first tick
  // above.
  CHECK(last[2] == 1);
  CHECK(last[3] == 1);
  CHECK(last[1] >= 0.25);
  CHECK(last[1] < 0.25 + 1e-12);
  CHECK(last[0] > 0.5);
  CHECK(last[0] <= 0.5 + 2e-12);
  std::vector<std::string> crossings;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event")
      crossings.push_back(line["guard"].get<std::string>() + " " + line["direction"].get<std::string>());
  }
  CHECK(crossings == std::vector<std::string>{"z1 falling", "z0 rising"});
}
