// The floor of the CT benchmark: the two ODEs of bench/ct/ct_models.hpp
// integrated by a minimal Dormand–Prince 5(4) loop written here, at -O2, with
// no framework, no SUNDIALS and no allocation after the start. Every CT figure
// is quoted against it (docs/performance.md): what is left above it is the
// cost of the solver library and of the framework, not of the arithmetic.
//
// It takes the steps of the project's stepper (domains/ct/dormand_prince.cpp),
// which are ARKODE's ERKStep's with ARKODE_DORMAND_PRINCE_7_4_5 and its
// defaults, running the stepper's own step-size code
// (domains/ct/dormand_prince_controller.hpp):
//   - the 7-stage tableau with the first-same-as-last stage (6 new RHS
//     evaluations per attempt), each stage's combination written as the
//     stepper writes it (the same roundings);
//   - the error estimate's weighted RMS norm, weights 1 / (rtol |y_n| + atol)
//     from the solution at the start of the step; a step is accepted when the
//     norm is at most 1;
//   - ERKStep's PI controller and limits, ARKODE's first-step estimate and the
//     stepper's landing on t = 100 (dp5::StepController, dp5::first_step,
//     dp5::kStretch).
//
//   dp5_floor [statespace|chain1000|all] [repeats]
// Prints one line per model: model=… n=… wall_s=… steps=… rhs_evals=…
// rejected=… checksum=…, wall_s the best of `repeats` runs.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bench/best_of.hpp"
#include "bench/ct/ct_models.hpp"
#include "domains/ct/dormand_prince_controller.hpp"
#include "domains/ct/dormand_prince_tableau.hpp"

namespace {

// Dormand and Prince (1980), the tableau of RK5(4)7M, and the step-size rules:
// the stepper's own code.
using namespace ctde::dp5;

// OdeSolver::resolves (the floor does not link the library): t1 is a step away from t0.
bool resolves(double t0, double t1) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  return t1 - t0 > 4.0 * kEps * std::max(std::abs(t0), std::abs(t1));
}

struct Run : TimedRun {
  long rejected = 0;
  double checksum = 0;
};

/// Integrates x' = f(t, x) from x(t0) = 0 to kTEnd.
template <class F>
Run integrate(const F& f, int n, double rtol, double atol) {
  const auto start = std::chrono::steady_clock::now();
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> y(un, 0.0), ynew(un), tmp(un), w(un);
  std::array<std::vector<double>, 7> k;
  for (auto& stage : k) stage.resize(un);
  Run run;
  const auto rhs = [&](double t, const double* x, double* d) {
    f(t, x, d);
    ++run.rhs_evals;
    return 0;
  };
  const auto weights = [&](const std::vector<double>& at) {
    for (std::size_t i = 0; i < un; ++i) w[i] = 1.0 / (rtol * std::abs(at[i]) + atol);
  };

  double t = ct_models::kT0;
  rhs(t, y.data(), k[0].data());
  weights(y);
  int code = 0;
  double h = first_step(t, ct_models::kTEnd, un, y.data(), k[0].data(), w.data(), tmp.data(), k[1].data(),
                        rhs, code);
  StepController controller(0.0, std::numeric_limits<double>::infinity());
  int failures = 0;  // error-test failures in this step
  while (t < ct_models::kTEnd) {
    // Land on kTEnd as the stepper does (max_step unbounded).
    const double rest = ct_models::kTEnd - t;
    if (h >= rest || !resolves(t + h, ct_models::kTEnd) || kStretch * h >= rest) h = rest;
    const double* y0 = y.data();
    const double* s0 = k[0].data();
    double* s1 = k[1].data();
    double* s2 = k[2].data();
    double* s3 = k[3].data();
    double* s4 = k[4].data();
    double* s5 = k[5].data();
    double* s6 = k[6].data();
    double* x = tmp.data();
    for (std::size_t i = 0; i < un; ++i) x[i] = y0[i] + h * (kA21 * s0[i]);
    rhs(t + kC[1] * h, x, s1);
    for (std::size_t i = 0; i < un; ++i) x[i] = y0[i] + h * (kA31 * s0[i] + kA32 * s1[i]);
    rhs(t + kC[2] * h, x, s2);
    for (std::size_t i = 0; i < un; ++i) x[i] = y0[i] + h * (kA41 * s0[i] + kA42 * s1[i] + kA43 * s2[i]);
    rhs(t + kC[3] * h, x, s3);
    for (std::size_t i = 0; i < un; ++i) {
      x[i] = y0[i] + h * (kA51 * s0[i] + kA52 * s1[i] + kA53 * s2[i] + kA54 * s3[i]);
    }
    rhs(t + kC[4] * h, x, s4);
    for (std::size_t i = 0; i < un; ++i) {
      x[i] = y0[i] + h * (kA61 * s0[i] + kA62 * s1[i] + kA63 * s2[i] + kA64 * s3[i] + kA65 * s4[i]);
    }
    rhs(t + kC[5] * h, x, s5);
    double* yn = ynew.data();
    for (std::size_t i = 0; i < un; ++i) {
      yn[i] = y0[i] + h * (kB1 * s0[i] + kB3 * s2[i] + kB4 * s3[i] + kB5 * s4[i] + kB6 * s5[i]);
    }
    rhs(t + h, yn, s6);
    double sum = 0;
    for (std::size_t i = 0; i < un; ++i) {
      const double err =
          h * (kE1 * s0[i] + kE3 * s2[i] + kE4 * s3[i] + kE5 * s4[i] + kE6 * s5[i] + kE7 * s6[i]);
      sum += (err * w[i]) * (err * w[i]);
    }
    const double dsm = std::sqrt(sum / static_cast<double>(n));
    const double eta = controller.eta(h, dsm);
    if (dsm <= 1.0) {
      t = h == rest ? ct_models::kTEnd : t + h;
      y.swap(ynew);
      k[0].swap(k[6]);  // first same as last
      weights(y);
      ++run.steps;
      h *= eta;
      controller.accepted(dsm);
      failures = 0;
    } else {
      ++run.rejected;
      ++failures;
      if (controller.gives_up(h, failures)) {
        std::fprintf(stderr, "dp5_floor: the error test failed %d times in one step at t = %g\n", failures,
                     t);
        std::exit(1);
      }
      h = controller.after_failure(h, eta, failures);
    }
  }
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (double v : y) run.checksum += v;
  return run;
}

template <class F>
void bench(const char* model, const F& f, int n, int repeats) {
  const Run best = best_of<Run>(repeats, [&] { return integrate(f, n, ct_models::kRtol, ct_models::kAtol); });
  std::printf("model=%s n=%d wall_s=%.6f steps=%ld rhs_evals=%ld rejected=%ld checksum=%.17g repeats=%d\n",
              model, n, best.wall_s, best.steps, best.rhs_evals, best.rejected, best.checksum, repeats);
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<ct_models::Arguments> args = ct_models::parse_arguments(argc, argv);
  if (!args) return 2;
  if (args->runs("statespace")) {
    const ct_models::StateSpace statespace;
    bench(
        "statespace", [&](double t, const double* x, double* d) { statespace.derivatives(t, x, d); },
        ct_models::StateSpace::kN, args->repeats_or(200));
  }
  if (args->runs("chain1000")) {
    bench("chain1000", ct_models::Chain::derivatives, ct_models::Chain::kN, args->repeats_or(5));
  }
  return 0;
}
