// The continuous actors (actors/continuous/), called directly through
// hand-made contexts (no director, no solver), and in small runs against
// their closed forms.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "actors/continuous/integrator.hpp"
#include "actors/continuous/state_space.hpp"
#include "actors/continuous/transfer_function.hpp"
#include "support/actor_bench.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("Integrator: initial states, derivatives, reset then impulse") {
  Integrator integrator("x");
  integrator.set_parameter("initial", Values{1, 2});
  Bench bench(integrator, {2, 2, 2}, {2});
  CHECK(integrator.state_size() == 2);
  CHECK_FALSE(integrator.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, 2});
  CHECK(bench.out() == Values{1, 2});

  bench.set_input(0, {3, -4});
  CHECK(bench.derivatives() == Values{3, -4});

  bench.set_states({1.5, 2.5});  // as the solver moved them
  CHECK(bench.evaluate(0.5) == Values{1.5, 2.5});

  const int changes = bench.director.states_changes;
  bench.fire(kSecond);  // no token: nothing changes
  CHECK(bench.director.states_changes == changes);
  CHECK(bench.states() == Values{1.5, 2.5});

  bench.give_token(1, {10, 20});  // reset
  bench.give_token(2, {1, -1});   // impulse at the same tag: after the reset
  bench.fire(kSecond);
  CHECK(bench.director.states_changes == changes + 1);
  CHECK(bench.states() == Values{11, 19});
  CHECK(bench.out() == Values{11, 19});

  bench.give_token(2, {0.5, 0.5});
  bench.fire(kSecond, 1);
  CHECK(bench.states() == Values{11.5, 19.5});

  bench.give_token(1, {-3, 0});
  bench.fire(2 * kSecond);
  CHECK(bench.states() == Values{-3, 0});
  CHECK(bench.director.emitted.empty());
  CHECK(bench.director.requested.empty());
}

TEST_CASE("Integrator: a scalar initial value gives one state") {
  Integrator integrator("x");
  integrator.set_parameter("initial", 5.0);
  Bench bench(integrator, {1, 1, 1}, {1});
  CHECK(integrator.state_size() == 1);
  bench.initialize();
  CHECK(bench.states() == Values{5});
  bench.set_input(0, {-2});
  CHECK(bench.derivatives() == Values{-2});
}

TEST_CASE("StateSpace: outputs and derivatives of a 2-state system") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {0, 1, -2, -3}});
  ss.set_parameter("B", Matrix{2, 1, {0, 1}});
  ss.set_parameter("C", Matrix{1, 2, {1, 2}});
  ss.set_parameter("D", Matrix{1, 1, {0.5}});
  ss.set_parameter("initial", Values{1, -1});
  Bench bench(ss, {1}, {1});
  CHECK(ss.state_size() == 2);
  CHECK(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, -1});
  bench.set_input(0, {4});
  // y = C x + D u = 1 - 2 + 2; x' = A x + B u = (-1, -2 + 3 + 4)
  check_close(bench.evaluate(0.0), {1});
  check_close(bench.derivatives(), {-1, 5});

  bench.set_states({0.5, 2});
  bench.set_input(0, {-2});
  check_close(bench.evaluate(0.1), {0.5 + 4 - 1});
  check_close(bench.derivatives(), {2, -1 - 6 - 2});
}

TEST_CASE("StateSpace: D = 0 (the scalar) means no feedthrough; initial broadcasts") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {-1, 0, 1, -2}});
  ss.set_parameter("B", Matrix{2, 2, {1, 0, 0, 3}});
  ss.set_parameter("C", Matrix{2, 2, {1, 0, 3, 4}});
  ss.set_parameter("initial", 2.0);
  Bench bench(ss, {2}, {2});
  CHECK_FALSE(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{2, 2});
  // The input is not read by evaluate: a NaN there does not reach the output.
  bench.set_input(0, {std::nan(""), std::nan("")});
  check_close(bench.evaluate(0.0), {2, 14});
  bench.set_input(0, {1, -1});
  check_close(bench.derivatives(), {-2 + 1, 2 - 4 - 3});
}

TEST_CASE("StateSpace: six states, two inputs, three outputs give the row-by-row sums exactly") {
  // Two blocks of rows, the second partial (actors/continuous/row_blocks.hpp):
  // the same sums, in the same order, as a plain loop over the rows.
  constexpr std::size_t kN = 6, kM = 2, kP = 3;
  std::vector<double> a(kN * kN), b(kN * kM), c(kP * kN);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = std::pow(-1.7, static_cast<double>(i % 13)) / static_cast<double>(i + 1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 3.0 / static_cast<double>(i + 2);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = std::pow(1.3, static_cast<double>(i)) - 2.0;
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{kN, kN, a});
  ss.set_parameter("B", Matrix{kN, kM, b});
  ss.set_parameter("C", Matrix{kP, kN, c});
  Bench bench(ss, {kM}, {kP});
  bench.initialize();
  const Values x{0.1, -2.5, 1e3, 7.25, -1e-3, 0.333};
  const Values u{1.5, -0.75};
  bench.set_states(x);
  bench.set_input(0, u);
  Values y(kP), dx(kN);
  for (std::size_t r = 0; r < kP; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < kN; ++j) sum += c[r * kN + j] * x[j];
    y[r] = sum;
  }
  for (std::size_t r = 0; r < kN; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < kN; ++j) sum += a[r * kN + j] * x[j];
    for (std::size_t k = 0; k < kM; ++k) sum += b[r * kM + k] * u[k];
    dx[r] = sum;
  }
  CHECK(bench.evaluate(0.0) == y);
  CHECK(bench.derivatives() == dx);
}

TEST_CASE("TransferFunction: 1/(s^2 + 3s + 2) in controllable canonical form") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{1});
  tf.set_parameter("den", Values{1, 3, 2});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{0, 0});
  CHECK(bench.out() == Values{0});

  // x1 = z, x2 = z': x1' = x2, x2' = u - 2 x1 - 3 x2; y = x1.
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 2 - 1 + 3});
  check_close(bench.evaluate(0.0), {0.5});
  // The steady state for u = 2 is x = (1, 0): y = H(0) u = 1.
  bench.set_states({1, 0});
  check_close(bench.derivatives(), {0, 0});
  check_close(bench.evaluate(0.0), {1});
}

TEST_CASE("TransferFunction: a proper one has a direct term; normalised by den[0]") {
  // (2s^2 + 3s + 6) / (2s^2 + 6s + 4) = 1 + (-1.5 s + 1) / (s^2 + 3s + 2)
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{2, 3, 6});
  tf.set_parameter("den", Values{2, 6, 4});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 4});
  check_close(bench.evaluate(0.0), {2 + 1.5 + 0.5});  // u - 1.5 x2 + x1
  // Steady state for u = 2: x = (1, 0), y = H(0) u = 1.5 * 2.
  bench.set_states({1, 0});
  check_close(bench.evaluate(0.0), {3});
}

TEST_CASE("TransferFunction: a first-order lag with leading zeros in num") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{0, 0, 4});
  tf.set_parameter("den", Values{2, 1});  // 4 / (2s + 1) = 2 / (s + 0.5)
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 1);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({3});
  bench.set_input(0, {1});
  check_close(bench.derivatives(), {1 - 1.5});
  check_close(bench.evaluate(0.0), {6});
}

TEST_CASE("PID on a unit step error: y = kp + ki t + (kd / tf) exp(-t / tf)") {
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.05},
    "actors": [{"name": "e", "type": "Constant", "params": {"value": 1}},
               {"name": "pid", "type": "PID", "params": {"kp": 2, "ki": 3, "kd": 0.5, "tf": 0.1}}],
    "connections": [["e.out", "pid.in"]], "record": ["pid.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  int checked = 0;
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[run.column("pid.out")] ==
          doctest::Approx(2 + 3 * row.t + 5 * std::exp(-row.t / 0.1)).epsilon(1e-7));
    ++checked;
  }
  CHECK(checked >= 20);
}

TEST_CASE("PID: the closed loop of a pure integrator plant under PI control settles on the reference") {
  // x' = u, u = kp (r - x) + ki z, z' = r - x, kp = 3, ki = 2, r = 1, x(0) = 0:
  // X(s) = (3 s + 2) / (s (s + 1) (s + 2)), so x(t) = 1 + e^-t - 2 e^-2t.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 4, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25},
    "actors": [{"name": "r", "type": "Constant", "params": {"value": 1}},
               {"name": "error", "type": "Sum", "params": {"signs": "+-"}},
               {"name": "pid", "type": "PID", "params": {"kp": 3, "ki": 2}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["r.out", "error.in0"], ["x.out", "error.in1"], ["error.out", "pid.in"],
                    ["pid.out", "x.in"]], "record": ["x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    const double expected = 1 + std::exp(-row.t) - 2 * std::exp(-2 * row.t);
    CHECK(row.values[run.column("x.out")] == doctest::Approx(expected).epsilon(1e-7));
  }
}

TEST_CASE("Derivative of a ramp: y = slope (1 - exp(-t / tau))") {
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 0.1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.005},
    "actors": [{"name": "u", "type": "Ramp", "params": {"slope": 2}},
               {"name": "d", "type": "Derivative", "params": {"time_constant": 0.01}}],
    "connections": [["u.out", "d.in"]], "record": ["d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[run.column("d.out")] ==
          doctest::Approx(2 * (1 - std::exp(-row.t / 0.01))).epsilon(1e-7));
  }
}

TEST_CASE("PID and Derivative reject time constants that are not > 0") {
  const auto error_of = [](const std::string& actor) {
    return ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Clock"}, )" +
                                        actor + R"(], "connections": [["u.out", "a.in"]]})");
  };
  CHECK(error_of(R"({"name": "a", "type": "PID", "params": {"tf": 0}})")
            .find("actor 'a' (PID), parameter 'tf': must be a finite time constant > 0 (s), got 0") !=
        std::string::npos);
  CHECK(error_of(R"({"name": "a", "type": "Derivative", "params": {"time_constant": -1}})")
            .find("actor 'a' (Derivative), parameter 'time_constant': must be a finite time constant > 0") !=
        std::string::npos);
}

// ---- TransportDelay

namespace {

/// The ticks of the time events of `actor` in a run's trace.
std::vector<std::int64_t> time_event_ticks(const ctde::test::Run& run, const std::string& actor) {
  std::vector<std::int64_t> ticks;
  for (const auto& line : run.lines) {
    if (line["kind"] == "time_event" && line["actor"] == actor)
      ticks.push_back(line["tick"].get<std::int64_t>());
  }
  return ticks;
}

/// The value of column `column` in the row at (t, n), NaN when there is none.
double value_at(const ctde::test::Run& run, const std::string& column, double t, int n) {
  for (const auto& row : run.rows) {
    if (row.t == t && row.n == n) return row.values[run.column(column)];
  }
  return std::nan("");
}

}  // namespace

TEST_CASE("TransportDelay of a sine: out = sin(t - 0.5) from t = 0.5, `initial` before, a jump at 0.5") {
  // No states: the history holds the sine at the steps' ends, max_step
  // apart; the cubic between them errs by about h^4 / 40 = 4e-9.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 6, "output_interval": 0.05},
    "actors": [{"name": "u", "type": "Sine", "params": {"frequency": 0.15915494309189535}},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5, "initial": 0.25,
                                                                    "max_step": 0.02}}],
    "connections": [["u.out", "d.in"]], "record": ["d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  int checked = 0;
  double worst = 0;
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CAPTURE(row.n);
    const double out = row.values[run.column("d.out")];
    if (row.t < 0.5 || (row.t == 0.5 && row.n == 0)) {
      CHECK(out == 0.25);
    } else {
      worst = std::max(worst, std::abs(out - std::sin(row.t - 0.5)));
      ++checked;
    }
  }
  CHECK(checked >= 100);
  CHECK(worst < 1e-8);
  // sin(0) = 0 differs from `initial`: the output jumps at exactly 0.5 s.
  CHECK(time_event_ticks(run, "d") == std::vector<std::int64_t>{500000000000});
  CHECK(value_at(run, "d.out", 0.5, 1) == 0.0);
}

TEST_CASE("TransportDelay of an integrated cosine, with the default max_step (a tenth of the delay)") {
  // x' = cos t, x = sin t; out = x(t - 0.5). The history holds x at the
  // solver's step ends, at most 0.05 s apart: its error is the solver's
  // plus the cubic's, about 0.05^4 / 40 = 2e-7.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 10, "rtol": 1e-6, "atol": 1e-9, "output_interval": 0.05},
    "actors": [{"name": "c", "type": "Sine", "params": {"frequency": 0.15915494309189535,
                                                        "phase": 1.5707963267948966}},
               {"name": "x", "type": "Integrator"},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5}}],
    "connections": [["c.out", "x.in"], ["x.out", "d.in"]], "record": ["x.out", "d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  double worst = 0;
  double worst_x = 0;
  for (const auto& row : run.rows) {
    worst_x = std::max(worst_x, std::abs(row.values[run.column("x.out")] - std::sin(row.t)));
    if (row.t >= 0.5)
      worst = std::max(worst, std::abs(row.values[run.column("d.out")] - std::sin(row.t - 0.5)));
  }
  CHECK(worst_x < 1e-6);
  CHECK(worst < 1e-6);  // within rtol: 1.2e-7 measured
}

TEST_CASE("TransportDelay: a Step at t = 1 comes out exactly at 1 + delay, as a time event") {
  // Integrated, the delayed step gives x = t - 1.5 from 1.5 on: the solver
  // sees the jump exactly at its tick.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 3, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "u", "type": "Step", "params": {"time": 1}},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["u.out", "d.in"], ["d.out", "x.in"]], "record": ["d.out", "x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(time_event_ticks(run, "d") == std::vector<std::int64_t>{1500000000000});
  CHECK(value_at(run, "d.out", 1.5, 0) == 0.0);  // the left limit, recorded before the event
  CHECK(value_at(run, "d.out", 1.5, 1) == 1.0);  // the right limit
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    const double expected = row.t < 1.5 || (row.t == 1.5 && row.n == 0) ? 0.0 : 1.0;
    CHECK(row.values[run.column("d.out")] == expected);
    CHECK(row.values[run.column("x.out")] == doctest::Approx(std::max(0.0, row.t - 1.5)).epsilon(1e-9));
  }
  CHECK(run.rows.back().values[run.column("x.out")] == doctest::Approx(1.5).epsilon(1e-12));
}

TEST_CASE("TransportDelay: a delay that is not a whole number of ticks puts its jumps on the nearest tick") {
  // 0.5004 s at a resolution of 1 ms is 500.4 ticks: the step at 1 s comes
  // out at tick 1500.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 2, "time_resolution": 0.001},
    "actors": [{"name": "u", "type": "Step", "params": {"time": 1, "before": 2, "after": -1}},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5004, "initial": 2}}],
    "connections": [["u.out", "d.in"]], "record": ["d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(time_event_ticks(run, "d") == std::vector<std::int64_t>{1500});
  CHECK(value_at(run, "d.out", 1.5, 0) == 2.0);
  CHECK(value_at(run, "d.out", 1.5, 1) == -1.0);
  CHECK(run.rows.back().values[run.column("d.out")] == -1.0);
}

TEST_CASE("TransportDelay in a feedback loop: x' = -x(t - 1), x = 1 on [-1, 0]") {
  // By steps: x = 1 - t on [0, 1]; x = 3/2 - 2t + t^2/2 on [1, 2];
  // x = -1/2 - (s^3/6 - s^2 + 3s/2 - 2/3), s = t - 1, on [2, 3].
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 3, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.1},
    "actors": [{"name": "x", "type": "Integrator", "params": {"initial": 1}},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 1, "initial": 1, "max_step": 0.01}},
               {"name": "minus", "type": "Gain", "params": {"k": -1}}],
    "connections": [["x.out", "d.in"], ["d.out", "minus.in"], ["minus.out", "x.in"]],
    "record": ["x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto exact = [](double t) {
    if (t <= 1) return 1 - t;
    if (t <= 2) return 1.5 - 2 * t + t * t / 2;
    const double s = t - 1;
    return -0.5 - (s * s * s / 6 - s * s + 1.5 * s - 2.0 / 3);
  };
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    // Exact on [0, 2] (the history is a line there, then a parabola);
    // on [2, 3] the cubic meets the kink of x at t = 1.
    const double tolerance = row.t <= 2 ? 1e-9 : 1e-7;
    CHECK(std::abs(row.values[run.column("x.out")] - exact(row.t)) < tolerance);
  }
  CHECK(run.rows.back().values[run.column("x.out")] == doctest::Approx(-1.0 / 6).epsilon(1e-6));
}

TEST_CASE("TransportDelay closes an algebraic loop: y = delay(1 + y) is a staircase, floor(t / d)") {
  // The Sum feeds through, the delay does not: the loop validates. Each
  // jump of the Sum comes back one delay later as the next stair.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 1.1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "s", "type": "Sum"},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.25}}],
    "connections": [["one.out", "s.in0"], ["d.out", "s.in1"], ["s.out", "d.in"]], "record": ["d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(time_event_ticks(run, "d") ==
        std::vector<std::int64_t>{250000000000, 500000000000, 750000000000, 1000000000000});
  for (int k = 1; k <= 4; ++k) {
    CAPTURE(k);
    CHECK(value_at(run, "d.out", 0.25 * k, 0) == k - 1);
    CHECK(value_at(run, "d.out", 0.25 * k, 1) == k);
  }
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    if (row.n == 0) CHECK(row.values[run.column("d.out")] == std::max(0.0, std::ceil(row.t / 0.25) - 1));
  }
}

TEST_CASE("TransportDelay: vector signals, `initial` per element or broadcast") {
  const auto run_with = [](const std::string& initial) {
    return ctde::test::run_model(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Constant", "params": {"value": [3, 4]}},
                 {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5, "initial": )" +
                                 initial + R"(}}],
      "connections": [["u.out", "d.in"]], "record": ["d.out"]})");
  };
  const auto each = run_with("[1, 2]");
  REQUIRE(each.result.status == RunStatus::kOk);
  CHECK(value_at(each, "d.out[0]", 0.5, 0) == 1.0);
  CHECK(value_at(each, "d.out[1]", 0.5, 0) == 2.0);
  CHECK(value_at(each, "d.out[0]", 0.5, 1) == 3.0);
  CHECK(value_at(each, "d.out[1]", 0.5, 1) == 4.0);
  const auto broadcast = run_with("7");
  REQUIRE(broadcast.result.status == RunStatus::kOk);
  CHECK(value_at(broadcast, "d.out[1]", 0.0, 0) == 7.0);
  CHECK(value_at(broadcast, "d.out[1]", 1.0, 0) == 4.0);
}

TEST_CASE("TransportDelay rejects a delay that is not > 0, a bad initial value or width") {
  const auto error_of = [](const std::string& params, const std::string& value = "0") {
    return ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Constant", "params": {"value": )" +
                                        value + R"(}},
                 {"name": "a", "type": "TransportDelay", "params": )" +
                                        params + R"(}], "connections": [["u.out", "a.in"]]})");
  };
  CHECK(error_of(R"({"delay": 0})")
            .find("actor 'a' (TransportDelay), parameter 'delay': must be a finite delay > 0 (s), got 0") !=
        std::string::npos);
  CHECK(error_of(R"({"delay": -1})")
            .find("actor 'a' (TransportDelay), parameter 'delay': must be a finite delay > 0 (s), got -1") !=
        std::string::npos);
  CHECK(error_of("{}").find("'delay'") != std::string::npos);
  CHECK(error_of(R"({"delay": 1, "max_step": 0})")
            .find("actor 'a' (TransportDelay), parameter 'max_step': must be a finite step > 0 (s), got 0") !=
        std::string::npos);
  const std::string width = error_of(R"({"delay": 1, "initial": [1, 2, 3]})", "[1, 2]");
  CHECK(width.find("width mismatch: output 'u.out' has width 2 but input 'a.in' has width 3") !=
        std::string::npos);
}

TEST_CASE(
    "TransportDelay: a jump made at a located state event keeps both sides and comes out one delay later") {
  // x = t crosses 0.3; the detector's token switches a hold from 0 to 5 at
  // the located tick te. The delay stores the hold's two sides at te (no
  // ramp between the last step end and te) and switches at te + 0.5 s.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 1.2, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "cross", "type": "LevelCrossingDetector", "params": {"level": 0.3, "value": 5}},
               {"name": "hold", "type": "ZeroOrderHold"},
               {"name": "d", "type": "TransportDelay", "params": {"delay": 0.5}}],
    "connections": [["one.out", "x.in"], ["x.out", "cross.in"], ["cross.out", "hold.in"], ["hold.out", "d.in"]],
    "record": ["d.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  std::int64_t te = -1;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "cross") te = line["tick"].get<std::int64_t>();
  }
  REQUIRE(std::abs(te - 300000000000) <= 1000);  // located to within a nanosecond
  CHECK(time_event_ticks(run, "d") == std::vector<std::int64_t>{te + 500000000000});
  const double release = static_cast<double>(te + 500000000000) * 1e-12;
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    const bool after = row.t > release || (row.t == release && row.n > 0);
    CHECK(row.values[run.column("d.out")] == (after ? 5.0 : 0.0));
  }
}
