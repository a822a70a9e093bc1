#include "domains/ct/dormand_prince.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "domains/ct/dormand_prince_controller.hpp"
#include "domains/ct/dormand_prince_tableau.hpp"

namespace ctde {

namespace {

using namespace dp5;  // the tableau's names

std::string number(double v) { return std::to_string(v); }

/// The size of the next attempt, and whether it lands on the step's limit.
struct Attempt {
  double h;
  bool lands;
};

/// The attempt from `t` toward `t_limit` with the planned step `h`. A step
/// that would end short of t_limit by less than 1 % of itself is stretched
/// to land on it, where max_step allows (as Hairer's DOPRI5 does): no sliver
/// of a step is left before a stop time. Where max_step forbids the
/// stretch, the rest is split in two equal steps.
inline Attempt next_attempt(double h, double t, double t_limit, double max_step) {
  const double rest = t_limit - t;
  bool lands = h >= rest || !OdeSolver::resolves(t + h, t_limit);
  if (!lands && kStretch * h >= rest) {
    lands = rest <= max_step;
    if (!lands) h = 0.5 * rest;
  }
  if (lands) h = rest;
  return {h, lands};
}

}  // namespace

DormandPrince::DormandPrince(const OdeProblem& problem, const OdeOptions& options, double t0,
                             std::span<const double> x0)
    : problem_(problem),
      rtol_(options.rtol),
      min_step_(options.min_step.value_or(0.0)),
      max_step_(options.max_step.value_or(std::numeric_limits<double>::infinity())),
      first_step_(options.initial_step.value_or(0.0)),
      n_(problem.size),
      storage_(12 * problem.size, 0.0),
      t_(t0),
      t0_(t0),
      controller_(min_step_, max_step_) {
  double* p = storage_.data();
  const auto take = [&] {
    double* block = p;
    p += n_;
    return block;
  };
  y0_ = take();
  y_ = take();
  ynew_ = take();
  for (double*& k : k_) k = take();
  weights_ = take();
  atol_ = take();
  std::copy(x0.begin(), x0.end(), y0_);
  std::copy(x0.begin(), x0.end(), y_);
  if (options.atol_per_state.empty()) {
    std::fill(atol_, atol_ + n_, options.atol);
  } else {
    std::copy(options.atol_per_state.begin(), options.atol_per_state.end(), atol_);
  }
}

int DormandPrince::rhs(double t, const double* x, double* dxdt) {
  ++stats_.rhs_evals;
  return problem_.rhs(t, x, dxdt, problem_.user);
}

bool DormandPrince::set_weights() {
  const double* __restrict y = y_;
  const double* __restrict atol = atol_;
  double* __restrict w = weights_;
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n_; ++i) {
    const double scale = rtol_ * std::abs(y[i]) + atol[i];
    smallest = std::min(smallest, scale);
    w[i] = 1.0 / scale;
  }
  weights_valid_ = smallest > 0;  // NaN fails too
  return weights_valid_;
}

int DormandPrince::attempt(double h, int& stage) {
  const std::size_t n = n_;
  const double t = t_;
  const double* __restrict y = y_;
  const double* __restrict k1 = k_[0];
  double* __restrict k2 = k_[1];
  double* __restrict k3 = k_[2];
  double* __restrict k4 = k_[3];
  double* __restrict k5 = k_[4];
  double* __restrict k6 = k_[5];
  double* __restrict k7 = k_[6];
  double* __restrict x = ynew_;  // the stages' arguments, then the trial state
  int code = 0;
  const auto eval = [&](int s, double* __restrict out) {
    stage = s;
    code = rhs(t + kC[static_cast<std::size_t>(s)] * h, x, out);
    return code == 0;
  };
  for (std::size_t i = 0; i < n; ++i) x[i] = y[i] + h * (kA21 * k1[i]);
  if (!eval(1, k2)) return code;
  for (std::size_t i = 0; i < n; ++i) x[i] = y[i] + h * (kA31 * k1[i] + kA32 * k2[i]);
  if (!eval(2, k3)) return code;
  for (std::size_t i = 0; i < n; ++i) x[i] = y[i] + h * (kA41 * k1[i] + kA42 * k2[i] + kA43 * k3[i]);
  if (!eval(3, k4)) return code;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = y[i] + h * (kA51 * k1[i] + kA52 * k2[i] + kA53 * k3[i] + kA54 * k4[i]);
  }
  if (!eval(4, k5)) return code;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = y[i] + h * (kA61 * k1[i] + kA62 * k2[i] + kA63 * k3[i] + kA64 * k4[i] + kA65 * k5[i]);
  }
  if (!eval(5, k6)) return code;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = y[i] + h * (kB1 * k1[i] + kB3 * k3[i] + kB4 * k4[i] + kB5 * k5[i] + kB6 * k6[i]);
  }
  (void)eval(6, k7);  // at t + h: the next step's first stage
  return code;
}

double DormandPrince::lipschitz_quotient(double h) const {
  // |k7 - k6| / |x7 - x6|: x7 = x1 (first same as last), x6 = the sixth
  // stage's argument, x1 - x6 = h Σ (b_j - a6j) k_j.
  const double* __restrict k1 = k_[0];
  const double* __restrict k2 = k_[1];
  const double* __restrict k3 = k_[2];
  const double* __restrict k4 = k_[3];
  const double* __restrict k5 = k_[4];
  const double* __restrict k6 = k_[5];
  const double* __restrict k7 = k_[6];
  double num = 0;
  double den = 0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double dk = k7[i] - k6[i];
    const double dx = h * ((kB1 - kA61) * k1[i] - kA62 * k2[i] + (kB3 - kA63) * k3[i] + (kB4 - kA64) * k4[i] +
                           (kB5 - kA65) * k5[i] + kB6 * k6[i]);
    num += dk * dk;
    den += dx * dx;
  }
  return den > 0 ? std::sqrt(num / den) : 0.0;
}

double DormandPrince::error_norm(double h) const {
  const double* __restrict k1 = k_[0];
  const double* __restrict k3 = k_[2];
  const double* __restrict k4 = k_[3];
  const double* __restrict k5 = k_[4];
  const double* __restrict k6 = k_[5];
  const double* __restrict k7 = k_[6];
  const double* __restrict w = weights_;
  double sum = 0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double e = h * (kE1 * k1[i] + kE3 * k3[i] + kE4 * k4[i] + kE5 * k5[i] + kE6 * k6[i] + kE7 * k7[i]);
    sum += (e * w[i]) * (e * w[i]);
  }
  return std::sqrt(sum / static_cast<double>(n_));
}

StepResult DormandPrince::failure(StepStatus status, std::string message) const {
  return StepResult{status, t_, 0, std::move(message)};
}

StepResult DormandPrince::rhs_failure(int code, double t_fail, int retries) const {
  StepResult result =
      failure(StepStatus::kRhsFailed, std::string("the right-hand side failed (") +
                                          (code > 0 ? "recoverably" : "unrecoverably") + ", " +
                                          std::to_string(code) + ") at t = " + number(t_fail) + ", after " +
                                          std::to_string(retries) + " shorter steps");
  result.recoverable_retries = code > 0 ? retries : 0;
  return result;
}

void DormandPrince::advance_to(double t_limit) {
  std::memcpy(y0_, y_, n_ * sizeof(double));
  t0_ = t_;
  t_ = t_limit;
  hlast_ = 0;
  interpolant_ = false;
  have_f0_ = false;  // f may depend on t
}

StepResult DormandPrince::step(double t_limit) {
  // OdeSolver::step checked t_limit against t_ and max_steps, and counts the steps.
  if (!weights_valid_ && !set_weights()) {
    return failure(StepStatus::kFailed, "an error weight 1 / (rtol |x_i| + atol_i) at t = " + number(t_) +
                                            " is not finite and positive (a state 0 with atol 0, or NaN)");
  }
  if (!have_f0_) {
    const int code = rhs(t_, y_, k_[0]);
    if (code != 0) return rhs_failure(code, t_, 0);  // at the step's start: final
    have_f0_ = true;
  }
  if (h_ <= 0) {
    double h = first_step_;
    if (h <= 0) {
      int code = 0;
      h = dp5::first_step(
          t_, t_limit, n_, y_, k_[0], weights_, ynew_, k_[1],
          [this](double t, const double* x, double* dxdt) { return rhs(t, x, dxdt); }, code);
      if (code != 0) return rhs_failure(code, t_, 0);
    }
    h_ = std::min(std::max(h, min_step_), max_step_);
  }

  interpolant_ = false;  // the attempts overwrite the last step's stages
  int error_failures = 0;
  int retries = 0;
  for (;;) {
    const auto [h, lands] = next_attempt(h_, t_, t_limit, max_step_);
    ++stats_.step_attempts;
    int stage = 0;
    const int code = attempt(h, stage);
    if (code < 0) return rhs_failure(code, t_ + kC[static_cast<std::size_t>(stage)] * h, retries);
    if (code > 0) {
      const double shorter = OdeSolver::kRecoverableShrink * kC[static_cast<std::size_t>(stage)] * h;
      if (retries == OdeSolver::kMaxRecoverableRetries || !OdeSolver::resolves(t_, t_ + shorter)) {
        return rhs_failure(code, t_ + kC[static_cast<std::size_t>(stage)] * h, retries);
      }
      ++retries;
      h_ = shorter;
      continue;
    }
    const double dsm = error_norm(h);
    const double eta = controller_.eta(h, dsm);
    if (dsm <= 1.0) {
      if (estimate_stiffness_) stiffness_ = h * lipschitz_quotient(h);
      // Accepted: x(t0) <- x(t1) <- trial; the last stage is the next step's first,
      // and the old first stage (k_[6] after the swap) stays for the dense output.
      std::swap(y0_, y_);
      std::swap(y_, ynew_);
      std::swap(k_[0], k_[6]);
      t0_ = t_;
      t_ = lands ? t_limit : t_ + h;
      hlast_ = h;
      h_ = h * eta;
      controller_.accepted(dsm);
      weights_valid_ = false;
      interpolant_ = true;
      ++stats_.steps;
      if (lands) return StepResult{StepStatus::kReachedStop, t_limit, 0, {}};
      return StepResult{StepStatus::kOk, t_, 0, {}};
    }
    ++stats_.error_test_failures;
    ++error_failures;
    if (controller_.gives_up(h, error_failures)) {
      return failure(StepStatus::kStepTooSmall, "the error test failed " + std::to_string(error_failures) +
                                                    " times in one step at t = " + number(t_) +
                                                    " (last step size " + number(h) + ", error norm " +
                                                    number(dsm) + ")");
    }
    h_ = controller_.after_failure(h, eta, error_failures);
  }
}

void DormandPrince::interpolate(double t, double* out) const {
  const double h = hlast_;
  const double theta = (t - t0_) / h;
  const double one_less = 1.0 - theta;
  const double* __restrict x0 = y0_;
  const double* __restrict x1 = y_;
  const double* __restrict k1 = k_[6];  // the step's first stage (swapped at acceptance)
  const double* __restrict k3 = k_[2];
  const double* __restrict k4 = k_[3];
  const double* __restrict k5 = k_[4];
  const double* __restrict k6 = k_[5];
  const double* __restrict k7 = k_[0];
  double* __restrict x = out;
  for (std::size_t i = 0; i < n_; ++i) {
    const double r2 = x1[i] - x0[i];
    const double r3 = h * k1[i] - r2;
    const double r4 = r2 - h * k7[i] - r3;
    const double r5 = h * (kD1 * k1[i] + kD3 * k3[i] + kD4 * k4[i] + kD5 * k5[i] + kD6 * k6[i] + kD7 * k7[i]);
    x[i] = x0[i] + theta * (r2 + one_less * (r3 + theta * (r4 + one_less * r5)));
  }
}

void DormandPrince::reset(double t, const double* x, double first_step) {
  // The first step: the one asked for, else the one planned (the error test
  // shrinks it if the event changed the dynamics), else the user's or an estimate.
  if (first_step > 0) h_ = std::min(std::max(first_step, min_step_), max_step_);
  std::memcpy(y_, x, n_ * sizeof(double));
  std::memcpy(y0_, x, n_ * sizeof(double));
  t_ = t;
  t0_ = t;
  hlast_ = 0;
  have_f0_ = false;
  weights_valid_ = false;
  interpolant_ = false;
  controller_.restart();
}

void DormandPrince::correct_state(const double* x) {
  std::memcpy(y_, x, n_ * sizeof(double));
  std::memcpy(y0_, x, n_ * sizeof(double));
  t0_ = t_;
  hlast_ = 0;
  have_f0_ = false;
  weights_valid_ = false;
  interpolant_ = false;
}

void DormandPrince::redo_to(double te) {
  // x(te) into the trial buffer, then it becomes x(t1); x(t0) stays.
  if (te == t0_) {
    std::memcpy(ynew_, y0_, n_ * sizeof(double));
  } else {
    interpolate(te, ynew_);
  }
  std::swap(y_, ynew_);
  h_ = t_ - t0_;  // the rolled-back step's size: a step to any te inside it is one step
  t_ = te;
  hlast_ = 0;
  have_f0_ = false;
  weights_valid_ = false;
  interpolant_ = false;
  controller_.restart();
}

void DormandPrince::save_exact(StateWriter& out) const {
  out.f64(t0_);
  out.f64(t_);
  out.f64(h_);
  out.f64(hlast_);
  out.boolean(have_f0_);
  out.boolean(weights_valid_);
  out.boolean(interpolant_);
  out.f64(controller_.last_error());
  out.f64(controller_.growth_limit());
  out.f64(stiffness_);
  for (const double* v : {y0_, y_, weights_}) out.values(std::span<const double>(v, n_));
  for (const double* k : k_) out.values(std::span<const double>(k, n_));
  for (const long c : {stats_.steps, stats_.step_attempts, stats_.error_test_failures, stats_.rhs_evals})
    out.i64(c);
}

void DormandPrince::restore_exact(StateReader& in) {
  t0_ = in.f64();
  t_ = in.f64();
  h_ = in.f64();
  hlast_ = in.f64();
  have_f0_ = in.boolean();
  weights_valid_ = in.boolean();
  interpolant_ = in.boolean();
  const double last_error = in.f64();
  controller_.set_memory(last_error, in.f64());
  stiffness_ = in.f64();
  for (double* v : {y0_, y_, weights_}) in.values_into(std::span<double>(v, n_));
  for (double* k : k_) in.values_into(std::span<double>(k, n_));
  for (long* c : {&stats_.steps, &stats_.step_attempts, &stats_.error_test_failures, &stats_.rhs_evals})
    *c = in.i64();
}

}  // namespace ctde
