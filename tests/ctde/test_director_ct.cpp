// The continuous phase against analytic solutions.
#include <doctest/doctest.h>

#include <cmath>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::run_model;

TEST_CASE("x' = 1 - x follows 1 - exp(-t) at every recorded row") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 5, "rtol": 1e-10, "atol": 1e-12,
                                                         "output_interval": 0.1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "err", "type": "Sum", "params": {"signs": "+-"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["one.out", "err.in0"], ["x.out", "err.in1"], ["err.out", "x.in"]],
    "record": ["x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(run.rows.size() > 50);  // interval rows and step ends
  int interval_rows = 0;
  for (const auto& row : run.rows) {
    CHECK(row.values[0] == doctest::Approx(1 - std::exp(-row.t)).epsilon(1e-8));
    const double k = row.t / 0.1;
    if (std::fabs(k - std::round(k)) < 1e-9) ++interval_rows;
  }
  CHECK(interval_rows >= 50);
  CHECK(run.rows.front().t == 0.0);
  CHECK(run.rows.back().t == 5.0);
  CHECK(run.result.stats.steps > 0);
}

TEST_CASE("an integrator with impulses jumps exactly at the impulse times, both sides recorded") {
  // x = t + 2 [t >= 2] - 1.3 [t >= 4.3]
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 6, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "kicks", "type": "DiscreteClock",
                "params": {"period": "inf", "offsets": [2, 4.3], "values": [2, -1.3]}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["one.out", "x.in"], ["kicks.out", "x.impulse"]],
    "record": ["x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto exact = [](double t, bool after) {
    return t + (t > 2 || (t == 2 && after) ? 2 : 0) - (t > 4.3 || (t == 4.3 && after) ? 1.3 : 0);
  };
  // At a jump time the first row (microstep 0) is the left side and the last
  // row (the highest microstep) the right side.
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    const auto& row = run.rows[i];
    const bool last_at_t = i + 1 == run.rows.size() || run.rows[i + 1].t != row.t;
    if (row.n == 0 || last_at_t) {
      CHECK(row.values[0] == doctest::Approx(exact(row.t, row.n > 0 && last_at_t)).epsilon(1e-9));
    }
  }
  const auto sides = [&](double t) {
    std::vector<double> values;
    for (const auto& row : run.rows) {
      if (row.t == t) values.push_back(row.values[0]);
    }
    return values;
  };
  REQUIRE(sides(2.0).size() >= 2);
  CHECK(sides(2.0).front() == doctest::Approx(2.0));
  CHECK(sides(2.0).back() == doctest::Approx(4.0));
  REQUIRE(sides(4.3).size() >= 2);
  CHECK(sides(4.3).front() == doctest::Approx(6.3));
  CHECK(sides(4.3).back() == doctest::Approx(5.0));
  int resets = 0;
  for (const auto& line : run.lines) resets += line["kind"] == "reset" ? 1 : 0;
  CHECK(resets == 2);
}

TEST_CASE("a zero-order hold of a two-offset clock integrates to the exact staircase area") {
  // Tokens 3 at 0.25 + k and 5 at 0.5 + k; hold starts at 0. Over [0, 2]:
  // 0 on [0, .25), 3 on [.25, .5), 5 on [.5, 1.25), 3 on [1.25, 1.5), 5 on [1.5, 2].
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "clock", "type": "DiscreteClock",
                "params": {"period": 1, "offsets": [0.25, 0.5], "values": [3, 5]}},
               {"name": "hold", "type": "ZeroOrderHold"},
               {"name": "area", "type": "Integrator"}],
    "connections": [["clock.out", "hold.in"], ["hold.out", "area.in"]],
    "record": ["hold.out", "area.out", "clock.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const double area = 0.25 * 3 + 0.75 * 5 + 0.25 * 3 + 0.5 * 5;
  CHECK(run.rows.back().values[run.column("area.out")] == doctest::Approx(area).epsilon(1e-10));
  // At 0.25 the hold's row before the event shows 0 and the row after shows 3.
  std::vector<double> at_quarter;
  for (const auto& row : run.rows) {
    if (row.t == 0.25) at_quarter.push_back(row.values[run.column("hold.out")]);
  }
  REQUIRE(at_quarter.size() >= 2);
  CHECK(at_quarter.front() == 0.0);
  CHECK(at_quarter.back() == 3.0);
  // The clock's column holds its token only on its event rows.
  int tokens = 0;
  for (const auto& row : run.rows) tokens += std::isnan(row.values[run.column("clock.out")]) ? 0 : 1;
  CHECK(tokens == 4);
}

TEST_CASE("a spring-mass StateSpace step response matches the underdamped closed form") {
  // m x'' + c x' + k x = u, u = step(0), m = 1, c = 0.4, k = 4.
  const auto run = run_model(R"({"ctde": 1, "parameters": {"m": 1, "c": 0.4, "k": 4},
    "director": {"stop_time": 10, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25},
    "actors": [{"name": "force", "type": "Step", "params": {"time": 0}},
               {"name": "spring", "type": "StateSpace",
                "params": {"A": [[0, 1], ["-k/m", "-c/m"]], "B": [[0], ["1/m"]], "C": [[1, 0]]}}],
    "connections": [["force.out", "spring.in"]],
    "record": ["spring.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const double wn = 2.0;
  const double zeta = 0.4 / (2 * wn);
  const double wd = wn * std::sqrt(1 - zeta * zeta);
  for (const auto& row : run.rows) {
    const double t = row.t;
    const double exact =
        0.25 * (1 - std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta * wn / wd * std::sin(wd * t)));
    CHECK(row.values[0] == doctest::Approx(exact).epsilon(1e-7).scale(1));
  }
}

TEST_CASE("a sampled-data PI loop on a first-order plant follows the exact discrete recurrence") {
  // Plant x' = -a x + b u, ZOH input, period T; PI: u_k = Kp e_k + Ki T sum e_j.
  const double a = 1.5;
  const double b = 2.0;
  const double T = 0.2;
  const double kp = 0.8;
  const double ki = 1.1;
  const double r = 1.0;
  const auto run = run_model(R"({"ctde": 1,
    "parameters": {"a": 1.5, "b": 2, "T": 0.2, "kp": 0.8, "ki": 1.1, "r": 1},
    "director": {"stop_time": 4, "rtol": 1e-11, "atol": 1e-13},
    "actors": [
      {"name": "ref", "type": "Constant", "params": {"value": "r"}},
      {"name": "error", "type": "Sum", "params": {"signs": "+-"}},
      {"name": "sample", "type": "PeriodicSampler", "params": {"period": "T"}},
      {"name": "sum_e", "type": "Accumulator"},
      {"name": "integral", "type": "Gain", "params": {"k": "ki * T"}},
      {"name": "proportional", "type": "Gain", "params": {"k": "kp"}},
      {"name": "u", "type": "Sum", "params": {"signs": "++"}},
      {"name": "hold", "type": "ZeroOrderHold"},
      {"name": "bu", "type": "Gain", "params": {"k": "b"}},
      {"name": "ax", "type": "Gain", "params": {"k": "-a"}},
      {"name": "dx", "type": "Sum", "params": {"signs": "++"}},
      {"name": "x", "type": "Integrator"}],
    "connections": [
      ["ref.out", "error.in0"], ["x.out", "error.in1"], ["error.out", "sample.in"],
      ["sample.out", "sum_e.in"], ["sum_e.out", "integral.in"], ["sample.out", "proportional.in"],
      ["integral.out", "u.in0"], ["proportional.out", "u.in1"], ["u.out", "hold.in"],
      ["hold.out", "bu.in"], ["x.out", "ax.in"], ["bu.out", "dx.in0"], ["ax.out", "dx.in1"],
      ["dx.out", "x.in"]],
    "record": ["x.out", "u.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const double phi = std::exp(-a * T);
  const double gamma = b / a * (1 - phi);
  double x = 0;
  double sum = 0;
  int checked = 0;
  for (int k = 0; k <= 20; ++k) {
    const double t = k * T;
    // The row at (t, 0): the plant output before the sampling event.
    const double expected_x = x;
    for (const auto& row : run.rows) {
      if (std::fabs(row.t - t) < 1e-12 && row.n == 0) {
        CHECK(row.values[run.column("x.out")] == doctest::Approx(expected_x).epsilon(1e-8));
        ++checked;
        break;
      }
    }
    const double e = r - x;
    sum += e;
    const double u = kp * e + ki * T * sum;
    x = phi * x + gamma * u;
  }
  CHECK(checked == 21);
}

TEST_CASE("a TimeTable with a jump is integrated exactly") {
  // v: 0 -> 1 linearly on [0, 1], jumps to 3 at 1, stays 3 until 2.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2, "rtol": 1e-11, "atol": 1e-13},
    "actors": [{"name": "table", "type": "TimeTable", "params": {"points": [[0, 0], [1, 1], [1, 3], [2, 3]]}},
               {"name": "area", "type": "Integrator"}],
    "connections": [["table.out", "area.in"]],
    "record": ["table.out", "area.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(run.rows.back().values[run.column("area.out")] == doctest::Approx(3.5).epsilon(1e-11));
  std::vector<double> at_one;
  for (const auto& row : run.rows) {
    if (row.t == 1.0) at_one.push_back(row.values[run.column("table.out")]);
  }
  REQUIRE(at_one.size() >= 2);
  CHECK(at_one.front() == doctest::Approx(1.0));
  CHECK(at_one.back() == 3.0);
}

namespace {
const char* const kRobertson = R"({"ctde": 1,
  "director": {"stop_time": 40, "solver": "SOLVER", "rtol": 1e-6, "atol": 1e-10},
  "actors": [
    {"name": "y1", "type": "Integrator", "params": {"initial": 1}},
    {"name": "y2", "type": "Integrator", "params": {"initial": 0}},
    {"name": "y3", "type": "Integrator", "params": {"initial": 0}},
    {"name": "f1", "type": "Expression", "params": {"inputs": 3, "expr": "-0.04*in0 + 1e4*in1*in2"}},
    {"name": "f2", "type": "Expression",
     "params": {"inputs": 3, "expr": "0.04*in0 - 1e4*in1*in2 - 3e7*in1*in1"}},
    {"name": "f3", "type": "Expression", "params": {"inputs": 3, "expr": "3e7*in1*in1"}}],
  "connections": [
    ["y1.out", "f1.in0"], ["y2.out", "f1.in1"], ["y3.out", "f1.in2"],
    ["y1.out", "f2.in0"], ["y2.out", "f2.in1"], ["y3.out", "f2.in2"],
    ["y1.out", "f3.in0"], ["y2.out", "f3.in1"], ["y3.out", "f3.in2"],
    ["f1.out", "y1.in"], ["f2.out", "y2.in"], ["f3.out", "y3.in"]],
  "record": ["y1.out", "y2.out", "y3.out"]})";

ctde::test::Run robertson(const std::string& solver) {
  std::string text = kRobertson;
  text.replace(text.find("SOLVER"), 6, solver);
  return run_model(text);
}
}  // namespace

TEST_CASE("the stiff Robertson problem: dirk needs orders of magnitude fewer steps than erk45") {
  const auto implicit = robertson("dirk");
  const auto explicit_ = robertson("erk45");
  REQUIRE(implicit.result.status == RunStatus::kOk);
  REQUIRE(explicit_.result.status == RunStatus::kOk);
  // The reference at t = 40 (Hairer and Wanner's, to 10 digits); global
  // errors a few times the run's per-step tolerances (rtol 1e-6, atol 1e-10:
  // y2, about 1e-5, is held to its atol, measured 2.1e-9 after 127 steps),
  // and the sum conserved (f1 + f2 + f3 = 0).
  const auto& end = implicit.rows.back().values;
  CHECK(std::abs(end[0] - 0.7158270687) <= 2e-5);
  CHECK(std::abs(end[1] - 9.185534765e-6) <= 5e-9);
  CHECK(std::abs(end[2] - 0.2841637457) <= 2e-5);
  CHECK(std::abs(end[0] + end[1] + end[2] - 1.0) <= 1e-10);
  CHECK(explicit_.result.stats.steps > 50 * implicit.result.stats.steps);
}

TEST_CASE("a NaN in a derivative stops the run naming the actor and the time, keeping the results") {
  const auto run = run_model(R"m({"ctde": 1, "director": {"stop_time": 3},
    "actors": [{"name": "clock", "type": "Clock"},
               {"name": "bad", "type": "Expression", "params": {"inputs": 0, "expr": "t < 1 ? 1 : sqrt(-1)"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["bad.out", "x.in"]],
    "record": ["x.out"]})m");
  CHECK(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "bad");
  CHECK(run.result.message.find("bad") != std::string::npos);
  CHECK(run.rows.size() >= 2);  // the rows before the failure are kept
  CHECK(run.rows.back().t < 1.5);
  CHECK(run.lines.back()["status"] == "error");
}

TEST_CASE("atol may be given per state, and a list of the wrong length is an error") {
  const std::string model = R"({"ctde": 1, "director": {"stop_time": 1, "atol": ATOL},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": [1, 2]}},
               {"name": "x", "type": "Integrator", "params": {"initial": [0, 0]}}],
    "connections": [["one.out", "x.in"]], "record": ["x.out"]})";
  const auto with = [&](const std::string& atol) {
    std::string text = model;
    text.replace(text.find("ATOL"), 4, atol);
    return run_model(text);
  };
  const auto good = with("[1e-10, 1e-8]");
  REQUIRE(good.result.status == RunStatus::kOk);
  CHECK(good.rows.back().values[1] == doctest::Approx(2.0).epsilon(1e-9));
  CHECK_THROWS_WITH_AS((void)with("[1e-10, 1e-8, 1e-6]"),
                       doctest::Contains("lists 3 tolerances but the model has 2 continuous states"),
                       ModelError);
  CHECK_THROWS_WITH_AS((void)with("[1e-10, -1]"), doctest::Contains("'atol' must be a finite number > 0"),
                       ModelError);
}
