#include "domains/ct/arkode_backend_impl.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_butcher.h>
#include <arkode/arkode_erkstep.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

// 7.1 added the shared ARKode* functions and deprecated the ERKStep*/ARKStep*
// ones (warnings are errors here), so from 7.1 the shared ones are used; 7.2
// added ARKodeGetNumRhsEvals. Functions that exist unchanged in both
// (ERKStepCreate, ARKStepCreate, ERKStepSetTable, ERKStepSetTableNum,
// ARKStepSetTableNum) are used as is.
#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 1)
#define CTDE_ARKODE_SHARED_API 1
#else
#define CTDE_ARKODE_SHARED_API 0
#endif
#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 2)
#define CTDE_ARKODE_SHARED_RHS_COUNT 1
#else
#define CTDE_ARKODE_SHARED_RHS_COUNT 0
#endif

// CTDE_ARK(Name, explicit_only, args...) calls ARKodeName(args...) (7.1+), or
// ERKStepName / ARKStepName (6.x, 7.0) for the stepper in use.
#if CTDE_ARKODE_SHARED_API
#define CTDE_ARK(name, erk, ...) ARKode##name(__VA_ARGS__)
#define CTDE_ARKSTEP(name, ...) ARKode##name(__VA_ARGS__)
#else
#define CTDE_ARK(name, erk, ...) ((erk) ? ERKStep##name(__VA_ARGS__) : ARKStep##name(__VA_ARGS__))
#define CTDE_ARKSTEP(name, ...) ARKStep##name(__VA_ARGS__)
#endif

namespace ctde {

namespace {

// Relative change of gamma = h·a_ii above which ARKStep sets up the Newton matrix
// again: any change (ARKODE needs a value > 0; 0 means its default, 0.2).
constexpr double kDeltaGammaMax = 1e-12;

}  // namespace

ArkodeBackend::ArkodeBackend(const OdeProblem& problem, const OdeOptions& options, double t0,
                             std::span<const double> x0)
    : SundialsBackend(problem, options, t0, x0) {
  const SolverKind kind = options.method;
  erk_ = kind == SolverKind::kErk45 || kind == SolverKind::kErk23 || kind == SolverKind::kRk4Fixed ||
         kind == SolverKind::kRkf45;
  void* self = static_cast<SundialsBackend*>(this);
  if (erk_) {
    mem_ = ERKStepCreate(rhs_main, t0, y_[cur_], ctx_);
    if (mem_ == nullptr) fail_setup("ERKStepCreate", 0);
  } else {  // ark-imex with two functions; dirk, or ark-imex with one: all implicit
    const bool split =
        kind == SolverKind::kArkImex && problem.rhs != nullptr && problem.rhs_implicit != nullptr;
    fe_ = split ? rhs_main : nullptr;
    fi_ = split || problem.rhs == nullptr ? rhs_implicit : rhs_main;
    mem_ = ARKStepCreate(fe_, fi_, t0, y_[cur_], ctx_);
    if (mem_ == nullptr) fail_setup("ARKStepCreate", 0);
  }

#if SUNDIALS_VERSION_MAJOR >= 7
  check(SUNContext_ClearErrHandlers(ctx_), "SUNContext_ClearErrHandlers");
  check(SUNContext_PushErrHandler(ctx_, error_handler, self), "SUNContext_PushErrHandler");
#else
  check(CTDE_ARK(SetErrHandlerFn, erk_, mem_, error_handler, self), "SetErrHandlerFn");
#endif
  check(CTDE_ARK(SetUserData, erk_, mem_, self), "SetUserData");

  switch (kind) {
    case SolverKind::kErk45:
      check(ERKStepSetTableNum(mem_, ARKODE_DORMAND_PRINCE_7_4_5), "ERKStepSetTableNum");
      break;
    case SolverKind::kErk23:
      check(ERKStepSetTableNum(mem_, ARKODE_BOGACKI_SHAMPINE_4_2_3), "ERKStepSetTableNum");
      break;
    case SolverKind::kRk4Fixed:
      set_classical_rk4();
      break;
    case SolverKind::kRkf45:
      check(ERKStepSetTableNum(mem_, ARKODE_FEHLBERG_6_4_5), "ERKStepSetTableNum");
      break;
    case SolverKind::kDirk:
      check(ARKStepSetTableNum(mem_, ARKODE_ESDIRK436L2SA_6_3_4, ARKODE_ERK_NONE), "ARKStepSetTableNum");
      break;
    case SolverKind::kArkImex:
      if (problem.rhs != nullptr && problem.rhs_implicit != nullptr) {
        check(ARKStepSetTableNum(mem_, ARKODE_ARK437L2SA_DIRK_7_3_4, ARKODE_ARK437L2SA_ERK_7_3_4),
              "ARKStepSetTableNum");
      } else {
        check(ARKStepSetTableNum(mem_, ARKODE_ARK437L2SA_DIRK_7_3_4, ARKODE_ERK_NONE), "ARKStepSetTableNum");
      }
      break;
    case SolverKind::kBdf:
    case SolverKind::kAuto:
      fail_setup("ARKODE has no method bdf or auto (CVODE's back end runs them)", 0);
  }

  set_tolerances();
  if (kind == SolverKind::kRk4Fixed) {
    check(CTDE_ARK(SetFixedStep, erk_, mem_, fixed_step_size()), "SetFixedStep");
  } else {
    if (options.initial_step) check(CTDE_ARK(SetInitStep, erk_, mem_, *options.initial_step), "SetInitStep");
    if (options.min_step) check(CTDE_ARK(SetMinStep, erk_, mem_, *options.min_step), "SetMinStep");
    if (options.max_step && std::isfinite(*options.max_step)) {
      check(CTDE_ARK(SetMaxStep, erk_, mem_, *options.max_step), "SetMaxStep");
    }
  }
  if (!erk_) {
    make_linear_solver();
    // Refactor the Newton matrix whenever the step size changes. With ARKODE's
    // default (only when gamma = h·a_ii changes by 20 %), the Newton convergence-rate
    // estimate kept from earlier, well-converged iterations accepts the first
    // iterate of a stale matrix: after a step shortened by a stop time (every event
    // does this) the error was 10^2 to 10^5 times the tolerance (6.4.1, x' = 1 - x
    // and the harmonic oscillator). The cost is one LU factorization per step-size
    // change; the Jacobian itself is still reused (ARKODE re-evaluates it every 51
    // steps or on a convergence failure).
    check(CTDE_ARKSTEP(SetDeltaGammaMax, mem_, kDeltaGammaMax), "SetDeltaGammaMax");
  }
}

ArkodeBackend::~ArkodeBackend() {
  if (mem_ == nullptr) return;
#if CTDE_ARKODE_SHARED_API
  ARKodeFree(&mem_);
#else
  if (erk_) {
    ERKStepFree(&mem_);
  } else {
    ARKStepFree(&mem_);
  }
#endif
}

int ArkodeBackend::attach_linear_solver(SUNMatrix matrix, SUNLinearSolver solver, bool jacobian) {
  int flag = CTDE_ARKSTEP(SetLinearSolver, mem_, solver, matrix);
  if (flag < 0 || !jacobian) return flag;
  return CTDE_ARKSTEP(SetJacFn, mem_, SundialsBackend::jacobian);
}

void ArkodeBackend::set_classical_rk4() {
  // Classical Runge-Kutta 4 (ARKODE has no built-in table for it), written
  // first-same-as-last: a fifth stage at t + h with a[4] = b evaluates
  // f(t + h, x(t + h)) with weight 0, so the solution is exactly classical RK4 and
  // the fifth stage is the next step's first (4 f evaluations per step). The plain
  // 4-stage table is not enough: older ARKODE releases (6.4.1 here; LLNL/sundials
  // issue #311) took any table with c[s-1] == 1 for FSAL and reused f of the 4th
  // stage as the next step's first, which spoils its accuracy.
  // No embedding: fixed step only. A is row-major s×s.
  constexpr double k6 = 1.0 / 6.0;
  constexpr double k3 = 1.0 / 3.0;
  std::array<sunrealtype, 5> c{0.0, 0.5, 0.5, 1.0, 1.0};
  std::array<sunrealtype, 25> a{0.0, 0.0, 0.0, 0.0, 0.0,  //
                                0.5, 0.0, 0.0, 0.0, 0.0,  //
                                0.0, 0.5, 0.0, 0.0, 0.0,  //
                                0.0, 0.0, 1.0, 0.0, 0.0,  //
                                k6,  k3,  k3,  k6,  0.0};
  std::array<sunrealtype, 5> b{k6, k3, k3, k6, 0.0};
  ARKodeButcherTable table = ARKodeButcherTable_Create(5, 4, 0, c.data(), a.data(), b.data(), nullptr);
  if (table == nullptr) fail_setup("ARKodeButcherTable_Create", 0);
  const int flag = ERKStepSetTable(mem_, table);  // copies the table
  ARKodeButcherTable_Free(table);
  check(flag, "ERKStepSetTable");
}

void ArkodeBackend::set_tolerances() {
  const double rtol = options_.rtol;
  if (options_.atol_per_state.empty()) {
    check(CTDE_ARK(SStolerances, erk_, mem_, rtol, options_.atol), "SStolerances");
    return;
  }
  N_Vector atol = new_vector("N_VNew_Serial (atol)");
  std::copy(options_.atol_per_state.begin(), options_.atol_per_state.end(), NV_DATA_S(atol));
  const int flag = CTDE_ARK(SVtolerances, erk_, mem_, rtol, atol);  // copies atol
  N_VDestroy(atol);
  check(flag, "SVtolerances");
}

int ArkodeBackend::evolve(double t_limit, N_Vector yout, double& t_reached) {
  const int flag = CTDE_ARK(SetStopTime, erk_, mem_, t_limit);
  if (flag < 0) return flag;
  sunrealtype t = t_reached;
  const int result = CTDE_ARK(Evolve, erk_, mem_, t_limit, yout, &t, ARK_ONE_STEP);
  t_reached = t;
  return result;
}

int ArkodeBackend::reinit(double t, N_Vector y) {
  // A full re-initialization, not ARKODE's Reset: Reset keeps the step
  // counter (so the first step after it may grow 20-fold, not 10^4-fold)
  // and the controller's past errors, which a new integrator lacks. After
  // ReInit a restart is the start of a new integrator, so the run resumed
  // from a snapshot, which starts one, goes on exactly as the run that took
  // it (docs/snapshots.md); the project's Dormand-Prince restarts its
  // controller alike.
  carried_ += counters();
  return erk_ ? ERKStepReInit(mem_, rhs_main, t, y) : ARKStepReInit(mem_, fe_, fi_, t, y);
}
int ArkodeBackend::set_init_step(double h) { return CTDE_ARK(SetInitStep, erk_, mem_, h); }
int ArkodeBackend::get_dky(double t, N_Vector out) const { return CTDE_ARK(GetDky, erk_, mem_, t, 0, out); }
int ArkodeBackend::current_step(double& h) const {
  sunrealtype planned = 0;
  const int flag = CTDE_ARK(GetCurrentStep, erk_, mem_, &planned);
  h = planned;
  return flag;
}
int ArkodeBackend::error_weights(N_Vector weights) const {
  return CTDE_ARK(GetErrWeights, erk_, mem_, weights);
}
int ArkodeBackend::local_errors(N_Vector errors) const {
  return CTDE_ARK(GetEstLocalErrors, erk_, mem_, errors);
}
void ArkodeBackend::restore_fixed_step() {
  check(CTDE_ARK(SetFixedStep, erk_, mem_, fixed_step_size()), "SetFixedStep");
}

std::string ArkodeBackend::flag_name(long flag) const {
#if CTDE_ARKODE_SHARED_API
  char* name = ARKodeGetReturnFlagName(flag);
#else
  char* name = ARKStepGetReturnFlagName(flag);  // same table as ERKStepGetReturnFlagName
#endif
  std::string result = name != nullptr ? name : "ARK_UNKNOWN";
  std::free(name);  // SUNDIALS allocates the name with malloc
  return result;
}

StepStatus ArkodeBackend::classify(int flag) const {
  switch (flag) {
    case ARK_SUCCESS:
      return StepStatus::kOk;
    case ARK_TSTOP_RETURN:
      return StepStatus::kReachedStop;
    case ARK_TOO_MUCH_WORK:
      return StepStatus::kTooMuchWork;
    case ARK_TOO_MUCH_ACC:
    case ARK_ERR_FAILURE:
    case ARK_CONV_FAILURE:
      return StepStatus::kStepTooSmall;
    case ARK_RHSFUNC_FAIL:
    case ARK_FIRST_RHSFUNC_ERR:
    case ARK_REPTD_RHSFUNC_ERR:
    case ARK_UNREC_RHSFUNC_ERR:
      return StepStatus::kRhsFailed;
    default:
      return StepStatus::kFailed;
  }
}

OdeStatistics ArkodeBackend::statistics() const {
  OdeStatistics st = counters();
  st += carried_;
  if (!erk_) st.jacobian_rhs_evals += jacobian_rhs_evals();
  return st;
}

OdeStatistics ArkodeBackend::counters() const {
  OdeStatistics st;
  void* mem = mem_;
  check(CTDE_ARK(GetNumSteps, erk_, mem, &st.steps), "GetNumSteps");
  check(CTDE_ARK(GetNumStepAttempts, erk_, mem, &st.step_attempts), "GetNumStepAttempts");
  check(CTDE_ARK(GetNumErrTestFails, erk_, mem, &st.error_test_failures), "GetNumErrTestFails");
#if CTDE_ARKODE_SHARED_RHS_COUNT
  check(ARKodeGetNumRhsEvals(mem, -1, &st.rhs_evals), "ARKodeGetNumRhsEvals");  // -1: all partitions
#else
  if (erk_) {
    check(ERKStepGetNumRhsEvals(mem, &st.rhs_evals), "ERKStepGetNumRhsEvals");
  } else {
    long fe = 0;
    long fi = 0;
    check(ARKStepGetNumRhsEvals(mem, &fe, &fi), "ARKStepGetNumRhsEvals");
    st.rhs_evals = fe + fi;
  }
#endif
  if (!erk_) {
    check(CTDE_ARKSTEP(GetNumLinRhsEvals, mem, &st.jacobian_rhs_evals), "GetNumLinRhsEvals");
    check(CTDE_ARKSTEP(GetNumJacEvals, mem, &st.jacobian_evals), "GetNumJacEvals");
    check(CTDE_ARKSTEP(GetNumNonlinSolvIters, mem, &st.nonlinear_iterations), "GetNumNonlinSolvIters");
    check(CTDE_ARKSTEP(GetNumNonlinSolvConvFails, mem, &st.nonlinear_conv_failures),
          "GetNumNonlinSolvConvFails");
    check(CTDE_ARKSTEP(GetNumLinSolvSetups, mem, &st.linear_setups), "GetNumLinSolvSetups");
    // The nonlinear solver's counters go on through a ReInit: what they
    // count since it is their increase over what was carried.
    st.nonlinear_iterations -= carried_.nonlinear_iterations;
    st.nonlinear_conv_failures -= carried_.nonlinear_conv_failures;
    if (st.step_attempts == 0) {
      // No step since the ReInit: the linear solver's counters are those of
      // before it (cleared at the next step), already carried.
      st.jacobian_rhs_evals = st.jacobian_evals = 0;
    }
  }
  return st;
}

}  // namespace ctde
