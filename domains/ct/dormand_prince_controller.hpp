#pragma once
/// The step-size rules of the project's Dormand–Prince stepper
/// (dormand_prince.cpp), ARKODE 6.4's ERKStep defaults: its PI controller with
/// ERKStep's limits, and its first-step estimate. Header-only and free of the
/// rest of the project, so that the benchmarks' floor (bench/ct/dp5_floor.cpp)
/// runs the very same code and takes the stepper's steps (docs/performance.md,
/// "The floor").
///
/// ARKODE 6.4's ERKStep, as its diagnostics output (ERKStepSetDiagnostics) shows
/// it at work: a PI controller on the embedding's order 4 (ARKStep's default is
/// a PID one):
///   h' = 0.99 h e0^(-0.8/4) e1^(0.31/4), e = 1.2 × the error norm (e0 this
///   attempt's, e1 the last accepted step's; at least 1e-10), h' within
///   [0.1 h, 20 h] (10^4 h after a restart, h after a rejected attempt), kept
///   at h when in [h, 1.5 h], within [min_step, max_step];
///   after the second error-test failure in one step at most 0.3 h; the 7th, or
///   one at min_step, fails the step.
/// And the stepper's own landing rule (kStretch).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace ctde::dp5 {

/// ERKStep's step-size controller and its state. Copyable value type.
class StepController {
 public:
  static constexpr double kK1 = 0.8, kK2 = 0.31;  ///< PI gains
  static constexpr double kOrder = 4.0;           ///< the embedding's: the controller's exponent
  static constexpr double kBias = 1.2;
  static constexpr double kSafety = 0.99;
  static constexpr double kGrowth = 20.0;
  static constexpr double kFirstGrowth = 1e4;    ///< after a restart
  static constexpr double kAfterFailures = 0.3;  ///< the most after kSmallNef error-test failures
  static constexpr int kSmallNef = 2;
  static constexpr int kMaxNef = 7;  ///< error-test failures in one step
  static constexpr double kMinShrink = 0.1;
  static constexpr double kKeepLow = 1.0, kKeepHigh = 1.5;  ///< h' in [h, 1.5 h]: h
  static constexpr double kTiny = 1e-10;

  /// Steps within [min_step, max_step] (0 and infinity: unbounded).
  StepController(double min_step, double max_step) : min_step_(min_step), max_step_(max_step) {}

  /// As ARKODE's Reset: no error history, the next step may grow 10^4 times.
  void restart() {
    e1_ = 1.0;
    etamax_ = kFirstGrowth;
  }

  /// The factor h' / h for the next attempt after an attempt of size h whose
  /// error norm is dsm (accepted or not).
  [[nodiscard]] double eta(double h, double dsm) const {
    const double e0 = std::max(kBias * dsm, kTiny);
    double h_new = h * std::pow(e0, -kK1 / kOrder) * std::pow(std::max(e1_, kTiny), kK2 / kOrder);
    h_new *= kSafety;
    h_new = std::min(h_new, etamax_ * h);
    h_new = std::max(h_new, kMinShrink * h);
    if (h_new > h * kKeepLow * (1 - kEps) && h_new < h * kKeepHigh * (1 + kEps)) h_new = h;
    double factor = h_new / h;
    factor = std::max(factor, min_step_ / h);
    factor /= std::max(1.0, h * factor / max_step_);
    return factor;
  }

  /// The attempt with error norm dsm was accepted.
  void accepted(double dsm) {
    e1_ = kBias * dsm;
    etamax_ = kGrowth;
  }

  /// The error test failed for the `failures`-th time in one step, an attempt
  /// of size h: whether the step fails for good.
  /// Its memory (a checkpoint's: DormandPrince::save_exact).
  [[nodiscard]] double last_error() const { return e1_; }
  [[nodiscard]] double growth_limit() const { return etamax_; }
  void set_memory(double last_error, double growth_limit) {
    e1_ = last_error;
    etamax_ = growth_limit;
  }

  [[nodiscard]] bool gives_up(double h, int failures) const {
    return failures == kMaxNef || h <= min_step_ * (1 + kEps);
  }

  /// The next attempt's size after the `failures`-th error-test failure in one
  /// step, an attempt of size h for which eta() gave `factor`.
  [[nodiscard]] double after_failure(double h, double factor, int failures) {
    etamax_ = 1.0;
    return std::max(h * (failures >= kSmallNef ? std::min(factor, kAfterFailures) : factor), min_step_);
  }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  double min_step_;
  double max_step_;
  double e1_ = 1.0;               ///< the biased error of the last accepted step
  double etamax_ = kFirstGrowth;  ///< the growth limit of the next step
};

/// Not ARKODE's: a step that would end short of the stop time by less than 1 % of
/// itself is stretched to land on it, as Hairer's DOPRI5 does (DormandPrince::step).
constexpr double kStretch = 1.01;

/// ARKODE's first-step estimate from (t, y) toward t_limit: h0 = 0.5 (2 / |y''|)^(1/2),
/// |y''| a difference quotient along f in the weighted RMS norm, at most a tenth
/// of the way to t_limit and a step of forward Euler changing no state by more
/// than a tenth of itself (plus its absolute tolerance), four refinements at most.
/// `f0` is f(t, y); `weights` the error weights at y; `x` and `f` scratch of n
/// values. `rhs(t, x, f)` returns 0, or a failure code: a recoverable one (> 0)
/// shrinks the difference step up to four times, then ends the estimate; with any
/// other the result is 0 and `code` the failure.
template <class Rhs>
double first_step(double t, double t_limit, std::size_t n, const double* y, const double* f0,
                  const double* weights, double* x, double* f, Rhs&& rhs, int& code) {
  constexpr double kLowerFactor = 100.0;
  constexpr double kUpperFactor = 0.1;
  constexpr double kH0Bias = 0.5;
  constexpr int kIterations = 4;
  constexpr double kShrink = 0.2;  // after a recoverable failure of the estimate's evaluation
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  code = 0;
  const double tdist = t_limit - t;
  const double tround = kEps * std::max(std::abs(t), std::abs(t_limit));
  const double lower = kLowerFactor * tround;
  double upper_inverse = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double room = kUpperFactor * std::abs(y[i]) + 1.0 / weights[i];
    upper_inverse = std::max(upper_inverse, std::abs(f0[i]) / room);
  }
  double upper = kUpperFactor * tdist;
  if (upper * upper_inverse > 1) upper = 1.0 / upper_inverse;
  double hg = std::sqrt(lower * upper);
  if (upper < lower) return hg;

  // |y''| along f by a difference quotient over hg; h from |h² y'' / 2| = 1.
  const auto second_derivative = [&](double step, double& norm) {
    for (std::size_t i = 0; i < n; ++i) x[i] = y[i] + step * f0[i];
    const int result = rhs(t + step, x, f);
    if (result != 0) return result;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = (f[i] - f0[i]) / step * weights[i];
      sum += v * v;
    }
    norm = std::sqrt(sum / static_cast<double>(n));
    return 0;
  };
  double h_new = hg;
  double h_safe = hg;  // the last hg whose evaluation succeeded
  for (int pass = 1; pass <= kIterations; ++pass) {
    double norm = 0;
    bool evaluated = false;
    for (int tries = 0; tries < kIterations; ++tries) {
      code = second_derivative(hg, norm);
      if (code < 0) return 0;
      if (code == 0) {
        evaluated = true;
        break;
      }
      hg *= kShrink;
    }
    if (!evaluated) {
      if (pass <= 2) return 0;  // code > 0: the estimate failed
      code = 0;
      h_new = h_safe;
      break;
    }
    h_safe = hg;
    h_new = norm * upper * upper > 2 ? std::sqrt(2 / norm) : std::sqrt(hg * upper);
    if (pass == kIterations) break;
    const double ratio = h_new / hg;
    if (ratio > 0.5 && ratio < 2) break;
    if (pass > 1 && ratio > 2) {
      h_new = hg;
      break;
    }
    hg = h_new;
  }
  return std::clamp(kH0Bias * h_new, lower, upper);
}

}  // namespace ctde::dp5
