// An algebraic loop's Newton solver on KINSOL (loop_solver_impl.hpp).
#include <kinsol/kinsol.h>
#include <kinsol/kinsol_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_version.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/fast_paths.hpp"
#include "core/format.hpp"
#include "domains/ctde/loop_solver_impl.hpp"

namespace ctde {

namespace {

/// The loop is solved to this fraction of the run's tolerances: far below
/// what the integrator's error test sees.
constexpr double kLoopTolerance = 1e-6;
/// The least tolerance, relative to the unknowns' size (at least 1): 45 ulps.
constexpr double kRounding = 1e-14;
/// The longest Newton step, in the unknowns' scale (1 + |g|): the line
/// search, not this bound, keeps a step from going astray.
constexpr double kMaxStep = 1e12;
/// The fast path's iterations before it leaves the solve to KINSOL, and the
/// least shrinking of the residual it asks of each.
constexpr long kQuickIterations = 8;
constexpr double kContraction = 0.25;
/// A kept Jacobian is renewed when an iteration shrinks the residual less than this.
constexpr double kRenewal = 1e-3;
/// The central differences' step, relative to the unknown's size (at least 1).
constexpr double kStep = 1e-6;
/// A solve that needs more Newton iterations than this fails.
constexpr long kMaxIterations = 50;

int residual_of(N_Vector g, N_Vector r, void* self) {
  return static_cast<LoopSolver*>(self)->residual(NV_DATA_S(g), NV_DATA_S(r));
}

#if SUNDIALS_VERSION_MAJOR < 7
/// KINSOL's own error messages are not printed: a failure is a Result.
void quiet(int /*code*/, const char* /*module*/, const char* /*function*/, char* /*message*/,
           void* /*data*/) {}
#endif

/// What a KINSOL failure means for the loop.
std::string failure_reason(int flag) {
  switch (flag) {
    case KIN_STEP_LT_STPTOL:
      return "Newton's steps became too small to lower the residual further";
    case KIN_MAXITER_REACHED:
      return concat({"no convergence in ", std::to_string(kMaxIterations), " Newton iterations"});
    case KIN_LINESEARCH_NONCONV:
    case KIN_LINESEARCH_BCFAIL:
      return "the line search found no step that lowers the residual";
    case KIN_MXNEWT_5X_EXCEEDED:
      return "Newton's steps grew without bound (is there a solution?)";
    case KIN_LSETUP_FAIL:
    case KIN_LSOLVE_FAIL:
    case KIN_LINSOLV_NO_RECOVERY:
      return "the loop's Jacobian is singular";
    case KIN_SYSFUNC_FAIL:
    case KIN_FIRST_SYSFUNC_ERR:
    case KIN_REPTD_SYSFUNC_ERR:
      return "a value in the loop is not finite";
    default:
      return concat({"KINSOL failed (flag ", std::to_string(flag), ")"});
  }
}

void check(int flag, const char* call) {
  if (flag != 0) {
    throw std::runtime_error(
        concat({"KINSOL set-up failed in ", call, " (flag ", std::to_string(flag), ")"}));
  }
}

}  // namespace

LoopSolver::LoopSolver(std::vector<ActorId> members, std::vector<SignalIndex> unknowns,
                       std::vector<std::uint32_t> tear_end, std::span<const Actor* const> actors,
                       RunBuffers& b)
    : members_(std::move(members)),
      b_(&b),
      unknowns_(std::move(unknowns)),
      tear_end_(std::move(tear_end)),
      guess_(unknowns_.size()),
      start_(unknowns_.size()),
      r_(unknowns_.size()),
      tolerance_(unknowns_.size()),
      jacobian_(unknowns_.size() * unknowns_.size()),
      pivots_(unknowns_.size()),
      plus_(unknowns_.size()),
      minus_(unknowns_.size()),
      fast_(fast_paths_enabled()) {
  // A lone tear runs last, after the actors it reads: the whole loop is one
  // program (its levels keep the iterate order's dependencies).
  const std::size_t others = tear_end_.size() == 1 ? members_.size() : members_.size() - tear_end_.size();
  program_ =
      RhsProgram(RhsProgram::Part::kLoopOutputs, std::span<const ActorId>(members_).first(others), actors, b);
  for (std::size_t t = 0; tear_end_.size() > 1 && t < tear_end_.size(); ++t) {
    tears_.emplace_back(RhsProgram::Part::kLoopOutputs, std::span<const ActorId>(&members_[others + t], 1),
                        actors, b);
  }
}

LoopSolver::~LoopSolver() { free_sundials(); }

void LoopSolver::free_sundials() noexcept {
  if (kinsol_ != nullptr) KINFree(&kinsol_);
  if (linear_solver_ != nullptr) SUNLinSolFree(static_cast<SUNLinearSolver>(linear_solver_));
  if (matrix_ != nullptr) SUNMatDestroy(static_cast<SUNMatrix>(matrix_));
  for (void* v : {u_, u_scale_, f_scale_}) {
    if (v != nullptr) N_VDestroy(static_cast<N_Vector>(v));
  }
  if (context_ != nullptr) {
    auto ctx = static_cast<SUNContext>(context_);
    (void)SUNContext_Free(&ctx);
  }
}

void LoopSolver::set_up() {
  SUNContext ctx = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  check(SUNContext_Create(SUN_COMM_NULL, &ctx), "SUNContext_Create");
  context_ = ctx;
  check(SUNContext_ClearErrHandlers(ctx), "SUNContext_ClearErrHandlers");
#else
  check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
  context_ = ctx;
#endif
  const auto n = static_cast<sunindextype>(unknowns_.size());
  N_Vector u = N_VNew_Serial(n, ctx);
  u_ = u;
  u_scale_ = N_VNew_Serial(n, ctx);
  f_scale_ = N_VNew_Serial(n, ctx);
  if (u == nullptr || u_scale_ == nullptr || f_scale_ == nullptr) throw std::bad_alloc();
  kinsol_ = KINCreate(ctx);
  if (kinsol_ == nullptr) throw std::bad_alloc();
#if SUNDIALS_VERSION_MAJOR < 7
  check(KINSetErrHandlerFn(kinsol_, quiet, nullptr), "KINSetErrHandlerFn");
#endif
  check(KINInit(kinsol_, residual_of, u), "KINInit");
  check(KINSetUserData(kinsol_, this), "KINSetUserData");
  SUNMatrix matrix = SUNDenseMatrix(n, n, ctx);
  matrix_ = matrix;
  SUNLinearSolver solver = SUNLinSol_Dense(u, matrix, ctx);
  linear_solver_ = solver;
  if (matrix == nullptr || solver == nullptr) throw std::bad_alloc();
  check(KINSetLinearSolver(kinsol_, solver, matrix), "KINSetLinearSolver");
  check(KINSetNumMaxIters(kinsol_, kMaxIterations), "KINSetNumMaxIters");
  // The residual is scaled by the tolerances (f_scale): converged below 1.
  check(KINSetFuncNormTol(kinsol_, 1.0), "KINSetFuncNormTol");
  // KINSOL bounds a Newton step by a thousand times the guess (scaled), or
  // 1000 from a guess of zero; a loop's unknowns may be far from their start.
  check(KINSetMaxNewtonStep(kinsol_, kMaxStep), "KINSetMaxNewtonStep");
}

int LoopSolver::residual(const double* g, double* r) noexcept {
  double* s = b_->signals.data();
  const std::size_t n = unknowns_.size();
  const SignalIndex* unknown = unknowns_.data();
  for (std::size_t k = 0; k < n; ++k) s[unknown[k].index()] = g[k];
  const auto call = [this](ActorId d) { evaluator_.evaluate(evaluator_.context, d); };
  // The tears' outputs less the guess, then the guess back in place.
  const auto take = [&](std::size_t k, std::size_t end) {
    for (; k < end; ++k) {
      double& out = s[unknown[k].index()];
      r[k] = out - g[k];
      out = g[k];
    }
  };
  try {
    program_.run_outputs(*b_, call);
    if (tears_.empty()) {
      take(0, n);
    } else {  // each tear from the guess, for the tears after it
      for (std::size_t t = 0; t < tears_.size(); ++t) {
        tears_[t].run_outputs(*b_, call);
        take(t == 0 ? 0 : tear_end_[t - 1], tear_end_[t]);
      }
    }
  } catch (...) {
    failure_ = std::current_exception();
    return -1;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(r[k])) return 1;
  }
  return 0;
}

void LoopSolver::save(StateWriter& out) const {
  out.boolean(kept_);
  out.values(jacobian_);
  out.values(pivots_);
}

void LoopSolver::restore(StateReader& in) {
  kept_ = in.boolean();
  in.values_into(std::span<double>(jacobian_));
  in.values_into(std::span<std::size_t>(pivots_));
}

double LoopSolver::scaled_residual(const double* g, double* r) {
  if (residual(g, r) < 0) std::rethrow_exception(failure_);
  double worst = 0.0;
  for (std::size_t k = 0; k < unknowns_.size(); ++k) {
    const double scaled = std::abs(r[k]) / tolerance_[k];
    if (!(scaled <= worst)) worst = std::isfinite(scaled) ? scaled : std::numeric_limits<double>::infinity();
  }
  return worst;
}

bool LoopSolver::renew_jacobian() {
  if (constant_) return true;
  const std::size_t n = unknowns_.size();
  kept_ = false;
  for (std::size_t j = 0; j < n; ++j) {
    const double g = guess_[j];
    const double h = kStep * std::max(1.0, std::abs(g));
    guess_[j] = g + h;
    if (residual(guess_.data(), plus_.data()) < 0) std::rethrow_exception(failure_);
    guess_[j] = g - h;
    if (residual(guess_.data(), minus_.data()) < 0) std::rethrow_exception(failure_);
    guess_[j] = g;
    for (std::size_t i = 0; i < n; ++i) jacobian_[i + j * n] = (plus_[i] - minus_[i]) / (2 * h);
  }
  kept_ = factor();
  return kept_;
}

void LoopSolver::set_linear(Linear linear) {
  constant_ = false;
  jacobian_ = std::move(linear.jacobian);
  kept_ = factor();
  constant_ = kept_;
  moved_ = std::move(linear.outputs);
  slopes_ = std::move(linear.slopes);
}

bool LoopSolver::factor() {
  const std::size_t n = unknowns_.size();
  // LU with partial pivoting, in place.
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i) {
      if (std::abs(jacobian_[i + k * n]) > std::abs(jacobian_[p + k * n])) p = i;
    }
    pivots_[k] = p;
    if (!(std::abs(jacobian_[p + k * n]) > 0.0) || !std::isfinite(jacobian_[p + k * n])) return false;
    if (p != k) {
      for (std::size_t j = 0; j < n; ++j) std::swap(jacobian_[k + j * n], jacobian_[p + j * n]);
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      const double multiple = jacobian_[i + k * n] /= jacobian_[k + k * n];
      for (std::size_t j = k + 1; j < n; ++j) jacobian_[i + j * n] -= multiple * jacobian_[k + j * n];
    }
  }
  return true;
}

void LoopSolver::solve_kept(double* r) const {
  const std::size_t n = unknowns_.size();
  if (n == 1) {  // what the loops below come to for one unknown
    r[0] = -(r[0] / jacobian_[0]);
    return;
  }
  // factor() swapped whole rows (L's columns so far too): every interchange
  // first, in order, then L (unit diagonal), then U.
  for (std::size_t k = 0; k < n; ++k) std::swap(r[k], r[pivots_[k]]);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = k + 1; i < n; ++i) r[i] -= jacobian_[i + k * n] * r[k];
  }
  for (std::size_t k = n; k-- > 0;) {
    for (std::size_t j = k + 1; j < n; ++j) r[k] -= jacobian_[k + j * n] * r[j];
    r[k] /= jacobian_[k + k * n];
  }
  for (std::size_t k = 0; k < n; ++k) r[k] = -r[k];
}

bool LoopSolver::quick(Result& result) {
  const std::size_t n = unknowns_.size();
  double norm = scaled_residual(guess_.data(), r_.data());
  if (norm <= 1.0) return true;
  bool fresh = !kept_ || constant_;  // the Jacobian is the one at this solve's iterate
  if (!kept_ && !renew_jacobian()) return false;
  for (long k = 0; k < kQuickIterations; ++k) {
    solve_kept(r_.data());
    for (std::size_t i = 0; i < n; ++i) guess_[i] += r_[i];
    ++result.iterations;
    const double next = scaled_residual(guess_.data(), r_.data());
    if (next <= 1.0) return true;
    // A residual that grows, or shrinks slowly with a fresh Jacobian, needs
    // KINSOL's line search; one that shrinks less than Newton's method
    // shrinks it with a kept one, a Jacobian renewed here.
    if (!(next < norm) || (fresh && !(next <= kContraction * norm))) return false;
    if (!fresh && !(next <= kRenewal * norm)) {
      if (!renew_jacobian()) return false;
      fresh = true;
    } else {
      fresh = constant_;
    }
    norm = next;
  }
  return false;
}

bool LoopSolver::linear(Result& result) {
  const double norm = scaled_residual(guess_.data(), r_.data());
  if (norm <= 1.0) return true;
  if (!(norm < std::numeric_limits<double>::infinity())) return false;
  // F(g) - g is affine in g: the step from its constant Jacobian ends at
  // the solution, and every output in the loop is affine in g too.
  solve_kept(r_.data());
  ++result.iterations;
  const std::size_t n = unknowns_.size();
  double* s = b_->signals.data();
  for (std::size_t k = 0; k < n; ++k) {
    guess_[k] += r_[k];
    s[unknowns_[k].index()] = guess_[k];
  }
  const double* slope = slopes_.data();
  for (const SignalIndex out : moved_) {
    double moved = s[out.index()];
    for (std::size_t j = 0; j < n; ++j) moved += slope[j] * r_[j];
    s[out.index()] = moved;
    slope += n;
  }
  return true;
}

LoopSolver::Result LoopSolver::solve(Evaluator evaluator, double rtol, double atol) {
  evaluator_ = evaluator;
  failure_ = nullptr;
  const std::size_t n = unknowns_.size();
  const double* s = b_->signals.data();
  for (std::size_t k = 0; k < n; ++k) {
    double g = s[unknowns_[k].index()];  // the last solution (or the outputs' start values)
    if (!std::isfinite(g)) g = 0.0;
    guess_[k] = g;
    start_[k] = g;
    // Not below what rounding leaves of a residual of values of g's size.
    tolerance_[k] =
        std::max(kLoopTolerance * (atol + rtol * std::abs(g)), kRounding * std::max(1.0, std::abs(g)));
  }
  Result result;
  if (fast_ && (constant_ ? linear(result) : quick(result))) {
    result.converged = true;
    return result;
  }
  with_kinsol(start_, result);
  return result;
}

void LoopSolver::with_kinsol(const std::vector<double>& start, Result& result) {
  if (kinsol_ == nullptr) set_up();
  const std::size_t n = unknowns_.size();
  double* g = NV_DATA_S(static_cast<N_Vector>(u_));
  double* u_scale = NV_DATA_S(static_cast<N_Vector>(u_scale_));
  double* f_scale = NV_DATA_S(static_cast<N_Vector>(f_scale_));
  for (std::size_t k = 0; k < n; ++k) {
    g[k] = start[k];
    f_scale[k] = 1.0 / tolerance_[k];
    u_scale[k] = 1.0 / (1.0 + std::abs(start[k]));
  }
  const int flag = KINSol(kinsol_, static_cast<N_Vector>(u_), KIN_LINESEARCH, static_cast<N_Vector>(u_scale_),
                          static_cast<N_Vector>(f_scale_));
  if (failure_) std::rethrow_exception(failure_);
  long iterations = 0;
  (void)KINGetNumNonlinSolvIters(kinsol_, &iterations);
  result.iterations += iterations;
  std::copy_n(g, n, guess_.data());
  const double worst = scaled_residual(guess_.data(), r_.data());
  for (std::size_t k = 0; k < n; ++k) result.residual_norm = std::max(result.residual_norm, std::abs(r_[k]));
  // A step below KINSOL's step tolerance, or a line search that finds no
  // lower residual, stops it where rounding leaves the residual: accepted
  // when that is within a thousandth of the run's tolerance.
  const bool stalled = flag == KIN_STEP_LT_STPTOL || flag == KIN_LINESEARCH_NONCONV;
  result.converged = (flag >= 0 && !stalled) || (stalled && worst <= 1e3);
  result.singular = flag == KIN_LSETUP_FAIL || flag == KIN_LSOLVE_FAIL || flag == KIN_LINSOLV_NO_RECOVERY;
  if (!result.converged) {
    result.reason = failure_reason(flag);
    kept_ = constant_;
    return;
  }
  // The next solves start from a Jacobian at this solution; the signals
  // are left at it.
  if (fast_) {
    (void)renew_jacobian();
    (void)scaled_residual(guess_.data(), r_.data());
  }
}

}  // namespace ctde
