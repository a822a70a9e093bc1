// The floor of the CT benchmark: the two ODEs of bench/ct/ct_models.hpp
// integrated by a minimal Dormand–Prince 5(4) loop written here, at -O2, with
// no framework, no SUNDIALS and no allocation after the start. Every CT figure
// is quoted against it (docs/performance.md): what is left above it is the
// cost of the solver library and of the framework, not of the arithmetic.
//
// It does what ARKODE's ERKStep does with ARKODE_DORMAND_PRINCE_7_4_5 and its
// defaults, so that it takes about the same steps:
//   - the 7-stage tableau with the first-same-as-last stage (6 new RHS
//     evaluations per accepted step);
//   - the error estimate's weighted RMS norm, weights 1 / (rtol |y_n| + atol)
//     from the solution at the start of the step; a step is accepted when the
//     norm is at most 1;
//   - ARKODE's default step controller (PID: k1 = 0.58, k2 = 0.21, k3 = 0.1 on
//     the embedding's order 4, the error biased by 1.5, safety 0.96, growth at
//     most 20 per step (10^4 after the first), at most 0.3 after a failed step);
//   - a first step from the estimate h = 0.5 (1 / max(|f0|_w, |f'0|_w))^(1/2)
//     type (Hairer, Nørsett and Wanner's rule), as cheap as ARKODE's;
//   - the step cut to land on t = 100 exactly.
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
#include <optional>
#include <string>
#include <vector>

#include "bench/best_of.hpp"
#include "bench/ct/ct_models.hpp"
#include "domains/ct/dormand_prince_tableau.hpp"

namespace {

// Dormand and Prince (1980), the tableau of RK5(4)7M (the stepper's own copy).
using namespace ctde::dp5;

// ARKODE's default controller and limits.
constexpr double kK1 = 0.58, kK2 = 0.21, kK3 = 0.1;
constexpr double kOrder = 4.0;  // the embedding's
constexpr double kBias = 1.5;
constexpr double kSafety = 0.96;
constexpr double kGrowth = 20.0;
constexpr double kFirstGrowth = 1e4;
constexpr double kAfterFailure = 0.3;

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
  };
  const auto weights = [&](const std::vector<double>& at) {
    for (std::size_t i = 0; i < un; ++i) w[i] = 1.0 / (rtol * std::abs(at[i]) + atol);
  };
  const auto norm = [&](const std::vector<double>& v) {
    double sum = 0;
    for (std::size_t i = 0; i < un; ++i) sum += (v[i] * w[i]) * (v[i] * w[i]);
    return std::sqrt(sum / static_cast<double>(n));
  };

  double t = ct_models::kT0;
  rhs(t, y.data(), k[0].data());
  weights(y);
  // First step: h0 from |f0|, then refined by the second derivative's size.
  double d1 = norm(k[0]);
  double h = d1 > 1e-5 ? 0.01 / d1 : 1e-6;
  for (std::size_t i = 0; i < un; ++i) tmp[i] = y[i] + h * k[0][i];
  rhs(t + h, tmp.data(), k[1].data());
  for (std::size_t i = 0; i < un; ++i) tmp[i] = (k[1][i] - k[0][i]) / h;
  const double d2 = norm(tmp);
  const double size = std::max(d1, d2);
  const double h1 = size <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / size, 1.0 / 5.0);
  h = std::min(100 * h, h1);

  double e1 = 1.0, e2 = 1.0;  // the last two accepted steps' biased errors
  bool first = true;
  while (t < ct_models::kTEnd) {
    if (t + h > ct_models::kTEnd) h = ct_models::kTEnd - t;
    const double* y0 = y.data();
    const double* s0 = k[0].data();
    double* s1 = k[1].data();
    double* s2 = k[2].data();
    double* s3 = k[3].data();
    double* s4 = k[4].data();
    double* s5 = k[5].data();
    double* s6 = k[6].data();
    double* x = tmp.data();
    for (std::size_t i = 0; i < un; ++i) x[i] = y0[i] + h * kA21 * s0[i];
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
    const double e0 = std::max(kBias * dsm, 1e-10);
    if (dsm <= 1.0) {
      t = t + h;
      y.swap(ynew);
      k[0].swap(k[6]);  // first same as last
      weights(y);
      ++run.steps;
      const double eta =
          kSafety * std::pow(e0, -kK1 / kOrder) * std::pow(e1, kK2 / kOrder) * std::pow(e2, -kK3 / kOrder);
      h *= std::min(eta, first ? kFirstGrowth : kGrowth);
      e2 = e1;
      e1 = e0;
      first = false;
    } else {
      ++run.rejected;
      h *= std::min(kSafety * std::pow(e0, -1.0 / kOrder), kAfterFailure);
    }
  }
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (double v : y) run.checksum += v;
  return run;
}

template <class F>
void bench(const char* model, const F& f, int n, int repeats) {
  const Run best = best_of<Run>(repeats, [&] { return integrate(f, n, ct_models::kRtol, ct_models::kAtol); });
  std::printf("model=%s n=%d wall_s=%.6f steps=%ld rhs_evals=%ld rejected=%ld checksum=%.12g repeats=%d\n",
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
