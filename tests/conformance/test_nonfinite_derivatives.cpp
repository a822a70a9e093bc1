// Conformance: a NaN or infinite derivative at a trial stage of a step is
// stepped around with shorter steps; on the solution it stops the run
// (docs/semantics.md, "Non-finite derivatives").
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// A tank filled at 1 m/s from empty until its level reaches 1 m (t = 1 s);
/// then its chart opens a √h outflow, h' = -c √h (no inflow), until the level
/// falls to h_empty, where it closes. The first step of OPEN is planned while
/// filling (h' = 1: long steps), and its last stages overshoot h = 0.
std::string tank(const std::string& event_state) {
  return R"json({"ctde": 1, "name": "tank",
    "parameters": {"c": 0.5, "h_empty": 1e-6},
    "director": {"stop_time": 6, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01,
                 "event_state": ")json" +
         event_state + R"json("},
    "actors": [{"name": "tank", "type": "ModalModel", "params": {
      "outputs": {"h": "h"},
      "states": {"h": 0},
      "modes": {"FILL": {"der": {"h": 1}}, "OPEN": {"der": {"h": "-c * sqrt(h)"}}, "EMPTY": {}},
      "initial": "FILL",
      "transitions": [{"path": ["FILL", "OPEN"], "guard": "h >= 1"},
                      {"path": ["OPEN", "EMPTY"], "guard": "h <= h_empty"}]}}],
    "record": ["tank.h"]})json";
}

/// The time of the `mode` trace line into `to`, or NaN.
double mode_time(const Run& run, const std::string& to) {
  for (const auto& line : run.lines) {
    if (line["kind"] == "mode" && line["to"] == to) return line["t"].get<double>();
  }
  return std::nan("");
}

}  // namespace

TEST_CASE("a tank's sqrt drain opened by its chart runs to the end along the closed form") {
  // Filling: h = t. Draining from h0 = 1 at t = 1: sqrt(h) falls at c / 2, so
  // h = (1 - c (t - 1) / 2)^2, and h reaches h_empty at 1 + 2 (1 - sqrt(h_empty)) / c.
  const double c = 0.5;
  const double t_empty = 1 + 2 * (1 - std::sqrt(1e-6)) / c;
  for (const std::string event_state : {"interpolated", "integrated"}) {
    CAPTURE(event_state);
    const Run run = run_model(tank(event_state));
    REQUIRE(run.result.status == RunStatus::kOk);
    CHECK(run.result.time == 6.0);
    CHECK(mode_time(run, "OPEN") == doctest::Approx(1.0).epsilon(1e-11));
    CHECK(mode_time(run, "EMPTY") == doctest::Approx(t_empty).epsilon(1e-7));
    const std::size_t h = run.column("tank.h");
    for (const Row& row : run.rows) {
      CAPTURE(row.t);
      CHECK(row.values[h] >= 0);
      if (row.t <= 1) {
        CHECK(row.values[h] == doctest::Approx(row.t).epsilon(1e-9));
      } else if (row.t < t_empty) {
        const double root = 1 - c * (row.t - 1) / 2;
        CHECK(std::abs(row.values[h] - root * root) <= 1e-6);
      } else {
        CHECK(std::abs(row.values[h] - 1e-6) <= 1e-9);  // closed at h_empty
      }
    }
  }
}

TEST_CASE("a tank built from an Integrator and an Expression drains the same way") {
  // The Expression checks its own value: a NaN at a trial stage is recoverable too.
  const double c = 0.5;
  const double t_empty = 1 + 2 * (1 - std::sqrt(1e-6)) / c;
  const Run run = run_model(R"json({"ctde": 1, "name": "tank_blocks",
    "director": {"stop_time": 6, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01},
    "actors": [{"name": "h", "type": "Integrator", "params": {"initial": 0}},
               {"name": "flow", "type": "Expression",
                "params": {"inputs": 2, "expr": "in1 == 1 ? -0.5 * sqrt(in0) : (in1 == 0 ? 1 : 0)"}},
               {"name": "valve", "type": "ModalModel", "params": {
      "inputs": {"h": 1}, "outputs": {"mode": 0},
      "modes": {"FILL": {"outputs": {"mode": 0}}, "OPEN": {"outputs": {"mode": 1}},
                "EMPTY": {"outputs": {"mode": 2}}},
      "initial": "FILL",
      "transitions": [{"path": ["FILL", "OPEN"], "guard": "h >= 1"},
                      {"path": ["OPEN", "EMPTY"], "guard": "h <= 1e-6"}]}}],
    "connections": [["h.out", "flow.in0"], ["valve.mode", "flow.in1"], ["flow.out", "h.in"],
                    ["h.out", "valve.h"]],
    "record": ["h.out"]})json");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(mode_time(run, "EMPTY") == doctest::Approx(t_empty).epsilon(1e-7));
  const std::size_t h = run.column("h.out");
  for (const Row& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[h] >= 0);
    if (row.t > 1 && row.t < t_empty) {
      const double root = 1 - c * (row.t - 1) / 2;
      CHECK(std::abs(row.values[h] - root * root) <= 1e-6);
    }
  }
}

TEST_CASE("a derivative that is NaN on the solution stops the run naming the actor, its state and the time") {
  // x' = sqrt(x - 2) from x = 1: not finite at the initial state itself.
  const Run run = run_model(R"json({"ctde": 1, "name": "nan_start", "director": {"stop_time": 1},
    "actors": [{"name": "src", "type": "ModalModel", "params": {
      "outputs": {"x": "x"}, "states": {"x": 1}, "modes": {"ONLY": {"der": {"x": "sqrt(x - 2)"}}}}}]})json");
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "src");
  CHECK(run.result.message ==
        "at t=0 s (tick 0, microstep 0): src: the derivative of its state 0 (= 1) is nan at t = 0 s, on the "
        "solution (at the step's start)");
  CHECK(run.lines.back()["kind"] == "run_end");
  CHECK(run.lines.back()["status"] == "error");
}

TEST_CASE(
    "a derivative that is NaN on a part's solution after its event is reported there in a split run too") {
  // src: x' = 1 from 0 until x = 1, then x' = sqrt(-x): not finite at the
  // state the event leaves. other: y' = -y, independent of it, so a split
  // run gives src a part (and an integrator) of its own. The restarted
  // step's first derivative is at that part's solution, not at a trial
  // stage, in both runs.
  const auto model = [](const std::string& subsystems) {
    return R"json({"ctde": 1, "name": "nan_after_event", "director": {"stop_time": 3, "subsystems": ")json" +
           subsystems + R"json("},
      "actors": [
        {"name": "other", "type": "ModalModel", "params": {
          "outputs": {"y": "y"}, "states": {"y": 1}, "modes": {"ONLY": {"der": {"y": "-y"}}}}},
        {"name": "src", "type": "ModalModel", "params": {
          "outputs": {"x": "x"}, "states": {"x": 0}, "initial": "UP",
          "modes": {"UP": {"der": {"x": 1}}, "DOWN": {"der": {"x": "sqrt(-x)"}}},
          "transitions": [{"path": ["UP", "DOWN"], "guard": "x >= 1"}]}}]})json";
  };
  const Run split = run_model(model("split"));
  const Run joined = run_model(model("joined"));
  CHECK(split.result.stats.steps != joined.result.stats.steps);  // other's steps are not cut at src's event
  for (const Run* run : {&split, &joined}) {
    REQUIRE(run->result.status == RunStatus::kError);
    CHECK(run->result.actor == "src");
    CHECK(run->result.time == doctest::Approx(1.0).epsilon(1e-9));
    CHECK(run->result.message.find("src: the derivative of its state 0 (= 1") != std::string::npos);
    CHECK(run->result.message.find(" is nan at t = 1") != std::string::npos);
    CHECK(run->result.message.find(", on the solution (at the step's start)") != std::string::npos);
    CHECK(run->result.message.find("trial stage") == std::string::npos);
  }
}

TEST_CASE("a solution that leaves the derivative's domain stops the run where it leaves it") {
  // x' = sqrt(1 - t): x = 1 + 2/3 (1 - (1 - t)^1.5) up to t = 1, and no derivative after.
  const Run run = run_model(R"json({"ctde": 1, "name": "nan_later", "director": {"stop_time": 2},
    "actors": [{"name": "src", "type": "ModalModel", "params": {
      "outputs": {"x": "x"}, "states": {"x": 1}, "modes": {"ONLY": {"der": {"x": "sqrt(1 - t)"}}}}}],
    "record": ["src.x"]})json");
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "src");
  CHECK(run.result.time == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(run.result.message.find("src: the derivative of its state 0 (= ") != std::string::npos);
  CHECK(run.result.message.find(" is nan at t = 1") != std::string::npos);
  CHECK(run.result.message.find("at a trial stage of a step from t = ") != std::string::npos);
  const std::size_t x = run.column("src.x");
  CHECK(run.rows.back().values[x] == doctest::Approx(1 + 2.0 / 3.0).epsilon(1e-6));
}

TEST_CASE("a finite-time blow-up stops the run with the state whose derivative grows without bound named") {
  // x' = 1 / (0.5 - x), x(0) = 0: (0.5 - x)^2 = 0.25 - 2 t, so x' grows without
  // bound as t nears 0.125, where x reaches 0.5. No method steps across it.
  const Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "x", "type": "Integrator", "params": {"initial": 0}},
               {"name": "f", "type": "Expression", "params": {"expr": "1 / (0.5 - in0)"}},
               {"name": "y", "type": "Integrator", "params": {"initial": 3}},
               {"name": "slow", "type": "Constant", "params": {"value": 0.1}}],
    "connections": [["x.out", "f.in0"], ["f.out", "x.in"], ["slow.out", "y.in"]]})j");
  REQUIRE(run.result.status == RunStatus::kError);
  const std::string& message = run.result.message;
  CAPTURE(message);
  CHECK(message.find("the ODE solver failed (too_much_work): 1000000 steps (max_steps)") !=
        std::string::npos);
  const std::string named = "its fastest state is x = ";
  const std::size_t at = message.find(named);
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(message.substr(at + named.size())) == doctest::Approx(0.5).epsilon(1e-3));
  const std::size_t t_at = message.find("at t = ");
  REQUIRE(t_at != std::string::npos);
  CHECK(std::stod(message.substr(t_at + 7)) == doctest::Approx(0.125).epsilon(1e-2));
  CHECK(message.find("a finite-time blow-up") != std::string::npos);
  CHECK(message.find("try solver \"bdf\"") != std::string::npos);
}
