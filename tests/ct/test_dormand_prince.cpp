// The project's Dormand–Prince stepper (domains/ct/dormand_prince.hpp), through
// OdeSolver as the director uses it: closed forms, its dense output, and the same
// problems on ARKODE's erk45 (OdeIntegrator::kArkode) for agreement, step counts
// and every failure status.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>

#include "domains/ct/ode_solver.hpp"
#include "support/ode_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace doctest {
template <>
struct StringMaker<OdeIntegrator> {
  static String convert(OdeIntegrator integrator) {
    return integrator == OdeIntegrator::kCtde ? "ctde" : "arkode";
  }
};
}  // namespace doctest

namespace {

constexpr std::array kBoth{OdeIntegrator::kCtde, OdeIntegrator::kArkode};

// x' = cos(t) x: x(t) = e^{sin t} (time-dependent, every stage's time matters)
int periodic_growth(double t, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = std::cos(t) * x[0];
  return 0;
}
// Van der Pol, mu = 1 (no closed form: the two integrators against each other)
int van_der_pol(double /*t*/, const double* x, double* dxdt, void* /*user*/) {
  dxdt[0] = x[1];
  dxdt[1] = (1.0 - x[0] * x[0]) * x[1] - x[0];
  return 0;
}

OdeOptions options_for(OdeIntegrator integrator, double rtol = 1e-6, double atol = 1e-9) {
  OdeOptions options;
  options.method = SolverKind::kErk45;
  options.integrator = integrator;
  options.rtol = rtol;
  options.atol = atol;
  return options;
}

OdeSolver make(RhsFunction rhs, std::span<const double> x0, const OdeOptions& options, void* user = nullptr) {
  return OdeSolver(OdeProblem{x0.size(), rhs, nullptr, nullptr, user}, options, 0.0, x0);
}

}  // namespace

TEST_CASE("Dormand-Prince follows exponential decay to within its tolerance at every step") {
  const std::array x0{1.0};
  OdeSolver solver = make(decay, x0, options_for(OdeIntegrator::kCtde));
  StepResult result;
  do {
    result = solver.step(10.0);
    REQUIRE(result.ok());
    const double t = solver.current_time();
    CHECK(std::abs(solver.state()[0] - std::exp(-t)) <= 10 * (1e-6 * std::exp(-t) + 1e-9));
  } while (result.status == StepStatus::kOk);
  CHECK(solver.current_time() == 10.0);
  CHECK(solver.statistics().steps > 5);
}

TEST_CASE("Dormand-Prince follows a harmonic oscillator over ten periods") {
  const std::array x0{1.0, 0.0};
  const double t_end = 20 * std::numbers::pi;
  for (double rtol : {1e-6, 1e-9}) {
    CAPTURE(rtol);
    OdeSolver solver = make(oscillator, x0, options_for(OdeIntegrator::kCtde, rtol, rtol * 1e-3));
    REQUIRE(advance(solver, t_end).status == StepStatus::kReachedStop);
    // global error: about the local tolerance per period
    CHECK(std::abs(solver.state()[0] - 1.0) <= 100 * rtol);
    CHECK(std::abs(solver.state()[1]) <= 100 * rtol);
  }
}

TEST_CASE("Dormand-Prince's dense output follows the closed form inside every step") {
  const std::array x0{1.0};
  OdeSolver solver = make(periodic_growth, x0, options_for(OdeIntegrator::kCtde));
  double worst_dense = 0;
  double worst_end = 0;
  std::array<double, 1> x{};
  StepResult result;
  do {
    result = solver.step(10.0);
    REQUIRE(result.ok());
    const double t0 = solver.last_step_start();
    const double t1 = solver.last_step_end();
    worst_end = std::max(worst_end, std::abs(solver.state()[0] - std::exp(std::sin(t1))));
    for (int j = 1; j < 10; ++j) {
      const double t = t0 + (t1 - t0) * j / 10.0;
      solver.dense_output(t, x.data());
      worst_dense = std::max(worst_dense, std::abs(x[0] - std::exp(std::sin(t))));
    }
    solver.dense_output(t1, x.data());
    CHECK(x[0] == solver.state()[0]);  // the ends exactly
    solver.dense_output(t0, x.data());
    CHECK(x[0] == solver.last_step_start_state()[0]);
  } while (result.status == StepStatus::kOk);
  MESSAGE("worst error: dense " << worst_dense << ", step ends " << worst_end);
  // |x| <= e: the tolerance is about 3e-6 absolute; order 4 inside a step, not 5
  CHECK(worst_dense <= 3e-5);
  CHECK(worst_dense >= worst_end);  // it is an interpolant, not the steps themselves
}

TEST_CASE("Dormand-Prince's dense output is of order 4 across one step") {
  // One step of x' = -x from the exact x0 with a given h: the interpolant's error
  // in the middle of the step falls like h^5 (order 4 locally).
  const auto mid_error = [](double h) {
    const std::array x0{1.0};
    OdeOptions options = options_for(OdeIntegrator::kCtde, 1.0, 1.0);  // accept any step
    options.initial_step = h;
    OdeSolver solver = make(decay, x0, options);
    REQUIRE(solver.step(10.0).ok());
    REQUIRE(solver.last_step_end() == doctest::Approx(h));
    std::array<double, 1> x{};
    solver.dense_output(0.4 * h, x.data());
    return std::abs(x[0] - std::exp(-0.4 * h));
  };
  const double coarse = mid_error(0.4);
  const double fine = mid_error(0.2);
  MESSAGE("error at 0.4 h: h = 0.4 " << coarse << ", h = 0.2 " << fine);
  CHECK(coarse / fine >= 16);  // 2^5 = 32 asymptotically; a linear interpolant gives 4
  CHECK(coarse <= 1e-4);
}

TEST_CASE("the ctde and ARKODE Dormand-Prince agree and take about the same steps") {
  struct Case {
    const char* name;
    RhsFunction rhs;
    std::array<double, 2> x0;
    std::size_t n;
    double t_end;
  };
  const std::array cases{Case{"oscillator", oscillator, {1.0, 0.0}, 2, 20 * std::numbers::pi},
                         Case{"van der pol", van_der_pol, {2.0, 0.0}, 2, 20.0},
                         Case{"periodic growth", periodic_growth, {1.0, 0.0}, 1, 30.0}};
  for (const Case& c : cases) {
    for (double rtol : {1e-4, 1e-6, 1e-8}) {
      const std::string name = c.name;
      CAPTURE(name);
      CAPTURE(rtol);
      const std::span<const double> x0{c.x0.data(), c.n};
      OdeSolver own = make(c.rhs, x0, options_for(OdeIntegrator::kCtde, rtol, rtol * 1e-3));
      OdeSolver arkode = make(c.rhs, x0, options_for(OdeIntegrator::kArkode, rtol, rtol * 1e-3));
      REQUIRE(advance(own, c.t_end).status == StepStatus::kReachedStop);
      REQUIRE(advance(arkode, c.t_end).status == StepStatus::kReachedStop);
      for (std::size_t i = 0; i < c.n; ++i) {
        CHECK(std::abs(own.state()[i] - arkode.state()[i]) <= 100 * rtol * (1 + std::abs(arkode.state()[i])));
      }
      const auto mine = own.statistics();
      const auto theirs = arkode.statistics();
      MESSAGE(c.name << " rtol " << rtol << ": steps " << mine.steps << " / " << theirs.steps << ", rejected "
                     << mine.error_test_failures << " / " << theirs.error_test_failures << ", f "
                     << mine.rhs_evals << " / " << theirs.rhs_evals);
      CHECK(std::abs(mine.steps - theirs.steps) <= 0.15 * static_cast<double>(theirs.steps) + 2);
      CHECK(std::abs(mine.rhs_evals - theirs.rhs_evals) <= 0.15 * static_cast<double>(theirs.rhs_evals));
    }
  }
}

TEST_CASE("the first step is ARKODE's estimate, or initial_step") {
  const std::array x0{1.0, 0.0};
  OdeSolver own = make(oscillator, x0, options_for(OdeIntegrator::kCtde));
  OdeSolver arkode = make(oscillator, x0, options_for(OdeIntegrator::kArkode));
  REQUIRE(own.step(10.0).ok());
  REQUIRE(arkode.step(10.0).ok());
  CHECK(own.last_step_end() == doctest::Approx(arkode.last_step_end()).epsilon(1e-6));

  OdeOptions options = options_for(OdeIntegrator::kCtde);
  options.initial_step = 1e-3;
  OdeSolver given = make(oscillator, x0, options);
  REQUIRE(given.step(10.0).ok());
  CHECK(given.last_step_end() == 1e-3);
}

TEST_CASE("Dormand-Prince counts six evaluations per attempt plus the first") {
  const std::array x0{1.0, 0.0};
  OdeOptions options = options_for(OdeIntegrator::kCtde, 1e-8, 1e-11);
  options.initial_step = 0.5;  // rejected at first: attempts > steps
  OdeSolver solver = make(van_der_pol, x0, options);
  REQUIRE(advance(solver, 5.0).status == StepStatus::kReachedStop);
  const auto stats = solver.statistics();
  CHECK(stats.error_test_failures > 0);
  CHECK(stats.step_attempts == stats.steps + stats.error_test_failures);
  CHECK(stats.rhs_evals == 6 * stats.step_attempts + 1);
}

TEST_CASE("max_step and min_step bound every Dormand-Prince step") {
  const std::array x0{1.0};
  OdeOptions options = options_for(OdeIntegrator::kCtde);
  options.max_step = 0.05;
  options.min_step = 0.01;
  OdeSolver solver = make(decay, x0, options);
  StepResult result;
  do {
    result = solver.step(3.0);
    REQUIRE(result.ok());
    const double h = solver.last_step_end() - solver.last_step_start();
    CHECK(h <= 0.05 * (1 + 1e-12));
    if (result.status == StepStatus::kOk) CHECK(h >= 0.01 * (1 - 1e-12));
  } while (result.status == StepStatus::kOk);
  CHECK(solver.statistics().steps >= 60);
}

TEST_CASE("reset, correct_state and redo_to set the next Dormand-Prince step as documented") {
  const std::array x0{1.0, 0.0};
  OdeSolver solver = make(oscillator, x0, options_for(OdeIntegrator::kCtde));
  for (int i = 0; i < 5; ++i) REQUIRE(solver.step(100.0).status == StepStatus::kOk);

  // correct_state keeps the planned step
  const double planned = solver.planned_step();
  REQUIRE(planned > 0);
  const std::array corrected{solver.state()[0], solver.state()[1]};
  solver.correct_state(corrected.data());
  CHECK(solver.planned_step() == planned);
  CHECK(solver.last_step_start() == solver.current_time());

  // redo_to: the rolled-back step's end is one step away again, x(te) from the dense output
  const double t_before = solver.current_time();
  REQUIRE(solver.step(100.0).status == StepStatus::kOk);
  const double t0 = solver.last_step_start();
  const double t1 = solver.last_step_end();
  const double te = 0.5 * (t0 + t1);
  std::array<double, 2> x_te{};
  solver.dense_output(te, x_te.data());
  solver.redo_to(te);
  CHECK(t0 == t_before);
  CHECK(solver.current_time() == te);
  CHECK(solver.state()[0] == x_te[0]);
  CHECK(solver.planned_step() == doctest::Approx(t1 - t0));
  CHECK_THROWS_AS(solver.dense_output(0.5 * (t0 + te), x_te.data()), std::out_of_range);
  CHECK(solver.step(t1).status == StepStatus::kReachedStop);  // one step
  CHECK(std::abs(solver.state()[0] - std::cos(t1)) <= 1e-5);

  // reset with a first step: the next step is that one (accepted here)
  const double t = solver.current_time();
  const std::array x{std::cos(t), -std::sin(t)};
  solver.reset(t, x.data(), 1e-4);
  CHECK(solver.planned_step() == 1e-4);
  REQUIRE(solver.step(100.0).status == StepStatus::kOk);
  CHECK(solver.last_step_start() == t);  // exactly: the step is the one given
  CHECK(solver.last_step_end() == t + 1e-4);
}

TEST_CASE("a Dormand-Prince saved exactly goes on in a new solver as the one that saved it") {
  // Saved after a step (a stage kept for the next, a planned step, the
  // controller's memory of the last error) and after a stop time: the new
  // solver takes the very same steps, dense output included.
  const std::array x0{1.0};
  for (const double stop : {0.0, 2.5}) {
    CAPTURE(stop);
    OdeSolver first = make(periodic_growth, x0, options_for(OdeIntegrator::kCtde));
    REQUIRE(first.saves_exactly());
    for (int i = 0; i < 7; ++i) REQUIRE(first.step(100.0).status == StepStatus::kOk);
    if (stop > 0) {
      while (first.step(stop).status != StepStatus::kReachedStop) {
      }
    }
    StateWriter out;
    first.save_exact(out);
    OdeSolver second = make(periodic_growth, std::array{-7.0}, options_for(OdeIntegrator::kCtde));
    StateReader in(out.bytes(), "the solver");
    second.restore_exact(in);
    CHECK(in.remaining() == 0);
    CHECK(second.current_time() == first.current_time());
    CHECK(second.planned_step() == first.planned_step());
    CHECK(second.statistics().rhs_evals == first.statistics().rhs_evals);
    for (int i = 0; i < 20; ++i) {
      REQUIRE(first.step(100.0).status == StepStatus::kOk);
      REQUIRE(second.step(100.0).status == StepStatus::kOk);
      CHECK(second.last_step_end() == first.last_step_end());
      CHECK(second.state()[0] == first.state()[0]);
      const double inside = 0.5 * (first.last_step_start() + first.last_step_end());
      std::array<double, 1> a{};
      std::array<double, 1> b{};
      first.dense_output(inside, a.data());
      second.dense_output(inside, b.data());
      CHECK(b[0] == a[0]);
    }
    CHECK(second.statistics().rhs_evals == first.statistics().rhs_evals);
    CHECK(second.statistics().error_test_failures == first.statistics().error_test_failures);
  }
  // ARKODE keeps its history to itself: its solvers restart instead.
  OdeSolver arkode = make(periodic_growth, x0, options_for(OdeIntegrator::kArkode));
  CHECK_FALSE(arkode.saves_exactly());
}

TEST_CASE("a right-hand side's failures give the same status on both integrators") {
  for (OdeIntegrator integrator : kBoth) {
    CAPTURE(integrator);
    const std::array zero{0.0};
    const std::array one{1.0};

    SUBCASE("recoverable at a trial stage only: stepped around") {
      OdeOptions options = options_for(integrator);
      options.initial_step = 4.0;  // the first step's stages go below 0
      OdeSolver solver = make(decay_positive, one, options);
      CHECK(advance(solver, 5.0).status == StepStatus::kReachedStop);
      CHECK(solver.state()[0] == doctest::Approx(std::exp(-5.0)).epsilon(1e-4));
    }
    SUBCASE("recoverable from t = 0.5 on: the solver creeps up to it, then fails") {
      FailAfter failure{0.5, 1};
      OdeSolver solver = make(failing, zero, options_for(integrator), &failure);
      const StepResult result = advance(solver, 2.0);
      CHECK(result.status == StepStatus::kRhsFailed);
      CHECK(result.recoverable_retries <= 10);
      CHECK(solver.current_time() >= 0.5 - 1e-9);
      CHECK(solver.current_time() <= 0.5);
      CHECK(result.message.find("right-hand side") != std::string::npos);
      CHECK(std::abs(solver.state()[0] - (1 - std::exp(-solver.current_time()))) <= 1e-5);
    }
    SUBCASE("recoverable at the step's start: fails at once") {
      FailAfter failure{-1.0, 1};
      OdeSolver solver = make(failing, zero, options_for(integrator), &failure);
      const StepResult result = solver.step(1.0);
      CHECK(result.status == StepStatus::kRhsFailed);
      CHECK(result.recoverable_retries == 0);
      CHECK(solver.current_time() == 0.0);
    }
    SUBCASE("unrecoverable: fails, and the solver goes on after a reset") {
      FailAfter failure{0.5, -1};
      OdeSolver solver = make(failing, zero, options_for(integrator), &failure);
      const StepResult result = advance(solver, 2.0);
      CHECK(result.status == StepStatus::kRhsFailed);
      CHECK(result.message.find("right-hand side") != std::string::npos);
      CHECK(result.t_reached == solver.current_time());
      CHECK(solver.current_time() <= 0.5);
      failure.t_fail = 10.0;
      const double x = solver.state()[0];
      solver.reset(solver.current_time(), &x);
      CHECK(advance(solver, 2.0).status == StepStatus::kReachedStop);
      CHECK(std::abs(solver.state()[0] - (1 - std::exp(-2.0))) <= 1e-5);
    }
    SUBCASE("an exception comes out of step; the solver stays at its last good state") {
      OdeSolver solver = make(throwing, one, options_for(integrator));
      CHECK_THROWS_WITH_AS((void)advance(solver, 1.0), doctest::Contains("plant.spring"), std::runtime_error);
      CHECK(solver.current_time() <= 0.5);
      CHECK(std::abs(solver.state()[0] - std::exp(-solver.current_time())) <= 1e-5);
    }
    SUBCASE("too many steps without reaching the stop time") {
      OdeOptions options = options_for(integrator);
      options.max_steps = 3;
      OdeSolver solver = make(decay, one, options);
      for (int i = 0; i < 3; ++i) REQUIRE(solver.step(100.0).status == StepStatus::kOk);
      const StepResult result = solver.step(100.0);
      CHECK(result.status == StepStatus::kTooMuchWork);
      CHECK(result.message.find("max_steps") != std::string::npos);
    }
    SUBCASE("a min_step too long for the tolerance: the step is too small to pass") {
      OdeOptions options = options_for(integrator, 1e-12, 1e-15);
      options.min_step = 1.0;
      const std::array x0{1.0, 0.0};
      OdeSolver solver = make(oscillator, x0, options);
      const StepResult result = advance(solver, 10.0);
      CHECK(result.status == StepStatus::kStepTooSmall);
      CHECK(solver.current_time() == 0.0);
    }
  }
}

TEST_CASE("the director's default erk45 is the project's stepper; ARKODE's on request") {
  const std::array x0{1.0, 0.0};
  OdeOptions defaults;
  CHECK(defaults.integrator == OdeIntegrator::kCtde);
  // The two are told apart by their evaluations: ARKODE's Hermite dense output of
  // degree 4 evaluates f once more per call; the project's needs no evaluation.
  for (OdeIntegrator integrator : kBoth) {
    CAPTURE(integrator);
    OdeSolver solver = make(oscillator, x0, options_for(integrator));
    REQUIRE(solver.step(10.0).ok());
    const long before = solver.statistics().rhs_evals;
    std::array<double, 2> x{};
    solver.dense_output(0.5 * solver.last_step_end(), x.data());
    const long after = solver.statistics().rhs_evals;
    CHECK((after == before) == (integrator == OdeIntegrator::kCtde));
  }
}
