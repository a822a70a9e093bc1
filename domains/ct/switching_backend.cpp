#include "domains/ct/switching_backend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "domains/ct/cvode_backend_impl.hpp"
#include "domains/ct/linear_solver.hpp"

namespace ctde {

namespace {

double norm2(const std::vector<double>& v) {
  double sum = 0;
  for (const double a : v) sum += a * a;
  return std::sqrt(sum);
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

SwitchingBackend::SwitchingBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                                   std::span<const double> x0)
    : problem_(problem),
      options_(options),
      explicit_(std::make_unique<DormandPrince>(problem, options, t0, x0)),
      v_(problem.size),
      w_(problem.size),
      f0_(problem.size),
      shifted_(problem.size) {
  explicit_->estimate_stiffness(true);
}

SwitchingBackend::~SwitchingBackend() = default;

SolverBackend& SwitchingBackend::active() const {
  if (stiff_) return *implicit_;
  return *explicit_;
}

void SwitchingBackend::switch_now(double t, const double* x, double first_step) {
  switch_pending_ = false;
  ++switches_;
  stiff_count_ = calm_count_ = bdf_steps_ = calm_checks_ = 0;
  if (!stiff_) {
    if (!implicit_) {
      OdeOptions options = options_;
      options.method = SolverKind::kBdf;
      if (first_step > 0) options.initial_step = first_step;
      implicit_first_step_ = options.initial_step.value_or(0.0);
      const std::span<const double> state(x, problem_.size);
      implicit_ = std::make_unique<CvodeBackend>(problem_, options, t, state);
    } else {
      implicit_->reset(t, x, first_step);
    }
    stiff_ = true;
    return;
  }
  explicit_->reset(t, x, first_step);
  stiff_ = false;
}

StepResult SwitchingBackend::step(double t_limit) {
  if (switch_pending_) {
    const SolverBackend& from = active();
    switch_now(from.current_time(), from.state().data(), switch_step_);
  }
  StepResult result = active().step(t_limit);
  if (result.ok() && decide()) result.switches_method = true;
  return result;
}

bool SwitchingBackend::decide() {
  if (!stiff_) {
    const double estimate = explicit_->stiffness_estimate();
    if (estimate > kStiffBound) {
      ++stiff_count_;
      calm_count_ = 0;
    } else if (++calm_count_ >= kCalmSteps) {
      stiff_count_ = 0;
    }
    if (stiff_count_ < kStiffSteps) return false;
    switch_pending_ = true;
    switch_step_ = explicit_->planned_step();
    reason_ = "bdf: stiff (h |lambda| = " + number(estimate) + " > " + number(kStiffBound) + " for " +
              std::to_string(kStiffSteps) + " steps of erk45)";
    return true;
  }
  if (++bdf_steps_ % kCheckEvery != 0) return false;
  const double h = implicit_->planned_step();
  const double rho = spectral_radius();
  if (!(rho > 0) || h * rho >= kCalmBound) {
    calm_checks_ = 0;
    return false;
  }
  if (++calm_checks_ < 2) return false;
  switch_pending_ = true;
  switch_step_ = h;
  reason_ = "erk45: not stiff (h rho(J) = " + number(h * rho) + " < " + number(kCalmBound) +
            " at the bdf step h = " + number(h) + ")";
  return true;
}

double SwitchingBackend::spectral_radius() {
  const SolverBackend& b = active();
  const double t = b.current_time();
  const std::span<const double> x = b.state();
  const std::span<const double> x0 = b.last_step_start_state();
  const std::size_t n = x.size();
  ++power_rhs_evals_;
  if (problem_.rhs(t, x.data(), f0_.data(), problem_.user) != 0) return 0;
  // Start from the last step's change (its dominant modes), else f.
  for (std::size_t i = 0; i < n; ++i) v_[i] = x[i] - x0[i];
  if (norm2(v_) == 0) v_ = f0_;
  double rho = 0;
  double x_norm = 0;
  for (const double a : x) x_norm += a * a;
  const double scale = std::max(1.0, std::sqrt(x_norm / static_cast<double>(n)));  // x's RMS
  for (int k = 0; k < kPowerIterations; ++k) {
    const double size = norm2(v_);
    if (!(size > 0) || !std::isfinite(size)) return rho;
    const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * scale / size;
    for (std::size_t i = 0; i < n; ++i) shifted_[i] = x[i] + eps * v_[i];
    ++power_rhs_evals_;
    if (problem_.rhs(t, shifted_.data(), w_.data(), problem_.user) != 0) return 0;
    for (std::size_t i = 0; i < n; ++i) w_[i] = (w_[i] - f0_[i]) / eps;
    rho = norm2(w_) / size;
    std::swap(v_, w_);
  }
  return rho;
}

void SwitchingBackend::advance_to(double t_limit) {
  if (switch_pending_) {
    const SolverBackend& from = active();
    switch_now(from.current_time(), from.state().data(), switch_step_);
  }
  active().advance_to(t_limit);
}

void SwitchingBackend::interpolate(double t, double* out) const { active().interpolate(t, out); }

void SwitchingBackend::reset(double t, const double* x, double first_step) {
  if (switch_pending_) {
    switch_now(t, x, first_step > 0 ? first_step : switch_step_);
    return;
  }
  active().reset(t, x, first_step);
}

void SwitchingBackend::correct_state(const double* x) { active().correct_state(x); }
void SwitchingBackend::redo_to(double te) { active().redo_to(te); }
double SwitchingBackend::planned_step() const { return active().planned_step(); }
double SwitchingBackend::current_time() const { return active().current_time(); }
double SwitchingBackend::last_step_start() const { return active().last_step_start(); }
bool SwitchingBackend::has_interpolant() const { return active().has_interpolant(); }
std::span<const double> SwitchingBackend::state() const { return active().state(); }
std::span<const double> SwitchingBackend::last_step_start_state() const {
  return active().last_step_start_state();
}
std::string SwitchingBackend::linear_solver() const {
  if (implicit_) return implicit_->linear_solver();
  // bdf's, once it runs (the choice its back end will make).
  if (problem_.pattern != nullptr)
    return to_string(choose_linear_solver(options_.linear_solver, *problem_.pattern).kind);
  return to_string(options_.linear_solver == LinearSolverKind::kAuto ? LinearSolverKind::kDense
                                                                     : options_.linear_solver);
}
std::string SwitchingBackend::method_now() const { return stiff_ ? "bdf" : "erk45"; }

OdeStatistics SwitchingBackend::statistics() const {
  OdeStatistics st = explicit_->statistics();
  if (implicit_) st += implicit_->statistics();
  st.rhs_evals += power_rhs_evals_;
  st.method_switches = switches_;
  return st;
}

double SwitchingBackend::step_kept_by_reset() const {
  return switch_pending_ ? switch_step_ : active().step_kept_by_reset();
}

void SwitchingBackend::save_method(StateWriter& out) const {
  out.boolean(stiff_);
  out.boolean(switch_pending_);
  out.f64(switch_step_);
  out.boolean(implicit_ != nullptr);
  out.f64(implicit_first_step_);
  for (const int count : {stiff_count_, calm_count_, bdf_steps_, calm_checks_}) out.i64(count);
  out.i64(switches_);
  out.text(reason_);
}

void SwitchingBackend::restore_method(StateReader& in, double t, std::span<const double> x) {
  stiff_ = in.boolean();
  switch_pending_ = in.boolean();
  switch_step_ = in.f64();
  const bool had_implicit = in.boolean();
  implicit_first_step_ = in.f64();
  if (stiff_ && !had_implicit) in.fail("auto runs bdf without one (corrupt)");
  if (had_implicit) {  // made as the switch made it (its initial_step is read by a reset without a step)
    OdeOptions options = options_;
    options.method = SolverKind::kBdf;
    options.initial_step.reset();
    if (implicit_first_step_ > 0) options.initial_step = implicit_first_step_;
    implicit_ = std::make_unique<CvodeBackend>(problem_, options, t, x);
  }
  for (int* count : {&stiff_count_, &calm_count_, &bdf_steps_, &calm_checks_})
    *count = static_cast<int>(in.i64());
  switches_ = in.i64();
  reason_ = in.text();
}

}  // namespace ctde
