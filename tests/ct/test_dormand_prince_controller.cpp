// The step-size rules shared by the Dormand-Prince stepper and the benchmarks'
// floor (domains/ct/dormand_prince_controller.hpp): ERKStep's PI controller and
// limits in closed form, and ARKODE's first-step estimate.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>

#include "domains/ct/dormand_prince_controller.hpp"

using ctde::dp5::first_step;
using ctde::dp5::StepController;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("the PI controller gives 0.99 e0^(-0.8/4) e1^(0.31/4) of the step") {
  StepController controller(0.0, kInf);
  // e0 = 1.2 dsm = 1 and no history (e1 = 1): the safety factor alone.
  CHECK(controller.eta(1.0, 1.0 / 1.2) == doctest::Approx(0.99));
  // e0 = 2: 0.99 × 2^(-0.2), a shrink below h (the interval [h, 1.5 h] is kept as h).
  CHECK(controller.eta(2.0, 2.0 / 1.2) == doctest::Approx(0.99 * std::pow(2.0, -0.2)));
  // The accepted step's biased error is the next attempt's e1 (a factor of 1.71:
  // above the interval kept as h).
  controller.accepted(0.5 / 1.2);
  CHECK(controller.eta(1.0, 0.05 / 1.2) ==
        doctest::Approx(0.99 * std::pow(0.05, -0.2) * std::pow(0.5, 0.31 / 4)));
}

TEST_CASE("the controller keeps h for a factor in [1, 1.5] and shrinks by at most 10") {
  const StepController controller(0.0, kInf);
  // 0.99 e0^(-0.2) = 1.2: e0 = (1.2 / 0.99)^(-5).
  CHECK(controller.eta(1.0, std::pow(1.2 / 0.99, -5.0) / 1.2) == 1.0);
  // 0.99 e0^(-0.2) = 1.6: grows.
  CHECK(controller.eta(1.0, std::pow(1.6 / 0.99, -5.0) / 1.2) == doctest::Approx(1.6));
  CHECK(controller.eta(1.0, 1e12) == 0.1);
}

TEST_CASE("growth is at most 10^4 after a restart, 20 after an accepted step, 1 after a failure") {
  StepController controller(0.0, kInf);
  // dsm = 0: e0 = 1e-10, a raw factor of 0.99 × 100 = 99.
  CHECK(controller.eta(1.0, 0.0) == doctest::Approx(99.0));
  controller.accepted(1.0 / 1.2);
  CHECK(controller.eta(1.0, 0.0) == 20.0);
  CHECK(controller.after_failure(1.0, 0.5, 1) == 0.5);
  CHECK(controller.eta(1.0, 0.0) == 1.0);
  controller.accepted(1.0 / 1.2);
  CHECK(controller.eta(1.0, 0.0) == 20.0);
  controller.restart();
  CHECK(controller.eta(1.0, 0.0) == doctest::Approx(99.0));
}

TEST_CASE("after the second error-test failure in a step the next attempt is at most 0.3 h") {
  StepController controller(0.0, kInf);
  CHECK(controller.after_failure(2.0, 0.5, 1) == 1.0);
  CHECK(controller.after_failure(2.0, 0.5, 2) == doctest::Approx(0.6));
  CHECK(controller.after_failure(2.0, 0.2, 3) == doctest::Approx(0.4));
  CHECK_FALSE(controller.gives_up(2.0, 6));
  CHECK(controller.gives_up(2.0, StepController::kMaxNef));
}

TEST_CASE("min_step and max_step bound the controller's steps") {
  StepController controller(0.2, 2.0);
  CHECK(controller.eta(1.0, 1e12) == doctest::Approx(0.2));  // 0.1 raised to min_step
  CHECK(controller.eta(1.0, 0.0) == doctest::Approx(2.0));   // 99 cut to max_step
  CHECK(controller.after_failure(0.25, 0.1, 1) == 0.2);
  CHECK(controller.gives_up(0.2, 1));
  CHECK_FALSE(controller.gives_up(0.25, 1));
}

TEST_CASE("the first step of x' = -x from 1 is 0.5 (2 / |x''|_w)^(1/2)") {
  // x'' = x = 1; the weighted RMS norm of x'' is 1 / (rtol + atol).
  constexpr double kRtol = 1e-6, kAtol = 1e-9;
  const double y = 1.0;
  const double f0 = -1.0;
  const double weight = 1.0 / (kRtol * std::abs(y) + kAtol);
  double x = 0, f = 0;
  int calls = 0;
  const auto decay = [&](double /*t*/, const double* state, double* dxdt) {
    ++calls;
    dxdt[0] = -state[0];
    return 0;
  };
  int code = -1;
  const double h = first_step(0.0, 10.0, 1, &y, &f0, &weight, &x, &f, decay, code);
  CHECK(code == 0);
  CHECK(h == doctest::Approx(0.5 * std::sqrt(2.0 * (kRtol + kAtol))).epsilon(1e-6));
  CHECK(calls == 2);  // the first guess far too small, the second within a factor 2
}

TEST_CASE("the first step is at most a tenth of the way to the stop time") {
  // x' = 1: no curvature, the bound alone.
  const double y = 0.0;
  const double f0 = 1.0;
  const double weight = 1.0 / 1e-3;
  double x = 0, f = 0;
  const auto constant = [](double /*t*/, const double* /*state*/, double* dxdt) {
    dxdt[0] = 1.0;
    return 0;
  };
  int code = -1;
  const double h = first_step(0.0, 1e-4, 1, &y, &f0, &weight, &x, &f, constant, code);
  CHECK(code == 0);
  CHECK(h <= 1e-5);
  CHECK(h > 0);
}

TEST_CASE("a failing right-hand side ends the first-step estimate with its code") {
  const double y = 1.0;
  const double f0 = -1.0;
  const double weight = 1e6;
  double x = 0, f = 0;
  int code = 0;
  int calls = 0;
  const auto unrecoverable = [&](double, const double*, double*) {
    ++calls;
    return -3;
  };
  CHECK(first_step(0.0, 10.0, 1, &y, &f0, &weight, &x, &f, unrecoverable, code) == 0.0);
  CHECK(code == -3);
  CHECK(calls == 1);
  calls = 0;
  const auto recoverable = [&](double, const double*, double*) {
    ++calls;
    return 2;
  };
  CHECK(first_step(0.0, 10.0, 1, &y, &f0, &weight, &x, &f, recoverable, code) == 0.0);
  CHECK(code == 2);
  CHECK(calls == 4);  // four tries, each with a fifth of the last difference step, then given up
}
