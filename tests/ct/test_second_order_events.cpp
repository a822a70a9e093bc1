// SecondOrderSolver on the solver contract's methods, and its guards located by the
// event locator: event ticks against closed forms, the trace, Zeno behaviour, and the
// checks of the method and the guards.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/trace.hpp"
#include "domains/ct/second_order.hpp"

using ctde::CheckAnswer;
using ctde::CheckStepFunction;
using ctde::Crossing;
using ctde::RunError;
using ctde::SecondOrderOptions;
using ctde::SecondOrderProblem;
using ctde::SecondOrderSolver;
using ctde::SecondOrderStop;
using ctde::SolverKind;
using ctde::TentativeStep;
using ctde::Tick;
using ctde::TimeResolution;

namespace {

constexpr double kG = 9.81;
constexpr std::array kZero{0.0};
constexpr std::array kOne{1.0};

// p'' = -p from p = 1, v = 0: p = cos t, v = -sin t.
void spring(double /*t*/, const double* p, const double* /*v*/, double* a, void* /*user*/) { a[0] = -p[0]; }

// A ball under gravity, p'' = -g: from p = 1, v = 0, p = 1 - g t²/2 until it hits the
// floor p = 0. Every Runge–Kutta method, its dense output and the locator's cubic
// reproduce a quadratic, so states and event times are exact up to rounding.
void gravity(double /*t*/, const double* /*p*/, const double* /*v*/, double* a, void* /*user*/) {
  a[0] = -kG;
}

// The floor: g = p, an event when it falls through zero.
void height(double /*t*/, const double* p, const double* /*v*/, double* g, void* /*user*/) { g[0] = p[0]; }

// A guard that is not a number.
void broken_guard(double /*t*/, const double* /*p*/, const double* /*v*/, double* g, void* /*user*/) {
  g[0] = std::numeric_limits<double>::quiet_NaN();
}

SecondOrderProblem ball_problem() {
  SecondOrderProblem problem{1, gravity, nullptr};
  problem.guards = 1;
  problem.guard = height;
  problem.directions = {Crossing::kFalling};
  return problem;
}

SecondOrderOptions options_for(SolverKind method, double tolerance) {
  SecondOrderOptions options;
  options.method = method;
  options.position_tolerance = {tolerance};
  options.velocity_tolerance = {tolerance};
  return options;
}

/// The first tick at which `below(t)` holds, near `guess` (s): the closed form's answer
/// to "when has the guard crossed?", in the ticks of `resolution`.
Tick first_tick(const std::function<bool(double)>& below, double guess, const TimeResolution& resolution) {
  Tick k = resolution.to_ticks(guess);
  while (below(resolution.to_seconds(k - 1))) --k;
  while (!below(resolution.to_seconds(k))) ++k;
  return k;
}

/// What a bouncing check_step saw at its impacts.
struct Bounces {
  double e = 0.8;                          // restitution
  std::vector<Tick> ticks;                 // event_tick() of each impact
  std::vector<double> times;               // t1 of each impact's step
  std::vector<double> speeds;              // |v| before each bounce
  std::vector<std::array<double, 2>> out;  // (p, v) after each bounce
  double lowest = 0.0;                     // the lowest end position shown
};

/// check_step for the ball: at an impact (a step that ends at the floor's crossing)
/// the velocity is reflected, v⁺ = -e v⁻; every step is taken.
CheckStepFunction bouncer(Bounces& b) {
  return [&b](TentativeStep& step) {
    b.lowest = std::min(b.lowest, step.p1()[0]);
    REQUIRE(step.crossings().size() == 1);
    if (!step.crossed()) {
      CHECK(step.crossings()[0] == Crossing::kNone);
      return CheckAnswer::take_and_continue();
    }
    CHECK(step.crossings()[0] == Crossing::kFalling);
    b.ticks.push_back(step.event_tick());
    b.times.push_back(step.t1());
    b.speeds.push_back(-step.v1()[0]);
    step.v1()[0] = -b.e * step.v1()[0];
    b.out.push_back({step.p1()[0], step.v1()[0]});
    return CheckAnswer::take_and_continue();
  };
}

/// The lines of a trace written to a string.
std::vector<nlohmann::json> trace_lines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

}  // namespace

// ---- methods ---------------------------------------------------------------------------

TEST_CASE("every method of the solver contract integrates an oscillator over a period within its budget") {
  const double tolerance = 1e-9;
  const double period = 2.0 * std::numbers::pi;
  for (const SolverKind method :
       {SolverKind::kErk45, SolverKind::kErk23, SolverKind::kRk4Fixed, SolverKind::kDirk,
        SolverKind::kArkImex, SolverKind::kRkf45, SolverKind::kBdf, SolverKind::kAuto}) {
    const std::string name = ctde::to_string(method);
    CAPTURE(name);
    SecondOrderOptions options = options_for(method, tolerance);
    const double h = period / 1000.0;
    if (method == SolverKind::kRk4Fixed) options.dt_max = h;  // its fixed step
    SecondOrderSolver solver({1, spring, nullptr}, options, 0.0, kOne, kZero);
    REQUIRE(solver.run(period).stop == SecondOrderStop::kReachedEnd);
    CHECK(solver.time() == period);
    const auto stats = solver.statistics();
    CHECK(stats.ode.steps > 0);
    // Global error <= the sum of the local errors (ω = 1: no growth over a period).
    // An adaptive step's local error is within its tolerance times sqrt(2m) = 1.4 by
    // the RMS test, and a few times more where the error estimate is off (the
    // implicit methods' Newton iterations stop at a fraction of it): 10 tolerances.
    // rk4-fixed's is its truncation error, h⁵/120 on this problem, taken 10 times.
    const double local = method == SolverKind::kRk4Fixed ? 10.0 * std::pow(h, 5) / 120.0 : 10.0 * tolerance;
    const double bound = static_cast<double>(stats.steps_taken) * local;
    CHECK(bound < 1e-4);  // the check below means something
    CHECK(std::abs(solver.position()[0] - 1.0) <= bound);
    CHECK(std::abs(solver.velocity()[0]) <= bound);
  }
}

// ---- guards ----------------------------------------------------------------------------

TEST_CASE("a bouncing ball's impacts are the first ticks at which its closed form is below the floor") {
  Bounces bounces;
  SecondOrderOptions options = options_for(SolverKind::kRkf45, 1e-10);
  SecondOrderSolver solver(ball_problem(), options, 0.0, kOne, kZero, bouncer(bounces));
  REQUIRE(solver.run(1.5).stop == SecondOrderStop::kReachedEnd);
  REQUIRE(bounces.ticks.size() == 2);  // at 0.45 s and 1.17 s; the third is at 1.75 s
  const TimeResolution& r = options.resolution;

  // The first fall: p = 1 - g t²/2 crosses zero at sqrt(2/g), between two ticks.
  const Tick first =
      first_tick([](double t) { return 1.0 - 0.5 * kG * t * t < 0.0; }, std::sqrt(2.0 / kG), r);
  CHECK(bounces.ticks[0] == first);
  CHECK(bounces.times[0] == r.to_seconds(first));  // the step shown ends at the event's time
  CHECK(bounces.speeds[0] == doctest::Approx(kG * r.to_seconds(first)).epsilon(1e-12));

  // The second flight from the state the bounce left, p = pe (just below the floor)
  // and v = e v_impact: its closed form's first tick below the floor, and the flight
  // time 2 e v_impact / g up to that start below zero.
  const double te = r.to_seconds(first);
  const double pe = bounces.out[0][0];
  const double ve = bounces.out[0][1];
  CHECK(pe <= 0.0);
  CHECK(pe >= -kG * te * r.seconds_per_tick());  // less than a tick's fall below it
  const Tick second = first_tick(
      [&](double t) {
        const double tau = t - te;
        return pe + ve * tau - 0.5 * kG * tau * tau < 0.0;
      },
      te + 2.0 * ve / kG, r);
  CHECK(bounces.ticks[1] == second);
  CHECK(std::abs(bounces.times[1] - (te + 2.0 * bounces.e * bounces.speeds[0] / kG)) <= 1e-9);

  const auto stats = solver.statistics();
  CHECK(stats.state_events == 2);
  CHECK(stats.adjustments == 2);
  CHECK(stats.guard_evals > 0);
  CHECK(bounces.lowest >= -1e-11);
}

TEST_CASE("the event ticks of a bouncing ball are the same with rkf45 and erk45, and close with bdf") {
  const auto impacts = [](SolverKind method, double tolerance) {
    Bounces bounces;
    SecondOrderSolver solver(ball_problem(), options_for(method, tolerance), 0.0, kOne, kZero,
                             bouncer(bounces));
    REQUIRE(solver.run(3.0).stop == SecondOrderStop::kReachedEnd);
    return bounces;
  };
  const Bounces rkf45 = impacts(SolverKind::kRkf45, 1e-10);
  const Bounces erk45 = impacts(SolverKind::kErk45, 1e-10);
  REQUIRE(rkf45.ticks.size() == 6);  // 0.45, 1.17, 1.75, 2.21, 2.58, 2.88 s
  CHECK(erk45.ticks == rkf45.ticks);
  // BDF does not reproduce the quadratic (its first steps are of order 1): the times
  // agree within what its tolerance allows.
  const Bounces bdf = impacts(SolverKind::kBdf, 1e-10);
  REQUIRE(bdf.times.size() == rkf45.times.size());
  for (std::size_t i = 0; i < bdf.times.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(bdf.times[i] - rkf45.times[i]) <= 1e-6);
  }
}

TEST_CASE("without check_step a crossing is still located, ends its step and is counted") {
  std::ostringstream text;
  SecondOrderOptions options = options_for(SolverKind::kRkf45, 1e-10);
  {
    ctde::TraceWriter trace(text);
    options.trace = &trace;
    SecondOrderSolver solver(ball_problem(), options, 0.0, kOne, kZero);
    REQUIRE(solver.run(1.0).stop == SecondOrderStop::kReachedEnd);
    // nothing bounces it: the ball falls through the floor and on, p = 1 - g t²/2
    CHECK(solver.position()[0] == doctest::Approx(1.0 - 0.5 * kG).epsilon(1e-12));
    CHECK(solver.velocity()[0] == doctest::Approx(-kG).epsilon(1e-12));
    const auto stats = solver.statistics();
    CHECK(stats.state_events == 1);  // once through, never back
    CHECK(stats.checks == 0);
  }
  const auto lines = trace_lines(text.str());
  const auto event = std::find_if(lines.begin(), lines.end(),
                                  [](const nlohmann::json& line) { return line["kind"] == "state_event"; });
  REQUIRE(event != lines.end());
  const Tick first = first_tick([](double t) { return 1.0 - 0.5 * kG * t * t < 0.0; }, std::sqrt(2.0 / kG),
                                options.resolution);
  CHECK((*event)["tick"].get<Tick>() == first);
}

TEST_CASE("take_and_stop at an event returns at the event's time with the adjusted state") {
  Tick tick = ctde::kNever;
  const auto check = [&](TentativeStep& step) {
    if (!step.crossed()) return CheckAnswer::take_and_continue();
    tick = step.event_tick();
    step.v1()[0] = 0.0;  // stopped dead on the floor
    return CheckAnswer::take_and_stop();
  };
  SecondOrderOptions options = options_for(SolverKind::kErk45, 1e-10);
  SecondOrderSolver solver(ball_problem(), options, 0.0, kOne, kZero, check);
  const auto result = solver.run(2.0);
  REQUIRE(result.stop == SecondOrderStop::kStoppedAtEnd);
  REQUIRE(tick != ctde::kNever);
  CHECK(result.t == options.resolution.to_seconds(tick));
  CHECK(solver.time() == result.t);
  CHECK(solver.velocity()[0] == 0.0);
  CHECK(solver.position()[0] <= 0.0);
  CHECK(solver.statistics().state_events == 1);
}

TEST_CASE("the trace has a step_reject and a state_event line for each impact, in the resolution's ticks") {
  std::ostringstream text;
  Bounces bounces;
  SecondOrderOptions options = options_for(SolverKind::kRkf45, 1e-10);
  options.trace_name = "ball";
  {
    ctde::TraceWriter trace(text);
    trace.run_start({"ball", "rkf45", 0.0, 1e-10, 1.5, options.resolution.seconds_per_tick()});
    options.trace = &trace;
    SecondOrderSolver solver(ball_problem(), options, 0.0, kOne, kZero, bouncer(bounces));
    REQUIRE(solver.run(1.5).stop == SecondOrderStop::kReachedEnd);
    trace.run_end("ok", solver.statistics().run_statistics());
  }
  REQUIRE(bounces.ticks.size() == 2);
  const auto lines = trace_lines(text.str());
  std::vector<nlohmann::json> events;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i]["kind"] != "state_event") continue;
    events.push_back(lines[i]);
    REQUIRE(i > 0);
    CHECK(lines[i - 1]["kind"] == "step_reject");  // the step that held the crossing
  }
  REQUIRE(events.size() == 2);
  for (std::size_t k = 0; k < events.size(); ++k) {
    CAPTURE(k);
    const nlohmann::json& line = events[k];
    CHECK(line["actor"] == "ball");
    CHECK(line["guard"] == 0);  // unnamed guards are written by index
    CHECK(line["direction"] == "falling");
    CHECK(line["tick"].get<Tick>() == bounces.ticks[k]);
    CHECK(line["n"] == 0);
    CHECK(line["t"].get<double>() == options.resolution.to_seconds(bounces.ticks[k]));
    CHECK(line["bracket"].get<double>() <= options.resolution.seconds_per_tick());
    CHECK(line["iterations"].get<int>() > 0);
    CHECK(line["rejected_t1"].get<double>() >= line["t"].get<double>());
  }
  CHECK(lines.front()["kind"] == "run_start");
  CHECK(lines.back()["kind"] == "run_end");
  CHECK(lines.back()["state_events"] == 2);
}

TEST_CASE("a bouncing ball run past its accumulation time ends with a Zeno error, never below the floor") {
  // The flights shrink by e = 0.8: they accumulate at t1 (1 + 2 e / (1 - e)) = 9 t1.
  Bounces bounces;
  SecondOrderSolver solver(ball_problem(), options_for(SolverKind::kRkf45, 1e-10), 0.0, kOne, kZero,
                           bouncer(bounces));
  std::string message;
  try {
    (void)solver.run(10.0);
  } catch (const RunError& error) {
    message = error.what();
  }
  CAPTURE(message);
  CHECK(message.find("Zeno behaviour: guard 0 fired 9 times in a row at most 64 ticks apart") !=
        std::string::npos);
  const double accumulation = 9.0 * std::sqrt(2.0 / kG);
  CHECK(solver.time() == doctest::Approx(accumulation).epsilon(1e-6));
  CHECK(bounces.ticks.size() > 50);
  CHECK(bounces.lowest >= -1e-9);
}

// ---- refused ---------------------------------------------------------------------------

TEST_CASE("a bad method or bad guards are refused with messages that name them") {
  const auto throws = [](const SecondOrderProblem& problem, const SecondOrderOptions& options,
                         const char* text) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(SecondOrderSolver(problem, options, 0.0, kOne, kZero), doctest::Contains(text),
                         std::invalid_argument);
  };
  const SecondOrderOptions ok = options_for(SolverKind::kRkf45, 1e-8);
  SecondOrderOptions method = ok;
  method.method = static_cast<SolverKind>(42);
  throws(ball_problem(), method,
         "SecondOrderSolver: method 42 is not a method: give one of erk45, erk23, rk4-fixed, dirk, ark-imex, "
         "rkf45, bdf, auto");
  method.method = SolverKind::kRk4Fixed;
  throws(
      ball_problem(), method,
      "SecondOrderSolver: method rk4-fixed needs a step size: set initial_step (its fixed step) or a finite "
      "dt_max");

  SecondOrderProblem problem = ball_problem();
  problem.guard = nullptr;
  throws(problem, ok, "SecondOrderSolver: guards = 1 but no guard function");
  problem = ball_problem();
  problem.guards = 0;
  throws(problem, ok, "SecondOrderSolver: a guard function but guards = 0: give the number of guards");
  problem = ball_problem();
  problem.guards = 2;
  throws(problem, ok, "SecondOrderSolver: directions has 1 values: give one per guard (guards = 2)");
  problem = ball_problem();
  problem.directions = {Crossing::kNone};
  throws(problem, ok, "SecondOrderSolver: directions[0] is none: give rising, falling or both");
  SecondOrderOptions tolerance = ok;
  tolerance.guard_tolerance = -1.0;
  throws(ball_problem(), tolerance, "SecondOrderSolver: guard_tolerance must be finite and >= 0");

  problem = ball_problem();
  problem.guard = broken_guard;
  CHECK_THROWS_WITH_AS(SecondOrderSolver(problem, ok, 0.0, kOne, kZero),
                       "SecondOrderSolver: the guard function gave the non-finite g[0] = nan at t = 0",
                       RunError);

  SecondOrderSolver solver(ball_problem(), ok, 0.0, kOne, kZero);
  CHECK_THROWS_WITH_AS(solver.run(1e7), doctest::Contains("is beyond the horizon of the time resolution"),
                       std::invalid_argument);
}
