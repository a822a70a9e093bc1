#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "domains/ct/ode_solver.hpp"
#include "support/ode_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

// Failures name the method (CAPTURE(kind)).
namespace doctest {
template <>
struct StringMaker<SolverKind> {
  static String convert(SolverKind kind) { return ctde::to_string(kind); }
};
}  // namespace doctest

namespace {

// ---- test models (analytic or reference solutions in the comments) ----------------

// x' = 1 - x, x(0) = 0: x(t) = 1 - e^{-t}
int relaxation(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = 1.0 - x[0];
  return 0;
}
// the same, split for ark-imex: fE = 1 (explicit), fI = -x (implicit)
int relaxation_explicit_part(double /*t*/, const double* /*x*/, double* dxdt, void* /*user*/) {
  dxdt[0] = 1.0;
  return 0;
}
int relaxation_implicit_part(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = -x[0];
  return 0;
}
double relaxation_exact(double t) { return 1.0 - std::exp(-t); }

double energy(std::span<const double> x) { return 0.5 * (x[0] * x[0] + x[1] * x[1]); }

// Robertson's stiff chemical kinetics (Hairer & Wanner II; the CVODE example
// cvRoberts_dns), y(0) = (1, 0, 0). Reference at t = 40:
// y = (0.7158271, 9.185535e-6, 0.2841637).
int robertson(double /*t*/, const double* y, double* dydt, void* /*user*/) {
  dydt[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2];
  dydt[2] = 3.0e7 * y[1] * y[1];
  dydt[1] = -dydt[0] - dydt[2];
  return 0;
}
int robertson_jacobian(double /*t*/, const double* y, const double* /*fy*/, double* jac, void* /*user*/) {
  const auto at = [jac](int i, int j) -> double& { return jac[i + 3 * j]; };  // column-major
  at(0, 0) = -0.04;
  at(0, 1) = 1.0e4 * y[2];
  at(0, 2) = 1.0e4 * y[1];
  at(2, 1) = 6.0e7 * y[1];
  at(1, 0) = 0.04;
  at(1, 1) = -1.0e4 * y[2] - 6.0e7 * y[1];
  at(1, 2) = -1.0e4 * y[1];
  return 0;
}

constexpr std::array kAllMethods{SolverKind::kErk45, SolverKind::kErk23,   SolverKind::kRk4Fixed,
                                 SolverKind::kDirk,  SolverKind::kArkImex, SolverKind::kRkf45,
                                 SolverKind::kBdf,   SolverKind::kAuto};

OdeOptions options_for(SolverKind kind, double rtol = 1e-6, double atol = 1e-9) {
  OdeOptions options;
  options.method = kind;
  options.rtol = rtol;
  options.atol = atol;
  if (kind == SolverKind::kRk4Fixed) options.initial_step = 0.01;
  return options;
}

// Global error allowed for x' = 1 - x on [0, 5] (|x| <= 1, contractive): a small
// multiple of the local tolerance for the adaptive methods; RK4's global error
// bound h^4 · max|x^(5)| · t / 120 < h^4 for the fixed one.
double error_bound(const OdeOptions& options) {
  if (options.method == SolverKind::kRk4Fixed) return std::pow(*options.initial_step, 4);
  return 10.0 * (options.rtol + options.atol);
}

// A solver of the scalar problem x' = rhs(t, x) from x(t0) = x0.
OdeSolver scalar_solver(RhsFunction rhs, const OdeOptions& options, double x0, double t0 = 0.0) {
  const OdeProblem problem{1, rhs, nullptr, nullptr, nullptr};
  return OdeSolver(problem, options, t0, {&x0, 1});
}

}  // namespace

TEST_CASE("every method follows x' = 1 - x to within a bound derived from its tolerance") {
  for (SolverKind kind : kAllMethods) {
    CAPTURE(kind);
    const OdeOptions options = options_for(kind);
    OdeSolver solver = scalar_solver(relaxation, options, 0.0);
    for (double t : {0.1, 0.5, 1.0, 2.0, 3.7, 5.0}) {
      const StepResult result = advance(solver, t);
      REQUIRE(result.status == StepStatus::kReachedStop);
      CHECK(std::abs(solver.state()[0] - relaxation_exact(t)) <= error_bound(options));
    }
  }
}

TEST_CASE("rkf45 follows x' = -x to exp(-t) with Fehlberg's six stages per step") {
  double previous_error = 1.0;
  for (double rtol : {1e-6, 1e-9}) {
    CAPTURE(rtol);
    const OdeOptions options = options_for(SolverKind::kRkf45, rtol, 1e-3 * rtol);
    OdeSolver solver = scalar_solver(decay, options, 1.0);
    CHECK(solver.method() == SolverKind::kRkf45);
    double worst = 0.0;
    for (double t : {0.25, 1.0, 2.5, 5.0, 10.0}) {
      REQUIRE(advance(solver, t).status == StepStatus::kReachedStop);
      // relative error: the solution decays, the tolerance is mostly relative
      const double error = std::abs(solver.state()[0] - std::exp(-t)) / std::exp(-t);
      CHECK(error <= 10.0 * (options.rtol + options.atol / std::exp(-t)));
      worst = std::max(worst, error);
    }
    CHECK(worst < previous_error);  // a tighter tolerance gives a smaller error
    previous_error = worst;
    const auto stats = solver.statistics();
    CHECK(stats.steps > 0);
    CHECK(stats.rhs_evals >= 6 * stats.steps);
  }
}

TEST_CASE("ark-imex integrates an explicit plus implicit split like the whole right-hand side") {
  const OdeOptions options = options_for(SolverKind::kArkImex);
  const OdeProblem problem{1, relaxation_explicit_part, relaxation_implicit_part, nullptr, nullptr};
  const double x0 = 0.0;
  OdeSolver solver(problem, options, 0.0, {&x0, 1});
  for (double t : {0.5, 1.0, 2.0, 5.0}) {
    REQUIRE(advance(solver, t).status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - relaxation_exact(t)) <= error_bound(options));
  }
  const auto stats = solver.statistics();
  CHECK(stats.nonlinear_iterations > 0);
  CHECK(stats.rhs_evals > stats.steps);
}

TEST_CASE("a step never passes its stop time and lands on it exactly") {
  for (SolverKind kind : kAllMethods) {
    CAPTURE(kind);
    OdeSolver solver = scalar_solver(relaxation, options_for(kind), 0.0);
    // stop times that are not sums of nice binary fractions
    for (double t_limit : {0.1 * 3.0, 1.0 / 3.0, 2.0 / 3.0 + 1e-9, 1.7, 1.7 + 1e-12}) {
      StepResult result;
      do {
        const double before = solver.current_time();
        result = solver.step(t_limit);
        REQUIRE(result.ok());
        CHECK(result.t_reached <= t_limit);
        CHECK(result.t_reached > before);
        CHECK(solver.last_step_start() == before);
        CHECK(solver.last_step_end() == result.t_reached);
      } while (result.status == StepStatus::kOk);
      CHECK(result.t_reached == t_limit);
      CHECK(solver.current_time() == t_limit);
    }
  }
}

TEST_CASE("a stop time equal to the current time takes no step; one before it is a failure") {
  OdeSolver solver = scalar_solver(relaxation, options_for(SolverKind::kErk45), 0.0, 1.0);
  const StepResult same = solver.step(1.0);
  CHECK(same.status == StepStatus::kReachedStop);
  CHECK(same.t_reached == 1.0);
  CHECK(solver.statistics().steps == 0);
  const StepResult before = solver.step(0.5);
  CHECK(before.status == StepStatus::kFailed);
  CHECK(before.message.find("not after the current time") != std::string::npos);
  CHECK(solver.current_time() == 1.0);
}

TEST_CASE("a stop time a few ulps ahead advances the time without integrating") {
  OdeSolver solver = scalar_solver(relaxation, options_for(SolverKind::kErk45), 0.25, 1000.0);
  const double t_limit = std::nextafter(1000.0, 2000.0);
  const StepResult result = solver.step(t_limit);
  CHECK(result.status == StepStatus::kReachedStop);
  CHECK(solver.current_time() == t_limit);
  CHECK(solver.state()[0] == 0.25);
  REQUIRE(advance(solver, 1001.0).status == StepStatus::kReachedStop);
  CHECK(std::abs(solver.state()[0] - (1.0 - 0.75 * std::exp(-1.0))) <= 1e-5);
}

TEST_CASE("dense output inside a step matches the analytic solution, and its ends are exact") {
  for (SolverKind kind : kAllMethods) {
    CAPTURE(kind);
    const OdeOptions options = options_for(kind);
    OdeSolver solver = scalar_solver(relaxation, options, 0.0);
    int checked_steps = 0;
    while (solver.current_time() < 3.0) {
      REQUIRE(solver.step(3.0).ok());
      const double t0 = solver.last_step_start();
      const double t1 = solver.last_step_end();
      if (t1 < 0.05) continue;  // the first tiny steps of the start-up say little
      for (double s : {0.1, 0.25, 0.5, 0.75, 0.9}) {
        const double t = t0 + s * (t1 - t0);
        double x = 0.0;
        solver.dense_output(t, &x);
        CHECK(std::abs(x - relaxation_exact(t)) <= error_bound(options));
      }
      double at_end = -1.0;
      solver.dense_output(t1, &at_end);
      CHECK(at_end == solver.state()[0]);
      ++checked_steps;
    }
    CHECK(checked_steps > 0);
  }
}

TEST_CASE("dense output outside the last step is an error") {
  OdeSolver solver = scalar_solver(relaxation, options_for(SolverKind::kErk45), 0.0);
  REQUIRE(solver.step(1.0).ok());
  REQUIRE(solver.step(1.0).ok());
  double x = 0.0;
  CHECK_THROWS_AS(solver.dense_output(0.0, &x), std::out_of_range);
  CHECK_THROWS_AS(solver.dense_output(solver.current_time() + 0.5, &x), std::out_of_range);
}

TEST_CASE("reset changes the state and the same integrator continues from it") {
  for (SolverKind kind : kAllMethods) {
    CAPTURE(kind);
    const OdeOptions options = options_for(kind);
    OdeSolver solver = scalar_solver(decay, options, 1.0);
    REQUIRE(advance(solver, 1.0).status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - std::exp(-1.0)) <= error_bound(options));
    const auto before = solver.statistics();

    const double jumped = 2.0;  // x⁺ = 2 at t = 1: x(t) = 2 e^{-(t - 1)}
    solver.reset(1.0, &jumped);
    CHECK(solver.current_time() == 1.0);
    CHECK(solver.state()[0] == 2.0);
    CHECK(solver.last_step_start() == 1.0);
    CHECK(solver.last_step_end() == 1.0);
    double x = 0.0;
    solver.dense_output(1.0, &x);
    CHECK(x == 2.0);

    REQUIRE(advance(solver, 3.0).status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - 2.0 * std::exp(-2.0)) <= 2.0 * error_bound(options));
    const auto after = solver.statistics();
    CHECK(after.steps > before.steps);  // counters continue: the same ARKODE memory
    CHECK(after.rhs_evals > before.rhs_evals);
  }
}

TEST_CASE("redo_to rolls the last step back to its interpolated state and stepping goes on") {
  for (SolverKind kind : kAllMethods) {
    CAPTURE(kind);
    const OdeOptions options = options_for(kind);
    OdeSolver solver = scalar_solver(relaxation, options, 0.0);
    while (solver.current_time() < 0.5) REQUIRE(solver.step(4.0).ok());
    const double t0 = solver.last_step_start();
    const double t1 = solver.last_step_end();
    double x_start = 0.0;
    solver.dense_output(t0, &x_start);

    const double te = t0 + 0.4 * (t1 - t0);
    double x_te = 0.0;
    solver.dense_output(te, &x_te);
    solver.redo_to(te);
    CHECK(solver.current_time() == te);
    CHECK(solver.last_step_start() == t0);
    CHECK(solver.last_step_end() == te);
    CHECK(solver.state()[0] == x_te);
    CHECK(std::abs(x_te - relaxation_exact(te)) <= error_bound(options));
    double x = -1.0;
    CHECK_THROWS_AS(solver.dense_output(0.5 * (t0 + te), &x), std::out_of_range);

    // back to the step's start, exactly, then re-integrate to te
    solver.redo_to(t0);
    CHECK(solver.state()[0] == x_start);
    REQUIRE(advance(solver, te).status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - relaxation_exact(te)) <= error_bound(options));

    REQUIRE(advance(solver, 4.0).status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - relaxation_exact(4.0)) <= error_bound(options));
    CHECK_THROWS_AS(solver.redo_to(solver.last_step_start() - 1.0), std::out_of_range);
  }
}

TEST_CASE("a harmonic oscillator keeps its energy to tolerance over 10 periods") {
  for (SolverKind kind : {SolverKind::kErk45, SolverKind::kErk23, SolverKind::kDirk}) {
    CAPTURE(kind);
    const OdeOptions options = options_for(kind, 1e-9, 1e-12);
    const OdeProblem problem{2, oscillator, nullptr, nullptr, nullptr};
    const std::array x0{1.0, 0.0};
    OdeSolver solver(problem, options, 0.0, x0);
    const double e0 = energy(solver.state());
    const double t_end = 10.0 * 2.0 * std::numbers::pi;
    REQUIRE(advance(solver, t_end).status == StepStatus::kReachedStop);
    // 10 periods at rtol 1e-9: the energy error stays within a few 1e-7
    CHECK(std::abs(energy(solver.state()) - e0) / e0 <= 1e-6);
    CHECK(std::abs(solver.state()[0] - 1.0) <= 1e-6);  // back at x = cos(20π) = 1
  }
}

TEST_CASE("rk4-fixed takes steps of its fixed size with four evaluations each, at order 4") {
  const OdeProblem problem{1, relaxation, nullptr, nullptr, nullptr};
  const double x0 = 0.0;
  double previous_error = 0.0;
  for (double h : {0.1, 0.05, 0.025}) {
    OdeOptions options = options_for(SolverKind::kRk4Fixed);
    options.initial_step = h;
    OdeSolver solver(problem, options, 0.0, {&x0, 1});
    REQUIRE(solver.step(1.0).status == StepStatus::kOk);
    CHECK(solver.last_step_end() - solver.last_step_start() == doctest::Approx(h));
    REQUIRE(advance(solver, 1.0).status == StepStatus::kReachedStop);
    const auto stats = solver.statistics();
    CHECK(stats.steps == std::lround(1.0 / h));
    CHECK(stats.rhs_evals <= 4 * stats.steps + 2);
    const double error = std::abs(solver.state()[0] - relaxation_exact(1.0));
    if (previous_error > 0.0) {
      CHECK(previous_error / error == doctest::Approx(16.0).epsilon(0.1));
    }
    previous_error = error;
  }
}

TEST_CASE("Robertson's stiff problem: dirk needs ten times fewer steps than erk45") {
  OdeOptions options;
  options.rtol = 1e-6;
  options.atol_per_state = {1e-10, 1e-14, 1e-10};
  const std::array y0{1.0, 0.0, 0.0};
  const std::array reference{0.7158271, 9.185535e-6, 0.2841637};

  const auto solve = [&](SolverKind kind, ctde::JacobianFunction jacobian) {
    options.method = kind;
    const OdeProblem problem{3, robertson, nullptr, jacobian, nullptr};
    OdeSolver solver(problem, options, 0.0, y0);
    const StepResult result = advance(solver, 40.0);
    REQUIRE(result.status == StepStatus::kReachedStop);
    CHECK(std::abs(solver.state()[0] - reference[0]) <= 1e-5);
    CHECK(std::abs(solver.state()[1] - reference[1]) <= 1e-9);
    CHECK(std::abs(solver.state()[2] - reference[2]) <= 1e-5);
    return solver.statistics();
  };
  const auto dirk_fd = solve(SolverKind::kDirk, nullptr);
  const auto dirk_jac = solve(SolverKind::kDirk, robertson_jacobian);
  const auto erk = solve(SolverKind::kErk45, nullptr);
  MESSAGE("steps: dirk " << dirk_fd.steps << " (user Jacobian " << dirk_jac.steps << "), erk45 "
                         << erk.steps);
  CHECK(erk.steps >= 10 * dirk_fd.steps);
  CHECK(erk.steps >= 10 * dirk_jac.steps);
  CHECK(dirk_fd.jacobian_rhs_evals > 0);    // finite differences
  CHECK(dirk_jac.jacobian_rhs_evals == 0);  // the user's Jacobian
  CHECK(dirk_jac.jacobian_evals > 0);
  CHECK(dirk_jac.linear_setups > 0);
  CHECK(dirk_jac.nonlinear_iterations >= dirk_jac.steps);
}

TEST_CASE("a right-hand side that fails gives a failure status and a usable solver") {
  for (SolverKind kind : {SolverKind::kErk45, SolverKind::kDirk}) {
    for (int code : {-1, 1}) {
      CAPTURE(kind);
      CAPTURE(code);
      FailAfter failure{0.5, code};
      const OdeProblem problem{1, failing, nullptr, nullptr, &failure};
      const double x0 = 0.0;
      OdeOptions options = options_for(kind);
      options.max_steps = 2000;
      OdeSolver solver(problem, options, 0.0, {&x0, 1});
      StepResult result = advance(solver, 2.0);
      // > 0 is recoverable: the step is tried again shorter (by the wrapper for
      // erk45, inside ARKODE's Newton iteration for dirk), and the solver creeps up to
      // t = 0.5 (the failure persists) until the step is too short to integrate
      // (erk45) or the step count runs out (dirk)
      CHECK_FALSE(result.ok());
      CAPTURE(result.message);
      if (code > 0) CHECK(solver.current_time() >= 0.5 - 1e-9);
      if (kind == SolverKind::kDirk && code > 0) {
        CHECK(result.status == StepStatus::kTooMuchWork);
      } else {
        CHECK(result.status == StepStatus::kRhsFailed);
      }
      CHECK_FALSE(result.message.empty());
      CHECK(result.t_reached == solver.current_time());
      CHECK(solver.current_time() <= 0.5 + 1e-12);
      CHECK(std::abs(solver.state()[0] - relaxation_exact(solver.current_time())) <= 1e-5);

      failure.t_fail = 10.0;  // repaired: the same solver goes on after a reset
      const double x_now = solver.state()[0];
      solver.reset(solver.current_time(), &x_now);
      result = advance(solver, 2.0);
      CHECK(result.status == StepStatus::kReachedStop);
      CHECK(std::abs(solver.state()[0] - relaxation_exact(2.0)) <= 1e-4);
    }
  }
}

TEST_CASE("a recoverable failure at a trial stage only is stepped around with shorter steps") {
  for (SolverKind kind : {SolverKind::kErk45, SolverKind::kErk23, SolverKind::kRkf45, SolverKind::kDirk}) {
    CAPTURE(kind);
    const OdeProblem problem{1, decay_positive, nullptr, nullptr, nullptr};
    const double x0 = 1.0;
    OdeOptions options = options_for(kind);
    options.initial_step = 4.0;  // the first step's stages go below 0
    OdeSolver solver(problem, options, 0.0, {&x0, 1});
    const StepResult result = advance(solver, 5.0);
    CHECK(result.status == StepStatus::kReachedStop);
    CHECK(solver.state()[0] == doctest::Approx(std::exp(-5.0)).epsilon(1e-4));
  }
}

TEST_CASE("an unrecoverable right-hand side failure is named by its ARKODE flag") {
  FailAfter failure{0.0, -1};
  const OdeProblem problem{1, failing, nullptr, nullptr, &failure};
  const double x0 = 0.0;
  OdeOptions options = options_for(SolverKind::kErk45);
  options.integrator = ctde::OdeIntegrator::kArkode;  // the project's stepper has no ARKODE flags
  OdeSolver solver(problem, options, 0.0, {&x0, 1});
  const StepResult result = solver.step(1.0);
  CHECK(result.status == StepStatus::kRhsFailed);
  CHECK(result.message.find("ARK_") != std::string::npos);
  CHECK(std::string(ctde::to_string(result.status)) == "rhs_failed");
}

TEST_CASE("an exception thrown by the right-hand side comes out of step") {
  OdeSolver solver = scalar_solver(throwing, options_for(SolverKind::kErk45), 1.0);
  CHECK_THROWS_WITH_AS((void)advance(solver, 1.0), doctest::Contains("plant.spring"), std::runtime_error);
  CHECK(solver.current_time() <= 0.5 + 1e-12);
}

TEST_CASE("too many steps without reaching the stop time is reported as too much work") {
  const OdeProblem problem{1, relaxation, nullptr, nullptr, nullptr};
  const double x0 = 0.0;
  OdeOptions options = options_for(SolverKind::kErk45);
  options.max_steps = 3;
  OdeSolver solver(problem, options, 0.0, {&x0, 1});
  for (int i = 0; i < 3; ++i) REQUIRE(solver.step(100.0).status == StepStatus::kOk);
  const StepResult result = solver.step(100.0);
  CHECK(result.status == StepStatus::kTooMuchWork);
  CHECK(result.message.find("max_steps") != std::string::npos);
}

TEST_CASE("step size limits are passed to ARKODE") {
  const OdeProblem problem{1, relaxation, nullptr, nullptr, nullptr};
  const double x0 = 0.0;
  OdeOptions options = options_for(SolverKind::kErk45);
  options.initial_step = 1e-3;
  options.max_step = 0.05;
  OdeSolver solver(problem, options, 0.0, {&x0, 1});
  REQUIRE(solver.step(1.0).ok());
  CHECK(solver.last_step_end() == 1e-3);  // the first step is the one given, accepted
  while (solver.step(1.0).status == StepStatus::kOk) {
    CHECK(solver.last_step_end() - solver.last_step_start() <= 0.05 * (1 + 1e-12));
  }
  CHECK(solver.statistics().steps >= 20);
}

TEST_CASE("construction problems are errors that name them") {
  const OdeProblem ok{1, relaxation, nullptr, nullptr, nullptr};
  const double x0 = 0.0;
  const std::span<const double> one{&x0, 1};
  const auto throws = [&](const OdeProblem& problem, const OdeOptions& options, std::span<const double> x,
                          const char* text) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(OdeSolver(problem, options, 0.0, x), doctest::Contains(text), std::runtime_error);
  };
  throws(OdeProblem{0, relaxation, nullptr, nullptr, nullptr}, OdeOptions{}, {}, "state size");
  throws(ok, OdeOptions{}, std::span<const double>{}, "initial state has 0 values");
  throws(OdeProblem{1, nullptr, nullptr, nullptr, nullptr}, OdeOptions{}, one, "no right-hand side");
  throws(OdeProblem{1, relaxation, relaxation, nullptr, nullptr}, OdeOptions{}, one, "only used by ark-imex");
  const JacobianPattern at_point(1, {{0, 0, JacobianPattern::kAtPoint}});
  OdeProblem no_values = ok;
  no_values.pattern = &at_point;
  throws(no_values, options_for(SolverKind::kBdf), one,
         "values given at each point, and no function gives them");
  OdeOptions bad_atol;
  bad_atol.atol_per_state = {1e-9, 1e-9};
  throws(ok, bad_atol, one, "atol_per_state has 2 values");
  OdeOptions bad_rtol;
  bad_rtol.rtol = -1.0;
  throws(ok, bad_rtol, one, "rtol");
  OdeOptions rk4;
  rk4.method = SolverKind::kRk4Fixed;
  throws(ok, rk4, one, "rk4-fixed needs a step size");
  OdeOptions steps;
  steps.min_step = 1.0;
  steps.max_step = 0.1;
  throws(ok, steps, one, "min_step exceeds max_step");
}

TEST_CASE("a moved solver keeps its integrator and goes on") {
  const OdeProblem problem{1, relaxation, nullptr, nullptr, nullptr};
  const double x0 = 0.0;
  OdeSolver first(problem, options_for(SolverKind::kDirk), 0.0, {&x0, 1});
  REQUIRE(advance(first, 1.0).status == StepStatus::kReachedStop);
  OdeSolver second = std::move(first);
  REQUIRE(advance(second, 2.0).status == StepStatus::kReachedStop);
  CHECK(std::abs(second.state()[0] - relaxation_exact(2.0)) <= 1e-5);
  CHECK(second.method() == SolverKind::kDirk);
  CHECK(second.size() == 1);
}
