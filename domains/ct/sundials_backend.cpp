#include "domains/ct/sundials_backend_impl.hpp"

#include <sunlinsol/sunlinsol_klu.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "domains/ct/band_solver_impl.hpp"
#include "domains/ct/dense_solver_impl.hpp"
#include "domains/ct/vector_ops.hpp"

static_assert(std::is_same_v<sunrealtype, double>,
              "ctde needs SUNDIALS built with double precision (sunrealtype == double)");

namespace ctde {

namespace {

double* data(N_Vector v) { return NV_DATA_S(v); }

}  // namespace

SundialsBackend::SundialsBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                                 std::span<const double> x0)
    : problem_(problem), options_(options), n_(problem.size), t_(t0), t0_(t0) {
#if SUNDIALS_VERSION_MAJOR >= 7
  if (SUNContext_Create(SUN_COMM_NULL, &ctx_) != 0) fail_setup("SUNContext_Create", 0);
#else
  if (SUNContext_Create(nullptr, &ctx_) != 0) fail_setup("SUNContext_Create", 0);
#endif
  y_[0] = new_vector("N_VNew_Serial (state)");
  y_[1] = new_vector("N_VNew_Serial (state)");
  view_ = N_VNewEmpty_Serial(static_cast<sunindextype>(n_), ctx_);
  if (view_ == nullptr) fail_setup("N_VNewEmpty_Serial", 0);
  use_project_vector_ops(view_);                 // the integrator computes with views too (GetDky, Reset)
  std::copy(x0.begin(), x0.end(), data(y_[0]));  // x(t0) and x(t1) of the empty first "step"
  std::copy(x0.begin(), x0.end(), data(y_[1]));
}

SundialsBackend::~SundialsBackend() {
  // The derived class has freed its integrator, which points at these.
  if (linear_solver_ != nullptr) (void)SUNLinSolFree(linear_solver_);
  if (matrix_ != nullptr) SUNMatDestroy(matrix_);
  if (weights_ != nullptr) N_VDestroy(weights_);
  if (view_ != nullptr) N_VDestroy(view_);
  for (N_Vector v : y_) {
    if (v != nullptr) N_VDestroy(v);
  }
  if (ctx_ != nullptr) (void)SUNContext_Free(&ctx_);
}

// -- set-up -------------------------------------------------------------------

void SundialsBackend::fail_setup(const char* call_name, long flag) const {
  std::string what = std::string("OdeSolver (") + to_string(options_.method) + ", n = " + std::to_string(n_) +
                     "): " + call_name + " failed";
  if (flag != 0) what += " with " + flag_name(flag);
  if (message_[0] != '\0') what += std::string(" (") + message_.data() + ")";
  throw std::runtime_error(what);
}

N_Vector SundialsBackend::new_vector(const char* what) {
  N_Vector v = N_VNew_Serial(static_cast<sunindextype>(n_), ctx_);
  if (v == nullptr) fail_setup(what, 0);
  // Fused vector operations (one pass for a linear combination of the
  // stages instead of one per stage): the integrator's vectors are clones
  // of these, and keep the setting. bench/ct statespace: 17 % less time.
  if (N_VEnableFusedOps_Serial(v, SUNTRUE) != 0) fail_setup("N_VEnableFusedOps_Serial", 0);
  // Operations compiled here at -O2 instead of Debian's -O0 library
  // (vector_ops.hpp): bit for bit the same results.
  use_project_vector_ops(v);
  return v;
}

void SundialsBackend::make_linear_solver() {
  // The Newton systems are on the implicit part: with ark-imex's split, fI
  // alone, whose structure the problem's pattern (that of the whole f) does not give.
  const bool split = problem_.rhs != nullptr && problem_.rhs_implicit != nullptr;
  const RhsFunction implicit_part = split || problem_.rhs == nullptr ? problem_.rhs_implicit : problem_.rhs;
  const JacobianPattern* pattern = split ? nullptr : problem_.pattern;
  if (pattern == nullptr) {
    dense_pattern_ = std::make_unique<JacobianPattern>(JacobianPattern::dense(n_));
    pattern = dense_pattern_.get();
  }
  const bool own_jacobian = problem_.jacobian != nullptr;
  linear_kind_ = choose_linear_solver(options_.linear_solver, *pattern, own_jacobian).kind;
  const auto n = static_cast<sunindextype>(n_);
  JacobianEvaluator::Storage storage = JacobianEvaluator::Storage::kDense;
  switch (linear_kind_) {
    case LinearSolverKind::kAuto:
    case LinearSolverKind::kDense:
      matrix_ = SUNDenseMatrix(n, n, ctx_);
      if (matrix_ == nullptr) fail_setup("SUNDenseMatrix", 0);
      // LAPACK's LU (dense_solver_impl.hpp), not Debian's -O0 SUNLinSol_Dense.
      linear_solver_ = make_dense_solver(ctx_);
      if (linear_solver_ == nullptr) fail_setup("the dense linear solver", 0);
      break;
    case LinearSolverKind::kBand: {
      const auto lower = static_cast<sunindextype>(pattern->lower_bandwidth());
      const auto upper = static_cast<sunindextype>(pattern->upper_bandwidth());
      matrix_ = SUNBandMatrix(n, upper, lower, ctx_);
      if (matrix_ == nullptr) fail_setup("SUNBandMatrix", 0);
      // The banded LU compiled here (band_solver_impl.hpp), not Debian's -O0 SUNLinSol_Band.
      linear_solver_ = make_band_solver(ctx_);
      if (linear_solver_ == nullptr) fail_setup("the band linear solver", 0);
      storage = JacobianEvaluator::Storage::kBand;
      break;
    }
    case LinearSolverKind::kKlu:
      matrix_ = SUNSparseMatrix(n, n, static_cast<sunindextype>(pattern->nonzeros()), CSC_MAT, ctx_);
      if (matrix_ == nullptr) fail_setup("SUNSparseMatrix", 0);
      linear_solver_ = SUNLinSol_KLU(y_[cur_], matrix_, ctx_);
      if (linear_solver_ == nullptr) fail_setup("SUNLinSol_KLU", 0);
      storage = JacobianEvaluator::Storage::kSparse;
      break;
    case LinearSolverKind::kGmres:
      // Matrix-free: the integrator's own difference quotients give J v.
      linear_solver_ = SUNLinSol_SPGMR(y_[cur_], SUN_PREC_NONE, 0, ctx_);
      if (linear_solver_ == nullptr) fail_setup("SUNLinSol_SPGMR", 0);
      check(attach_linear_solver(nullptr, linear_solver_, false), "SetLinearSolver");
      return;
  }
  if (!own_jacobian) {
    evaluator_ = std::make_unique<JacobianEvaluator>(*pattern, implicit_part, problem_.user, storage,
                                                     problem_.values_at_point);
    weights_ = new_vector("N_VNew_Serial (error weights)");
  }
  check(attach_linear_solver(matrix_, linear_solver_, true), "SetLinearSolver");
}

std::string SundialsBackend::linear_solver() const {
  return linear_solver_ != nullptr ? to_string(linear_kind_) : "";
}

void SundialsBackend::keep_message(const char* function, const char* message) {
  std::snprintf(message_.data(), message_.size(), "%s: %s", function != nullptr ? function : "SUNDIALS",
                message != nullptr ? message : "");
}

// -- trampolines (the right-hand-side path: no allocation) ---------------------

int SundialsBackend::call(RhsFunction f, sunrealtype time, N_Vector x, N_Vector dxdt) noexcept {
  try {
    const int result = f(time, data(x), data(dxdt), problem_.user);
    if (result > 0) {
      recoverable_failure_ = true;
      recoverable_failure_time_ = time;
    }
    return result;
  } catch (...) {
    callback_error_ = std::current_exception();
    return -1;
  }
}

int SundialsBackend::rhs_main(sunrealtype time, N_Vector x, N_Vector dxdt, void* self) {
  auto* s = static_cast<SundialsBackend*>(self);
  return s->call(s->problem_.rhs, time, x, dxdt);
}

int SundialsBackend::rhs_implicit(sunrealtype time, N_Vector x, N_Vector dxdt, void* self) {
  auto* s = static_cast<SundialsBackend*>(self);
  return s->call(s->problem_.rhs_implicit, time, x, dxdt);
}

int SundialsBackend::jacobian(sunrealtype time, N_Vector x, N_Vector fx, SUNMatrix jac, void* self,
                              N_Vector /*tmp1*/, N_Vector /*tmp2*/, N_Vector /*tmp3*/) {
  auto* s = static_cast<SundialsBackend*>(self);
  try {
    if (s->problem_.jacobian != nullptr) {
      return s->problem_.jacobian(time, data(x), data(fx), SUNDenseMatrix_Data(jac), s->problem_.user);
    }
    double h = 0;
    if (s->error_weights(s->weights_) < 0 || s->current_step(h) < 0) return -1;
    const int code = s->evaluator_->evaluate(time, x, fx, jac, s->weights_, h);
    if (code > 0) {
      s->recoverable_failure_ = true;
      s->recoverable_failure_time_ = time;
    }
    if (code < 0 && !s->callback_error_) {
      s->jacobian_nonfinite_ = true;
      s->jacobian_time_ = time;
    }
    return code;
  } catch (...) {
    s->callback_error_ = std::current_exception();
    return -1;
  }
}

#if SUNDIALS_VERSION_MAJOR >= 7
void SundialsBackend::error_handler(int /*line*/, const char* function, const char* /*file*/,
                                    const char* message, SUNErrCode /*code*/, void* self,
                                    SUNContext /*ctx*/) {
  static_cast<SundialsBackend*>(self)->keep_message(function, message);
}
#else
void SundialsBackend::error_handler(int code, const char* /*module*/, const char* function, char* message,
                                    void* self) {
  if (code >= 0) return;  // a warning
  static_cast<SundialsBackend*>(self)->keep_message(function, message);
}
#endif

// -- stepping -----------------------------------------------------------------

StepResult SundialsBackend::failure(StepStatus status, int flag, std::string message) const {
  return StepResult{status, t_, flag, std::move(message)};
}

std::string SundialsBackend::state_name(std::size_t k) const {
  if (problem_.state_name != nullptr) return problem_.state_name(k, problem_.user);
  return "x[" + std::to_string(k) + "]";
}

std::string SundialsBackend::largest_local_errors() const {
  // In scratch vectors of the package's own (a failure path: allocation is fine).
  N_Vector errors = N_VClone(y_[0]);
  N_Vector weights = N_VClone(y_[0]);
  std::string text;
  if (errors != nullptr && weights != nullptr && local_errors(errors) >= 0 && error_weights(weights) >= 0) {
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t k = 0; k < n_; ++k) {
      const double e = std::abs(NV_DATA_S(errors)[k] * NV_DATA_S(weights)[k]);
      if (e > 0) ranked.emplace_back(e, k);
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t r = 0; r < ranked.size() && r < 3; ++r) {
      char value[32];
      std::snprintf(value, sizeof value, "%.3g", ranked[r].first);
      if (!text.empty()) text += ", ";
      text += state_name(ranked[r].second) + " (" + value + ")";
    }
  }
  if (errors != nullptr) N_VDestroy(errors);
  if (weights != nullptr) N_VDestroy(weights);
  return text;
}

std::string SundialsBackend::failure_detail(int flag) const {
  std::string detail;
  if (jacobian_nonfinite_ && evaluator_) {
    const JacobianEvaluator::Nonfinite& e = evaluator_->nonfinite();
    char value[32];
    std::snprintf(value, sizeof value, "%g", e.value);
    char time[32];
    std::snprintf(time, sizeof time, "%.17g", jacobian_time_);
    detail += "; the Jacobian has a non-finite entry at t = ";
    detail += time;
    detail += " s: d " + state_name(e.row) + "' / d " + state_name(e.column) + " = " + value;
  }
  if (linear_solver_ != nullptr &&
      (linear_kind_ == LinearSolverKind::kDense || linear_kind_ == LinearSolverKind::kBand)) {
    // The LU's last word: > 0 is the (1-based) column of a zero pivot.
    const sunindextype last = SUNLinSolLastFlag(linear_solver_);
    if (last > 0 && static_cast<std::size_t>(last) <= n_) {
      detail += "; the Newton matrix I - gamma J is singular (a zero pivot in the column of " +
                state_name(static_cast<std::size_t>(last - 1)) + ")";
    }
  }
  if (classify(flag) == StepStatus::kStepTooSmall) {
    const std::string states = largest_local_errors();
    if (!states.empty()) detail += "; the largest weighted local errors of the last step: " + states;
  }
  if (!detail.empty() || linear_solver_ != nullptr) {
    detail += " [" + method_now() + ", linear solver " + to_string(linear_kind_) + "]";
  }
  return detail;
}

StepResult SundialsBackend::step(double t_limit) {
  const double t_start = t_;
  const int next = 1 - cur_;
  double t_reached = t_start;
  int flag = 0;
  for (int retries = 0;; ++retries) {
    message_[0] = '\0';
    recoverable_failure_ = false;
    jacobian_nonfinite_ = false;
    flag = evolve(t_limit, y_[next], t_reached);
    if (callback_error_) {
      std::exception_ptr error = std::exchange(callback_error_, nullptr);
      std::rethrow_exception(error);
    }
    if (flag >= 0) break;
    // The integrator stays at its last good state (t, y_[cur_]); y_[next] holds scratch values.
    if (!recoverable_failure_ || jacobian_nonfinite_) {
      std::string message = message_.data();
      if (!message.empty() && message.back() == '.') message.pop_back();  // the detail follows
      return failure(classify(flag), flag, flag_name(flag) + ": " + message + failure_detail(flag));
    }
    // The right-hand side refused a trial point (> 0: a state outside its
    // domain, as a stage of a long step overshooting a level). ARKODE's
    // explicit methods do not recover from that, the implicit ones and CVODE
    // only inside the Newton iteration: the step is tried again from its
    // start, shorter than the failing evaluation's offset (a stage lies
    // inside its step). A failure at the step's start (the solution itself),
    // after kMaxRecoverableRetries, below a step the solver can integrate,
    // or with a fixed step is final.
    const double shorter = OdeSolver::kRecoverableShrink * (recoverable_failure_time_ - t_start);
    if (retries == OdeSolver::kMaxRecoverableRetries || !OdeSolver::resolves(t_start, t_start + shorter) ||
        fixed_step()) {
      StepResult result = failure(StepStatus::kRhsFailed, flag,
                                  flag_name(flag) + ": the right-hand side failed (recoverably) at t = " +
                                      std::to_string(recoverable_failure_time_) + ", after " +
                                      std::to_string(retries) + " shorter steps");
      result.recoverable_retries = retries;
      return result;
    }
    if (reinit(t_start, y_[cur_]) < 0) fail_setup("ReInit", 0);
    check(set_init_step(shorter), "SetInitStep");
  }
  cur_ = next;
  t0_ = t_start;
  interpolant_ = true;
  if (classify(flag) == StepStatus::kReachedStop) {
    t_ = t_limit;  // exactly: the director's time events land on their tick
    return StepResult{StepStatus::kReachedStop, t_limit, flag, {}};
  }
  t_ = t_reached;
  return StepResult{StepStatus::kOk, t_reached, flag, {}};
}

void SundialsBackend::restart(double time, N_Vector x, double first_step) {
  message_[0] = '\0';
  const int flag = reinit(time, x);
  if (flag < 0) {
    throw std::runtime_error("OdeSolver: ReInit at t = " + std::to_string(time) + " failed with " +
                             flag_name(flag) + " (" + message_.data() + ")");
  }
  if (fixed_step()) {
    restore_fixed_step();
  } else {
    check(set_init_step(first_step), "SetInitStep");
  }
}

void SundialsBackend::advance_to(double t_limit) {
  const int next = 1 - cur_;
  std::memcpy(data(y_[next]), data(y_[cur_]), n_ * sizeof(double));
  const double t_start = t_;
  cur_ = next;
  restart(t_limit, y_[cur_], planned_step());
  t0_ = t_start;
  t_ = t_limit;
  interpolant_ = false;
}

void SundialsBackend::interpolate(double t, double* out) const {
  N_VSetArrayPointer(out, view_);
  const int flag = get_dky(t, view_);
  if (flag < 0) {
    throw std::out_of_range("OdeSolver::dense_output: GetDky at t = " + std::to_string(t) + " failed with " +
                            flag_name(flag) + " (" + message_.data() + ")");
  }
}

double SundialsBackend::planned_step() const {
  double h = 0;
  if (current_step(h) < 0) return 0;
  return h;
}

void SundialsBackend::reset(double t, const double* x, double first_step) {
  // A new state after an event: the first step is the one planned before
  // the event (the error test rejects and shrinks it if the event changed
  // the dynamics); without one (a reset before any step), the integrator's
  // estimate or the user's initial_step. rk4-fixed keeps its step.
  const double planned = first_step > 0 ? first_step : reset_keeps_step() ? planned_step() : 0.0;
  std::memcpy(data(y_[cur_]), x, n_ * sizeof(double));
  restart(t, y_[cur_], planned > 0 ? planned : options_.initial_step.value_or(0.0));
  std::memcpy(data(y_[1 - cur_]), x, n_ * sizeof(double));
  t_ = t;
  t0_ = t;
  interpolant_ = false;
}

void SundialsBackend::correct_state(const double* x) {
  // The step size planned stays (a correction is small): a fresh estimate
  // at every correction would make every step a first step.
  const double planned = planned_step();
  std::memcpy(data(y_[cur_]), x, n_ * sizeof(double));
  restart(t_, y_[cur_], planned);
  std::memcpy(data(y_[1 - cur_]), x, n_ * sizeof(double));
  t0_ = t_;
  interpolant_ = false;
}

void SundialsBackend::redo_to(double te) {
  // x(te) into the buffer of x(t1), which the rollback discards; x(t0) stays.
  if (te == t0_) {
    std::memcpy(data(y_[cur_]), data(y_[1 - cur_]), n_ * sizeof(double));
  } else {
    interpolate(te, data(y_[cur_]));
  }
  // The redone step starts with the one just taken (its error test passed),
  // so a step to any te inside it is one step.
  restart(te, y_[cur_], t_ - t0_);
  t_ = te;
  interpolant_ = false;
}

}  // namespace ctde
