// SecondOrderSolver: p'' = F(t, p, p') on the ARKODE wrapper, with the check_step protocol.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "domains/ct/second_order.hpp"

using ctde::CheckAnswer;
using ctde::CheckKind;
using ctde::RunError;
using ctde::SecondOrderOptions;
using ctde::SecondOrderProblem;
using ctde::SecondOrderResult;
using ctde::SecondOrderSolver;
using ctde::SecondOrderStop;
using ctde::TentativeStep;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- models and their closed forms ------------------------------------------------

// Two independent oscillators: p[0]'' = -p[0] (ω = 1), and the damped
// p[1]'' = -2ζω p[1]' - ω² p[1] (ω = 3, ζ = 0.1). From p = (1, 0), v = (0.5, 1):
//   p[0] = cos t + 0.5 sin t
//   p[1] = e^{-ζωt} sin(ω_d t) / ω_d,  ω_d = ω sqrt(1 - ζ²)
struct Oscillators {
  double omega = 3.0;
  double zeta = 0.1;
};
void oscillators(double /*t*/, const double* p, const double* v, double* a, void* user) {
  const auto& o = *static_cast<const Oscillators*>(user);
  a[0] = -p[0];
  a[1] = -2.0 * o.zeta * o.omega * v[1] - o.omega * o.omega * p[1];
}
std::array<double, 4> oscillators_exact(const Oscillators& o, double t) {  // p0, p1, v0, v1
  const double alpha = o.zeta * o.omega;
  const double wd = o.omega * std::sqrt(1.0 - o.zeta * o.zeta);
  const double decay = std::exp(-alpha * t);
  return {std::cos(t) + 0.5 * std::sin(t), decay * std::sin(wd * t) / wd, -std::sin(t) + 0.5 * std::cos(t),
          decay * (std::cos(wd * t) - alpha / wd * std::sin(wd * t))};
}

// A ball above a wall at height 0, under gravity with linear air drag:
// y'' = -g - k y'. A flight from height y0 with velocity w (up > 0) has the closed form
//   y(τ) = y0 + (w + g/k)(1 - e^{-kτ})/k - gτ/k,   y'(τ) = (w + g/k) e^{-kτ} - g/k.
struct Ball {
  double g = 9.81;
  double k = 0.1;
};
void ball(double /*t*/, const double* /*p*/, const double* v, double* a, void* user) {
  const auto& b = *static_cast<const Ball*>(user);
  a[0] = -b.g - b.k * v[0];
}
double flight_height(const Ball& b, double y0, double w, double tau) {
  return y0 - (w + b.g / b.k) * std::expm1(-b.k * tau) / b.k - b.g * tau / b.k;
}
double flight_velocity(const Ball& b, double w, double tau) {
  return (w + b.g / b.k) * std::exp(-b.k * tau) - b.g / b.k;
}
// The flight time to the wall: the root of y(τ) after the apex (where y decreases),
// by bisection of the closed form to the last bit.
double time_to_wall(const Ball& b, double y0, double w) {
  double lo = w > 0 ? std::log1p(b.k * w / b.g) / b.k : 0.0;  // the apex
  double hi = lo + 1.0;
  while (flight_height(b, y0, w, hi) > 0) hi = lo + 2.0 * (hi - lo);
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) return mid;
    (flight_height(b, y0, w, mid) > 0 ? lo : hi) = mid;
  }
}

// A pendulum of length L in Cartesian coordinates p = (x, y), y up, unit mass: the rod's
// tension -λp keeps |p| = L. Differentiating |p|² = L² twice gives p·p'' + |v|² = 0, so
//   p'' = -λ p - g e_y,   λ = (|v|² - g y) / |p|².
struct Pendulum {
  double g = 9.81;
  double length = 1.0;
};
void pendulum(double /*t*/, const double* p, const double* v, double* a, void* user) {
  const auto& pend = *static_cast<const Pendulum*>(user);
  const double lambda = (v[0] * v[0] + v[1] * v[1] - pend.g * p[1]) / (p[0] * p[0] + p[1] * p[1]);
  a[0] = -lambda * p[0];
  a[1] = -lambda * p[1] - pend.g;
}
// The period from amplitude θ0: T = 4 sqrt(L/g) K(sin(θ0/2)), K(k) = π / (2 AGM(1, sqrt(1 - k²))).
double pendulum_period(const Pendulum& pend, double theta0) {
  const double k = std::sin(0.5 * theta0);
  double a = 1.0;
  double b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 20; ++i) {
    const double next_a = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = next_a;
  }
  return 4.0 * std::sqrt(pend.length / pend.g) * std::numbers::pi / (2.0 * a);
}

// p'' = 1 from p = 0, v = 0: p = t²/2, v = t. Every Runge-Kutta method and the dense
// output reproduce a quadratic, so results are exact up to rounding.
void push(double /*t*/, const double* /*p*/, const double* /*v*/, double* a, void* /*user*/) { a[0] = 1.0; }

// F is not finite once t > 0.5 (component 1).
void breaks_down(double t, const double* p, const double* /*v*/, double* a, void* /*user*/) {
  a[0] = -p[0];
  a[1] = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
}

// ---- helpers ----------------------------------------------------------------------

// The time in [t0, t1] where component i of p crosses `level`, p_i(t0) > level >= p_i(t1),
// by bisection of the step's dense output.
double locate(const TentativeStep& step, std::size_t i, double level) {
  std::vector<double> p(step.size());
  std::vector<double> v(step.size());
  double lo = step.t0();
  double hi = step.t1();
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) return mid;
    step.state_at(mid, p, v);
    (p[i] > level ? lo : hi) = mid;
  }
}

SecondOrderOptions tight_options(double tolerance) {
  SecondOrderOptions options;
  options.position_tolerance = {tolerance};
  options.velocity_tolerance = {tolerance};
  return options;
}

const SecondOrderProblem kPush{1, push, nullptr};
constexpr std::array kZero{0.0};

}  // namespace

// ---- integration --------------------------------------------------------------------

TEST_CASE("a harmonic and a damped oscillator follow their closed forms") {
  Oscillators model;
  const SecondOrderProblem problem{2, oscillators, &model};
  const double tolerance = 1e-10;
  SecondOrderOptions options = tight_options(tolerance);
  options.dt_max = 0.25;
  const std::array p0{1.0, 0.0};
  const std::array v0{0.5, 1.0};
  SecondOrderSolver solver(problem, options, 0.0, p0, v0);
  for (double t_end : {0.3, 1.0, std::numbers::pi, 7.5, 20.0}) {
    const SecondOrderResult result = solver.run(t_end);
    REQUIRE(result.stop == SecondOrderStop::kReachedEnd);
    CHECK(result.t == t_end);
    CHECK(solver.time() == t_end);
    // Global error <= the sum of the local errors: each step's is within sqrt(2m)
    // tolerances (RMS test over 2m = 4 states), times ω = 3 for the exchange of
    // errors between positions and velocities.
    const auto stats = solver.statistics();
    const double bound = static_cast<double>(stats.steps_taken) * 2.0 * tolerance * model.omega;
    const auto exact = oscillators_exact(model, t_end);
    CAPTURE(t_end);
    CHECK(std::abs(solver.position()[0] - exact[0]) <= bound);
    CHECK(std::abs(solver.position()[1] - exact[1]) <= bound);
    CHECK(std::abs(solver.velocity()[0] - exact[2]) <= bound);
    CHECK(std::abs(solver.velocity()[1] - exact[3]) <= bound);
    CHECK(bound < 1e-5);  // the check above means something
    CHECK(solver.acceleration()[0] == doctest::Approx(-exact[0]).epsilon(1e-6));
  }
  const auto stats = solver.statistics();
  CHECK(stats.checks == 0);
  CHECK(stats.redos == 0);
  CHECK(stats.ode.steps >= 80);                       // dt_max bounds every step
  CHECK(stats.ode.rhs_evals >= 6 * stats.ode.steps);  // Fehlberg: six stages per step
}

TEST_CASE("dt_max bounds every step and check_step sees each step's end state and accelerations") {
  Oscillators model;
  const SecondOrderProblem problem{2, oscillators, &model};
  SecondOrderOptions options = tight_options(1e-9);
  options.dt_max = 0.1;
  const std::array p0{1.0, 0.0};
  const std::array v0{0.5, 1.0};
  double last_end = 0.0;
  int calls = 0;
  const auto check = [&](TentativeStep& step) {
    ++calls;
    CHECK(step.t0() == last_end);  // steps are contiguous
    CHECK(step.t1() - step.t0() <= 0.1 * (1 + 1e-12));
    const auto exact = oscillators_exact(model, step.t1());
    CHECK(std::abs(step.p1()[0] - exact[0]) <= 1e-6);
    CHECK(std::abs(step.v1()[1] - exact[3]) <= 1e-6);
    std::array<double, 2> a{};
    oscillators(step.t1(), step.p1().data(), step.v1().data(), a.data(), &model);
    CHECK(step.a1()[0] == a[0]);
    CHECK(step.a1()[1] == a[1]);
    CHECK(step.redos() == 0);
    last_end = step.t1();
    return CheckAnswer::take_and_continue();
  };
  SecondOrderSolver solver(problem, options, 0.0, p0, v0, check);
  REQUIRE(solver.run(3.0).stop == SecondOrderStop::kReachedEnd);
  CHECK(calls >= 30);
  CHECK(solver.statistics().checks == calls);
  CHECK(solver.statistics().steps_taken == calls);
}

// ---- the four answers -----------------------------------------------------------------

TEST_CASE("stop_at_start drops the step and returns at its start with the start state") {
  int calls = 0;
  const auto check = [&](TentativeStep& step) {
    ++calls;
    CHECK(step.t0() == 2.0);
    CHECK(step.p0()[0] == 3.0);
    CHECK(step.a0()[0] == 1.0);
    return CheckAnswer::stop_at_start();
  };
  const std::array p0{3.0};
  const std::array v0{-1.0};
  SecondOrderSolver solver(kPush, tight_options(1e-10), 2.0, p0, v0, check);
  const SecondOrderResult result = solver.run(5.0);
  CHECK(result.stop == SecondOrderStop::kStoppedAtStart);
  CHECK(result.t == 2.0);
  CHECK(solver.time() == 2.0);
  CHECK(solver.position()[0] == 3.0);
  CHECK(solver.velocity()[0] == -1.0);
  CHECK(calls == 1);
  CHECK(solver.statistics().steps_taken == 0);
}

TEST_CASE("redo_to integrates the step again to te and shows the shorter step to check_step") {
  std::vector<std::array<double, 2>> seen;
  double te = 0.0;
  const auto check = [&](TentativeStep& step) {
    seen.push_back({step.t0(), step.t1()});
    if (seen.size() < 3) {  // take one step, then redo the second to its middle
      if (seen.size() == 2) {
        te = step.t0() + 0.5 * (step.t1() - step.t0());
        return CheckAnswer::redo_to(te);
      }
      return CheckAnswer::take_and_continue();
    }
    CHECK(step.redos() == 1);
    // the redone step is integrated, not interpolated: p = t²/2 exactly up to rounding
    CHECK(step.p1()[0] == doctest::Approx(0.5 * te * te).epsilon(1e-13));
    CHECK(step.v1()[0] == doctest::Approx(te).epsilon(1e-13));
    std::array<double, 1> p{};
    std::array<double, 1> v{};
    const double mid = 0.5 * (step.t0() + step.t1());
    step.state_at(mid, p, v);  // the redone step has a dense output of its own
    CHECK(p[0] == doctest::Approx(0.5 * mid * mid).epsilon(1e-13));
    return CheckAnswer::take_and_stop();
  };
  SecondOrderSolver solver(kPush, tight_options(1e-10), 0.0, kZero, kZero, check);
  const SecondOrderResult result = solver.run(10.0);
  REQUIRE(seen.size() == 3);
  CHECK(seen[2][0] == seen[1][0]);  // same start
  CHECK(seen[2][1] == te);          // ends at te exactly
  CHECK(result.stop == SecondOrderStop::kStoppedAtEnd);
  CHECK(result.t == te);
  CHECK(solver.position()[0] == doctest::Approx(0.5 * te * te).epsilon(1e-13));
  CHECK(solver.statistics().redos == 1);
  CHECK(solver.statistics().steps_taken == 2);
}

TEST_CASE("take_and_stop commits the step and returns at its end") {
  double t1 = 0.0;
  const auto check = [&](TentativeStep& step) {
    t1 = step.t1();
    return CheckAnswer::take_and_stop();
  };
  SecondOrderSolver solver(kPush, tight_options(1e-10), 0.0, kZero, kZero, check);
  const SecondOrderResult result = solver.run(10.0);
  CHECK(result.stop == SecondOrderStop::kStoppedAtEnd);
  CHECK(result.t == t1);
  CHECK(t1 > 0.0);
  CHECK(solver.position()[0] == doctest::Approx(0.5 * t1 * t1).epsilon(1e-13));
  CHECK(solver.velocity()[0] == doctest::Approx(t1).epsilon(1e-13));
  // run() again goes on from there: the next step starts at t1
  const double first_end = t1;
  CHECK(solver.run(first_end + 1.0).stop == SecondOrderStop::kStoppedAtEnd);
  CHECK(solver.time() == t1);
  CHECK(t1 > first_end);
  CHECK(solver.statistics().steps_taken == 2);
}

TEST_CASE("take_and_continue bounds the next step, and an adjusted end state is where the solver goes on") {
  std::vector<std::array<double, 2>> seen;
  double bound = 0.0;
  double t_adjust = 0.0;
  const auto check = [&](TentativeStep& step) {
    seen.push_back({step.t0(), step.t1()});
    if (seen.size() == 3) {  // a bound half a step ahead: ARKODE's next step is longer
      bound = step.t1() + 0.5 * (step.t1() - step.t0());
      return CheckAnswer::take_and_continue(bound);
    }
    if (seen.size() == 5) {  // the kick: from here p = 5 - 2 (t - ta) + (t - ta)²/2
      t_adjust = step.t1();
      step.p1()[0] = 5.0;
      step.v1()[0] = -2.0;
    }
    return CheckAnswer::take_and_continue();
  };
  SecondOrderSolver solver(kPush, tight_options(1e-10), 0.0, kZero, kZero, check);
  REQUIRE(solver.run(3.0).stop == SecondOrderStop::kReachedEnd);
  REQUIRE(seen.size() > 6);
  CHECK(seen[3][1] == bound);  // the bounded step ends at the bound exactly
  CHECK(seen[5][0] == t_adjust);
  const double dt = 3.0 - t_adjust;
  CHECK(solver.position()[0] == doctest::Approx(5.0 - 2.0 * dt + 0.5 * dt * dt).epsilon(1e-12));
  CHECK(solver.velocity()[0] == doctest::Approx(-2.0 + dt).epsilon(1e-12));
  CHECK(solver.acceleration()[0] == 1.0);
  CHECK(solver.statistics().adjustments == 1);
}

// ---- events handled by check_step ----------------------------------------------------

TEST_CASE("a ball bouncing on a wall hits it at the analytic impact times") {
  // Falls from 10 m with drag; the wall reflects the velocity, v⁺ = -e v⁻. check_step
  // sees a step that ends below the wall, finds te on the step's dense output, redoes
  // the step to te, and when a step ends at the wall (within 1e-11 m) reflects the
  // velocity in the end state: take_and_continue, and take_and_stop at the last impact.
  Ball model;
  const double e = 0.8;
  const double h0 = 10.0;
  const int impacts_wanted = 6;
  const double at_wall = 1e-11;

  std::vector<double> times;     // impact times
  std::vector<double> speeds;    // |v⁻| at the impacts
  std::vector<CheckKind> kinds;  // every answer
  const auto check = [&](TentativeStep& step) {
    const auto answer = [&](CheckAnswer a) {
      kinds.push_back(a.kind());
      return a;
    };
    const double y = step.p1()[0];
    const double v = step.v1()[0];
    if (y > at_wall || (y >= -at_wall && v >= 0)) return answer(CheckAnswer::take_and_continue());
    if (y >= -at_wall) {  // at the wall, moving into it
      times.push_back(step.t1());
      speeds.push_back(-v);
      step.p1()[0] = 0.0;
      step.v1()[0] = -e * v;
      return answer(static_cast<int>(times.size()) == impacts_wanted ? CheckAnswer::take_and_stop()
                                                                     : CheckAnswer::take_and_continue());
    }
    REQUIRE(step.p0()[0] > 0.0);  // dt_max keeps a step shorter than a flight
    return answer(CheckAnswer::redo_to(locate(step, 0, 0.0)));
  };

  SecondOrderOptions options = tight_options(1e-12);
  options.dt_max = 0.05;
  const SecondOrderProblem problem{1, ball, &model};
  const std::array p0{h0};
  SecondOrderSolver solver(problem, options, 0.0, p0, kZero, check);
  const SecondOrderResult result = solver.run(100.0);

  REQUIRE(times.size() == static_cast<std::size_t>(impacts_wanted));
  CHECK(result.stop == SecondOrderStop::kStoppedAtEnd);
  CHECK(result.t == times.back());
  CHECK(solver.position()[0] == 0.0);
  CHECK(solver.velocity()[0] == e * speeds.back());

  // The analytic sequence of flights. Error budget: each step's local error is within
  // about √2 · 1e-12 (an RMS test over 2 states); over fewer than 500 steps that is under
  // 1e-9 m in y and 1e-9 m/s in v. At speeds above 3 m/s, times above 1.4 s, and with a
  // velocity error changing a flight's time by at most 2 δv / g, every impact time and
  // speed is within 1e-9 relative.
  const auto stats = solver.statistics();
  CHECK(stats.steps_taken + stats.redos < 500);
  double t = 0.0;
  double y0 = h0;
  double w = 0.0;
  for (int i = 0; i < impacts_wanted; ++i) {
    const double tau = time_to_wall(model, y0, w);
    t += tau;
    const double speed = -flight_velocity(model, w, tau);
    CAPTURE(i);
    CHECK(speed > 3.0);
    CHECK(std::abs(times[i] - t) <= 1e-9 * t);
    CHECK(std::abs(speeds[i] - speed) <= 1e-9 * speed);
    w = e * speed;
    y0 = 0.0;
  }
  const auto has = [&](CheckKind kind) { return std::find(kinds.begin(), kinds.end(), kind) != kinds.end(); };
  CHECK(has(CheckKind::kRedoTo));
  CHECK(has(CheckKind::kTakeAndContinue));
  CHECK(kinds.back() == CheckKind::kTakeAndStop);
  CHECK(stats.adjustments == impacts_wanted);
  CHECK(stats.redos >= 1);
}

namespace {

struct PendulumRun {
  double max_drift = 0.0;        // max ||p| - L| over the committed states
  double max_local_drift = 0.0;  // max ||p| - L| of the step ends the solver computed
  double final_drift = 0.0;      // ||p| - L| at the end
  double max_energy_error = 0.0;
  double period = 0.0;  // mean time between downward crossings of x = 0
  long periods = 0;     // crossings - 1
  long steps = 0;
};

PendulumRun run_pendulum(const Pendulum& model, double theta0, bool project) {
  const double length = model.length;
  const auto drift = [length](std::span<const double> p) {
    return std::abs(std::hypot(p[0], p[1]) - length);
  };
  const auto energy = [&model](std::span<const double> p, std::span<const double> v) {
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + model.g * p[1];
  };
  const std::array p0{length * std::sin(theta0), -length * std::cos(theta0)};
  const std::array v0{0.0, 0.0};
  const double e0 = energy(p0, v0);
  PendulumRun run;
  std::vector<double> crossings;  // x from + to -
  const auto check = [&](TentativeStep& step) {
    if (step.p0()[0] > 0.0 && step.p1()[0] <= 0.0) crossings.push_back(locate(step, 0, 0.0));
    run.max_local_drift = std::max(run.max_local_drift, drift(step.p1()));
    if (project) {  // back onto |p| = L, and the radial velocity removed
      const auto p = step.p1();
      const auto v = step.v1();
      const double scale = length / std::hypot(p[0], p[1]);
      p[0] *= scale;
      p[1] *= scale;
      const double radial = (v[0] * p[0] + v[1] * p[1]) / (length * length);
      v[0] -= radial * p[0];
      v[1] -= radial * p[1];
    }
    run.max_drift = std::max(run.max_drift, drift(step.p1()));
    run.max_energy_error = std::max(run.max_energy_error, std::abs(energy(step.p1(), step.v1()) - e0));
    return CheckAnswer::take_and_continue();
  };
  Pendulum user = model;
  SecondOrderSolver solver({2, pendulum, &user}, tight_options(1e-8), 0.0, p0, v0, check);
  REQUIRE(solver.run(40.0).stop == SecondOrderStop::kReachedEnd);
  run.final_drift = drift(solver.position());
  REQUIRE(crossings.size() >= 2);
  run.periods = static_cast<long>(crossings.size()) - 1;
  run.period = (crossings.back() - crossings.front()) / static_cast<double>(run.periods);
  run.steps = solver.statistics().steps_taken;
  return run;
}

}  // namespace

TEST_CASE("a Cartesian pendulum keeps its length at roundoff level when check_step projects it") {
  const Pendulum model;
  const double theta0 = std::numbers::pi / 3.0;  // 60 degrees: far from the small-angle period
  const PendulumRun unprojected = run_pendulum(model, theta0, false);
  const PendulumRun projected = run_pendulum(model, theta0, true);
  MESSAGE("drift of |p| - L over 40 s: without projection max "
          << unprojected.max_drift << " (final " << unprojected.final_drift << "), with projection max "
          << projected.max_drift << " (local " << projected.max_local_drift << "); steps "
          << unprojected.steps << " / " << projected.steps << "; period error "
          << (unprojected.period / pendulum_period(model, theta0) - 1) << " / "
          << (projected.period / pendulum_period(model, theta0) - 1) << "; energy error "
          << unprojected.max_energy_error << " / " << projected.max_energy_error);
  // Without projection the constraint error is integrated, not corrected: |p|² - L² has
  // a zero second derivative along the flow, so every step's error in it and in its
  // rate is carried forward and the drift grows past a single step's.
  CHECK(unprojected.final_drift > 10.0 * projected.max_local_drift);
  // With it, every committed state is on |p| = L up to the rounding of the scaling.
  CHECK(projected.max_drift <= 8.0 * kEps * model.length);
  CHECK(projected.final_drift <= 8.0 * kEps * model.length);
  CHECK(unprojected.max_drift >= 1e6 * std::max(projected.max_drift, kEps * model.length));
  // Both still move like the pendulum, to within what the tolerances allow: the period
  // of the elliptic-integral formula, and the energy |v|²/2 + g y. Budget: each step's
  // local error is within 2 tolerances per component (RMS test over 4 states), summed
  // over the steps, doubled for the projection (it moves the state by at most as much).
  // A crossing time is off by at most the position budget over the speed at the bottom;
  // the energy by the velocity budget times that speed plus g times the position budget.
  const double tolerance = 1e-8;
  const double v_bottom = std::sqrt(2.0 * model.g * model.length * (1.0 - std::cos(theta0)));
  const double period = pendulum_period(model, theta0);
  for (const PendulumRun* run : {&unprojected, &projected}) {
    const double budget = 2.0 * static_cast<double>(run->steps) * 2.0 * tolerance;
    CHECK(run->periods >= 17);
    CHECK(std::abs(run->period - period) <= 2.0 * budget / v_bottom / static_cast<double>(run->periods));
    CHECK(run->max_energy_error <= budget * (v_bottom + model.g));
  }
  // The projection keeps ARKODE's step size: it costs no more steps than the free run.
  CHECK(projected.steps <= unprojected.steps + unprojected.steps / 10);
}

// ---- guards and errors -------------------------------------------------------------

TEST_CASE("check_step that keeps redoing is stopped with an error naming the time and the answer") {
  int calls = 0;
  const auto check = [&](TentativeStep& step) {
    ++calls;
    return CheckAnswer::redo_to(step.t0() + 0.5 * (step.t1() - step.t0()));
  };
  SecondOrderOptions options = tight_options(1e-10);
  options.max_stalls = 7;
  const std::array p0{1.0};
  SecondOrderSolver solver(kPush, options, 2.0, p0, kZero, check);
  std::string message;
  try {
    (void)solver.run(3.0);
  } catch (const RunError& error) {
    message = error.what();
  }
  CAPTURE(message);
  CHECK(message.find("does not let time advance at t = 2:") != std::string::npos);
  CHECK(message.find("8 answers in a row") != std::string::npos);
  CHECK(message.find("the last was redo_to(te = 2.") != std::string::npos);
  CHECK(message.find("max_stalls = 7") != std::string::npos);
  CHECK(calls == 8);
  CHECK(solver.time() == 2.0);  // every redo went back to the start
  CHECK(solver.position()[0] == 1.0);
}

TEST_CASE("check_step that bounds every step below dt_min is stopped with an error") {
  SecondOrderOptions options = tight_options(1e-10);
  options.dt_min = 1e-6;
  double first_end = -1.0;
  const auto check = [&](TentativeStep& step) {
    if (first_end < 0.0) first_end = step.t1();
    return CheckAnswer::take_and_continue(step.t1() + 1e-9);
  };
  SecondOrderSolver solver(kPush, options, 0.0, kZero, kZero, check);
  CHECK_THROWS_WITH_AS(solver.run(1.0), doctest::Contains("shorter than dt_min = 1e-06"), RunError);
  // the first step (at least dt_min, ARKODE's choice), then 101 steps of 1e-9: the 101st
  // exceeds max_stalls = 100
  CHECK(first_end >= 1e-6);
  CHECK(solver.time() == doctest::Approx(first_end + 101 * 1e-9).epsilon(1e-12));
  CHECK(solver.statistics().steps_taken == 102);
}

TEST_CASE("check_step that bounds every step to the next representable time is stopped with an error") {
  // dt_min = 0: a step of a few ulps of t is a stall (the solver cannot integrate it)
  const auto check = [](TentativeStep& step) {
    return CheckAnswer::take_and_continue(std::nextafter(step.t1(), kInf));
  };
  SecondOrderOptions options = tight_options(1e-10);
  options.max_stalls = 10;
  SecondOrderSolver solver(kPush, options, 0.0, kZero, kZero, check);
  CHECK_THROWS_WITH_AS(solver.run(1.0), doctest::Contains("11 answers in a row"), RunError);
  const double t = solver.time();
  CHECK(t > 0.0);
  CHECK(t < 1.0);
  CHECK(solver.statistics().steps_taken == 12);  // the first step, then 11 one-ulp steps
}

TEST_CASE("a redo time outside [t0 + dt_min, t1) is an error naming the answer and the step") {
  SecondOrderOptions options = tight_options(1e-10);
  options.dt_min = 1e-3;
  const auto redo_error = [&](auto te_of_step, const char* text) {
    CAPTURE(text);
    const auto check = [&](TentativeStep& step) { return CheckAnswer::redo_to(te_of_step(step)); };
    const std::array p0{1.0};
    SecondOrderSolver solver(kPush, options, 0.0, p0, kZero, check);
    CHECK_THROWS_WITH_AS(solver.run(1.0), doctest::Contains(text), std::invalid_argument);
    CHECK(solver.time() == 0.0);  // back at the step's start
    CHECK(solver.position()[0] == 1.0);
  };
  redo_error([](const TentativeStep& s) { return s.t1(); }, "te must be before t1");
  redo_error([](const TentativeStep& s) { return s.t1() + 1.0; }, "te must be before t1");
  redo_error([](const TentativeStep& s) { return s.t0(); }, "te must be after t0");
  redo_error([](const TentativeStep& s) { return s.t0() + 0.5e-3; }, "te must be at least dt_min after t0");
  redo_error([](const TentativeStep& s) { return s.t0() + 0.5e-3; },
             "dt_min = 0.001, so te must be in [0.001, ");
  redo_error([](const TentativeStep&) { return std::nan(""); }, "redo_to(te = nan) for the step [0, ");
}

TEST_CASE("a continuation bound not after t1 or a non-finite adjusted state is an error") {
  const auto error = [](auto answer_of_step, const char* text) {
    CAPTURE(text);
    const auto check = [&](TentativeStep& step) { return answer_of_step(step); };
    SecondOrderSolver solver(kPush, tight_options(1e-10), 0.0, kZero, kZero, check);
    CHECK_THROWS_WITH_AS(solver.run(1.0), doctest::Contains(text), std::invalid_argument);
    CHECK(solver.time() == 0.0);
  };
  error([](TentativeStep& s) { return CheckAnswer::take_and_continue(s.t1()); },
        "the bound must be after t1");
  error([](TentativeStep& s) { return CheckAnswer::take_and_continue(s.t0()); },
        "take_and_continue(bound = 0)");
  error([](TentativeStep&) { return CheckAnswer::take_and_continue(std::nan("")); },
        "bound must be after t1");
  error(
      [](TentativeStep& s) {
        s.v1()[0] = kInf;
        return CheckAnswer::take_and_stop();
      },
      "non-finite v1[0] = inf");
}

TEST_CASE("a non-finite acceleration is an error naming the component and the time") {
  const SecondOrderProblem problem{2, breaks_down, nullptr};
  const std::array p0{1.0, 0.0};
  const std::array v0{0.0, 0.0};
  SecondOrderSolver solver(problem, tight_options(1e-8), 0.0, p0, v0);
  CHECK_THROWS_WITH_AS(solver.run(1.0), doctest::Contains("non-finite acceleration a[1] = nan at t = 0.5"),
                       RunError);
  CHECK(solver.time() <= 0.5);
  // at the start: the constructor evaluates F once
  CHECK_THROWS_WITH_AS(SecondOrderSolver(problem, tight_options(1e-8), 0.75, p0, v0),
                       doctest::Contains("a[1] = nan at t = 0.75"), RunError);
}

TEST_CASE("an exception from check_step comes through and leaves the solver at the step's start") {
  const auto check = [](TentativeStep&) -> CheckAnswer {
    throw std::runtime_error("guard of plant.wall failed");
  };
  const std::array p0{4.0};
  SecondOrderSolver solver(kPush, tight_options(1e-10), 1.0, p0, kZero, check);
  CHECK_THROWS_WITH_AS(solver.run(2.0), "guard of plant.wall failed", std::runtime_error);
  CHECK(solver.time() == 1.0);
  CHECK(solver.position()[0] == 4.0);
}

TEST_CASE("bad construction arguments are errors that name them") {
  const std::array one{0.0};
  const std::array two{0.0, 0.0};
  const auto throws = [](auto make, const char* text) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(make(), doctest::Contains(text), std::invalid_argument);
  };
  const SecondOrderOptions ok = tight_options(1e-8);
  const SecondOrderProblem pair{2, oscillators, nullptr};
  throws([&] { return SecondOrderSolver({0, push, nullptr}, ok, 0.0, {}, {}); }, "size m");
  throws(
      [&] {
        return SecondOrderSolver({1, nullptr, nullptr}, ok, 0.0, one, one);
      },
      "no acceleration function");
  throws([&] { return SecondOrderSolver(pair, ok, 0.0, one, two); },
         "p0 has 1 values, the problem has m = 2");
  throws([&] { return SecondOrderSolver(pair, ok, 0.0, two, one); }, "v0 has 1 values");
  const std::array nan_p{std::nan(""), 0.0};
  throws([&] { return SecondOrderSolver(pair, ok, 0.0, nan_p, two); }, "p0[0] = nan is not finite");
  throws([&] { return SecondOrderSolver(pair, ok, kInf, two, two); }, "t0 must be finite");
  SecondOrderOptions tolerances = ok;
  tolerances.position_tolerance = {1e-8, 1e-8, 1e-8};
  throws([&] { return SecondOrderSolver(pair, tolerances, 0.0, two, two); },
         "position_tolerance has 3 values: give 1 (for all) or m = 2");
  tolerances = ok;
  tolerances.velocity_tolerance = {1e-8, 0.0};
  throws([&] { return SecondOrderSolver(pair, tolerances, 0.0, two, two); },
         "velocity_tolerance values must be finite and > 0");
  SecondOrderOptions steps = ok;
  steps.dt_min = 0.5;
  steps.dt_max = 0.1;
  throws([&] { return SecondOrderSolver(pair, steps, 0.0, two, two); }, "dt_min = 0.5 exceeds dt_max = 0.1");
  steps = ok;
  steps.rtol = -1.0;
  throws([&] { return SecondOrderSolver(pair, steps, 0.0, two, two); }, "rtol");
  steps = ok;
  steps.max_stalls = 0;
  throws([&] { return SecondOrderSolver(pair, steps, 0.0, two, two); }, "max_stalls");

  SecondOrderSolver solver(kPush, ok, 1.0, kZero, kZero);
  CHECK_THROWS_WITH_AS(solver.run(0.5), doctest::Contains("t_end = 0.5 must be finite and not before"),
                       std::invalid_argument);
  CHECK(solver.run(1.0).stop == SecondOrderStop::kReachedEnd);  // t_end == time(): nothing to do
  std::array<double, 1> p{};
  std::array<double, 2> v{};
  const auto check = [&](TentativeStep& step) {
    CHECK_THROWS_WITH_AS(step.state_at(step.t1(), p, v), doctest::Contains("need 1 values each"),
                         std::invalid_argument);
    CHECK_THROWS_AS(step.state_at(step.t1() + 1.0, p, std::span<double>(v).first(1)), std::out_of_range);
    return CheckAnswer::take_and_stop();
  };
  SecondOrderSolver checked(kPush, ok, 0.0, kZero, kZero, check);
  CHECK(checked.run(1.0).stop == SecondOrderStop::kStoppedAtEnd);
}

TEST_CASE("the problem helper wraps a callable object without std::function") {
  const double omega = 2.0;
  int evaluations = 0;
  auto spring = [&](double /*t*/, const double* p, const double* /*v*/, double* a) {
    ++evaluations;
    a[0] = -omega * omega * p[0];
  };
  const SecondOrderProblem problem = ctde::make_second_order_problem(1, spring);
  const std::array p0{1.0};
  SecondOrderSolver solver(problem, tight_options(1e-10), 0.0, p0, kZero);
  REQUIRE(solver.run(1.0).stop == SecondOrderStop::kReachedEnd);
  CHECK(std::abs(solver.position()[0] - std::cos(omega)) <= 1e-7);
  const auto stats = solver.statistics();
  CHECK(stats.acceleration_evals == 1);  // the constructor's a0
  CHECK(evaluations == stats.ode.rhs_evals + stats.acceleration_evals);
  SecondOrderSolver moved = std::move(solver);  // the integrator moves with it
  REQUIRE(moved.run(2.0).stop == SecondOrderStop::kReachedEnd);
  CHECK(std::abs(moved.position()[0] - std::cos(2.0 * omega)) <= 1e-7);
}
