// Co-Simulation FMUs (actors/fmi/, docs/fmi.md "Co-Simulation"): discrete
// actors whose outputs are tokens at the communication points and whose
// inputs read, there, a continuous signal's value or a discrete signal's
// latest token; loops through them follow the discrete rules.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_helpers.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;

namespace {

/// The stair (count k at k * 0.1 s) in co-simulation every 0.05 s, with `more` actors and connections.
test::Run stair_cs(const std::string& more_actors, const std::string& connections,
                   const std::string& record) {
  return test::run_model(test::fmu_model("stair",
                                         R"("interface": "co-simulation", "communication_step": 0.05)",
                                         R"("stop_time": 0.95)", record, more_actors, connections));
}

/// The `event` lines of actor a's output `port`: (tick, microstep, value).
struct Token {
  std::int64_t tick;
  int n;
  double value;
};
std::vector<Token> tokens(const test::Run& run, const std::string& port) {
  std::vector<Token> found;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "a" && line["port"] == port)
      found.push_back(
          {line["tick"].get<std::int64_t>(), line["n"].get<int>(), line["value"][0].get<double>()});
  }
  return found;
}

}  // namespace

TEST_CASE("a co-simulation FMU's outputs are tokens at exactly each communication point, agreeing with ME") {
  const auto me = test::run_model(test::fmu_model("stair", "", R"("stop_time": 0.95)", R"("a.count")"));
  const auto cs = stair_cs("", "", R"("a.count")");
  REQUIRE_MESSAGE(cs.result.status == RunStatus::kOk, cs.result.message);
  // One token per point t = j * 0.05 (tick j * 5e10 at 1e-12 s), at microstep 0, the start included:
  // the count of ticks k * 0.1 <= t.
  const std::vector<Token> sent = tokens(cs, "count");
  REQUIRE(sent.size() == 20);
  for (std::size_t j = 0; j < sent.size(); ++j) {
    CAPTURE(j);
    CHECK(sent[j].tick == static_cast<std::int64_t>(j) * 50000000000);
    CHECK(sent[j].n == 0);
    CHECK(sent[j].value == static_cast<double>(j / 2));
  }
  // In the results: on the row (t, 1) after the point's microstep, absent on every other row.
  int points = 0;
  for (const auto& row : cs.rows) {
    if (std::isnan(row.values[0])) continue;
    CAPTURE(row.t);
    CHECK(row.n == 1);
    const int j = static_cast<int>(std::lround(row.t / 0.05));
    CHECK(std::fabs(row.t - j * 0.05) < 1e-12);
    double from_me = -1;
    for (const auto& m : me.rows) {
      if (m.t <= row.t + 1e-12) from_me = m.values[0];
    }
    CHECK(row.values[0] == from_me);
    ++points;
  }
  CHECK(points == 20);
}

TEST_CASE("a co-simulation FMU drives a Counter and an Accumulator directly") {
  const auto run = stair_cs(R"(, {"name": "c", "type": "Counter"}, {"name": "s", "type": "Accumulator"})",
                            R"(["a.count", "c.in"], ["a.count", "s.in"])", R"("c.out", "s.out")");
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  double counted = 0;
  double sum = 0;
  for (const auto& row : run.rows) {
    if (!std::isnan(row.values[0])) counted = row.values[0];
    if (!std::isnan(row.values[1])) sum = row.values[1];
  }
  CHECK(counted == 20);  // one token per communication point, 0 to 0.95
  CHECK(sum == 90);      // the sum over j = 0..19 of floor(j / 2)
}

TEST_CASE("a co-simulation FMU's inputs read a continuous value or the latest discrete token at each point") {
  const std::string step = R"("interface": "co-simulation", "communication_step": 0.1, "start": {"k": 3})";
  const std::string constants = R"(, {"name": "n", "type": "Constant", "params": {"value": 4}},
                                     {"name": "on", "type": "Constant", "params": {"value": 1}})";
  const std::string wiring = R"(["n.out", "a.n"], ["on.out", "a.on"])";
  // u = t (a Ramp): y = 3 t + 4 at t_k.
  const auto ramp = test::run_model(
      test::fmu_model("feedthrough", step, R"("stop_time": 1)", "",
                      constants + R"(, {"name": "t", "type": "Ramp", "params": {"slope": 1}})",
                      wiring + R"(, ["t.out", "a.u"])"));
  REQUIRE_MESSAGE(ramp.result.status == RunStatus::kOk, ramp.result.message);
  const std::vector<Token> y = tokens(ramp, "y");
  REQUIRE(y.size() == 11);
  for (std::size_t k = 0; k < y.size(); ++k)
    CHECK(y[k].value == doctest::Approx(0.3 * static_cast<double>(k) + 4));
  // u = the number of clock ticks at 0, 0.25, 0.5...: a discrete input holds its latest token between them.
  const std::string counted =
      constants + R"(, {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.25}},
                                             {"name": "c", "type": "Counter"})";
  const std::string counted_wiring = wiring + R"(, ["clock.out", "c.in"], ["c.out", "a.u"])";
  const auto clocked =
      test::run_model(test::fmu_model("feedthrough", step, R"("stop_time": 1)", "", counted, counted_wiring));
  REQUIRE_MESSAGE(clocked.result.status == RunStatus::kOk, clocked.result.message);
  const std::vector<Token> held = tokens(clocked, "y");
  REQUIRE(held.size() == 11);
  for (std::size_t k = 0; k < held.size(); ++k) {
    CAPTURE(k);
    const double ticks_so_far = std::floor(static_cast<double>(k) * 0.1 / 0.25 + 1e-9) + 1;
    CHECK(held[k].value == 3 * ticks_so_far + 4);
    CHECK(held[k].n == 0);  // the clock, the counter and the FMU fire in that order at one microstep
  }
  // ctde validate: a discrete actor; u takes its driver's kind, the constants stay constants.
  const std::filesystem::path model = test::scratch_file("ctde_fmi_cosim_test", "kinds.json");
  std::ofstream(model) << test::fmu_model("feedthrough", step, R"("stop_time": 1)", "", counted,
                                          counted_wiring);
  const auto validated = test::run_cli("validate " + model.string());
  REQUIRE_MESSAGE(validated.status == 0, validated.output);
  CHECK_MESSAGE(
      validated.output.find("discrete    u[1]D n[1]K on[1]K -> y[1]D n_out[1]D") != std::string::npos,
      validated.output);
}

TEST_CASE("a loop through a co-simulation FMU's feedthrough is a causality loop; a TimeDelay breaks it") {
  const std::string cs = R"("interface": "co-simulation", "communication_step": 0.1)";
  const std::string gain = R"(, {"name": "g", "type": "Gain", "params": {"k": 0.5}})";
  CHECK(test::model_file_error(test::fmu_model("two_paths", cs, R"("stop_time": 1)", "", gain,
                                               R"(["a.y1", "g.in"], ["g.out", "a.u1"])"))
            .find("causality loop: a zero-delay cycle among discrete actors: a -> g -> a") !=
        std::string::npos);
  // A discrete actor fires once per microstep: even through y2, which does not depend on u1 (Model
  // Exchange evaluates the FMU twice there), the loop is a causality loop.
  CHECK(test::model_file_error(test::fmu_model("two_paths", cs, R"("stop_time": 1)", "", gain,
                                               R"(["a.y2", "g.in"], ["g.out", "a.u1"])"))
            .find("causality loop: a zero-delay cycle among discrete actors: a -> g -> a") !=
        std::string::npos);
  // Through a TimeDelay of 0: y2 reaches u1 at the next microstep of the same point, and y1 = 2 u1 is
  // sent again there, so the last y1 of each point is 2 y2 of that point.
  const auto run =
      test::run_model(test::fmu_model("two_paths", cs, R"("stop_time": 1)", "",
                                      R"(, {"name": "d", "type": "TimeDelay", "params": {"delay": 0}})",
                                      R"(["a.y2", "d.in"], ["d.out", "a.u1"])"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<Token> y1 = tokens(run, "y1");
  const std::vector<Token> y2 = tokens(run, "y2");
  REQUIRE(y2.size() == 11);
  REQUIRE(y1.size() == 22);  // at (t_k, 0) from the previous u1, at a later microstep from the new one
  for (std::size_t k = 0; k < y2.size(); ++k) {
    CAPTURE(k);
    CHECK(y2[k].value == doctest::Approx(std::pow(1 - 0.1 / 100, 100.0 * static_cast<double>(k))));  // Euler
    CHECK(y1[2 * k + 1].tick == y2[k].tick);
    CHECK(y1[2 * k + 1].n > 0);
    CHECK(y1[2 * k + 1].value == 2 * y2[k].value);
  }
}

TEST_CASE("a co-simulation communication step must be a whole number of ticks (ctde validate)") {
  const std::filesystem::path model = test::scratch_file("ctde_fmi_cosim_test", "step_ticks.json");
  std::ofstream(model) << test::fmu_model(
      "stair", R"("interface": "co-simulation", "communication_step": 1.5e-12)", R"("stop_time": 1)", "");
  const auto result = test::run_cli("validate " + model.string());
  CHECK(result.status == 2);
  CHECK_MESSAGE(result.output.find("actor 'a' (FMU), parameter 'communication_step'") != std::string::npos,
                result.output);
}

TEST_CASE("co-simulation of the FMI 3.0 stair agrees with its FMI 2.0 twin, terminate included") {
  const std::string params =
      R"("interface": "co-simulation", "communication_step": 0.05, "start": {"last": 5})";
  const auto fmi3 =
      test::run_model(test::fmu_model("stair3", params, R"("stop_time": 1)", R"("a.count", "a.level")"));
  const auto fmi2 =
      test::run_model(test::fmu_model("stair", params, R"("stop_time": 1)", R"("a.count", "a.level")"));
  REQUIRE(fmi3.result.status == RunStatus::kStopped);
  REQUIRE(fmi2.result.status == RunStatus::kStopped);
  CHECK(fmi3.csv == fmi2.csv);
  // The step [0.45, 0.5] reaches count 5 = last at t = 0.5: the FMU terminates there; the run stops at
  // 0.5 without a token, the last one being that of 0.45.
  CHECK(fmi3.result.time == doctest::Approx(0.5));
  const std::vector<Token> sent = tokens(fmi3, "count");
  REQUIRE(sent.size() == 10);
  CHECK(sent.back().tick == 450000000000);
  CHECK(sent.back().value == 4);
}
