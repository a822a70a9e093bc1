#include "domains/ct/ode_solver.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_butcher.h>
#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "domains/ct/dormand_prince.hpp"
#include "domains/ct/vector_ops.hpp"

static_assert(std::is_same_v<sunrealtype, double>,
              "ctde needs SUNDIALS built with double precision (sunrealtype == double)");

// SUNDIALS 6 and 7. Differences guarded below:
//  - SUNContext_Create takes a void* communicator in 6.x, a SUNComm in 7.x;
//  - 7.0 removed *SetErrHandlerFn: errors go to the SUNContext's handler stack;
//  - 7.1 added the shared ARKode* functions and deprecated the ERKStep*/ARKStep*
//    ones (warnings are errors here), so from 7.1 the shared ones are used;
//  - 7.2 added ARKodeGetNumRhsEvals and deprecated *StepGetNumRhsEvals.
// Functions that exist unchanged in both (ERKStepCreate, ARKStepCreate, ERKStepSetTable,
// ERKStepSetTableNum, ARKStepSetTableNum, N_Vector, SUNMatrix, SUNLinSol) are used as is.
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

std::string flag_name(long flag) {
#if CTDE_ARKODE_SHARED_API
  char* name = ARKodeGetReturnFlagName(flag);
#else
  char* name = ARKStepGetReturnFlagName(flag);  // same table as ERKStepGetReturnFlagName
#endif
  std::string result = name != nullptr ? name : "ARK_UNKNOWN";
  std::free(name);  // SUNDIALS allocates the name with malloc
  return result;
}

StepStatus classify(int flag) {
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

// The data of a serial N_Vector (all vectors here are serial): a field read, not
// the N_VGetArrayPointer call through the vector's operation table.
double* data(N_Vector v) { return NV_DATA_S(v); }

// Relative change of gamma = h·a_ii above which ARKStep sets up the Newton matrix
// again: any change (ARKODE needs a value > 0; 0 means its default, 0.2).
constexpr double kDeltaGammaMax = 1e-12;

}  // namespace

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kReachedStop:
      return "reached_stop";
    case StepStatus::kRhsFailed:
      return "rhs_failed";
    case StepStatus::kTooMuchWork:
      return "too_much_work";
    case StepStatus::kStepTooSmall:
      return "step_too_small";
    case StepStatus::kFailed:
      return "failed";
  }
  return "?";
}

// Everything ARKODE points at lives here, behind a stable address (the ARKODE user
// data), so that OdeSolver can move.
struct OdeSolver::Impl {
  OdeProblem problem;
  OdeOptions options;
  std::size_t n = 0;
  bool erk = true;  // ERKStep (explicit methods) or ARKStep (implicit, IMEX)

  SUNContext ctx = nullptr;
  void* mem = nullptr;
  // Two state buffers: y[cur] holds x(t1), y[1 - cur] x(t0) of the last step. ARKODE
  // writes the new state into the yout it is given, so a step alternates them: no copy.
  std::array<N_Vector, 2> y{};
  int cur = 0;
  N_Vector view = nullptr;  // no data of its own: points at caller arrays (GetDky, Reset)
  SUNMatrix jac_matrix = nullptr;
  SUNLinearSolver linear_solver = nullptr;

  double t = 0.0;            // current time == t1
  double t0 = 0.0;           // start of the last step
  bool interpolant = false;  // GetDky valid on [t0, t1] (a real step, not reset or redo)

  std::array<char, 512> arkode_message{};  // ARKODE's last error message
  std::exception_ptr callback_error;       // thrown by a problem function
  // A recoverable failure (a problem function returned > 0) during the last
  // Evolve, and the time of the last such call (a stage's time).
  bool recoverable_failure = false;
  double recoverable_failure_time = 0.0;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (mem != nullptr) {
#if CTDE_ARKODE_SHARED_API
      ARKodeFree(&mem);
#else
      if (erk)
        ERKStepFree(&mem);
      else
        ARKStepFree(&mem);
#endif
    }
    if (linear_solver != nullptr) (void)SUNLinSolFree(linear_solver);
    if (jac_matrix != nullptr) SUNMatDestroy(jac_matrix);
    if (view != nullptr) N_VDestroy(view);
    for (N_Vector v : y) {
      if (v != nullptr) N_VDestroy(v);
    }
    if (ctx != nullptr) (void)SUNContext_Free(&ctx);
  }

  // -- callbacks (the right-hand-side path: no allocation) --------------------------

  int call(RhsFunction f, sunrealtype time, N_Vector x, N_Vector dxdt) noexcept {
    try {
      const int result = f(time, data(x), data(dxdt), problem.user);
      if (result > 0) {
        recoverable_failure = true;
        recoverable_failure_time = time;
      }
      return result;
    } catch (...) {
      callback_error = std::current_exception();
      return -1;
    }
  }

  static int rhs_main(sunrealtype time, N_Vector x, N_Vector dxdt, void* self) {
    auto* impl = static_cast<Impl*>(self);
    return impl->call(impl->problem.rhs, time, x, dxdt);
  }

  static int rhs_implicit(sunrealtype time, N_Vector x, N_Vector dxdt, void* self) {
    auto* impl = static_cast<Impl*>(self);
    return impl->call(impl->problem.rhs_implicit, time, x, dxdt);
  }

  static int jacobian(sunrealtype time, N_Vector x, N_Vector fx, SUNMatrix jac, void* self, N_Vector /*tmp1*/,
                      N_Vector /*tmp2*/, N_Vector /*tmp3*/) {
    auto* impl = static_cast<Impl*>(self);
    try {
      return impl->problem.jacobian(time, data(x), data(fx), SUNDenseMatrix_Data(jac), impl->problem.user);
    } catch (...) {
      impl->callback_error = std::current_exception();
      return -1;
    }
  }

  void keep_message(const char* function, const char* message) {
    std::snprintf(arkode_message.data(), arkode_message.size(), "%s: %s",
                  function != nullptr ? function : "ARKODE", message != nullptr ? message : "");
  }

#if SUNDIALS_VERSION_MAJOR >= 7
  static void error_handler(int /*line*/, const char* function, const char* /*file*/, const char* message,
                            SUNErrCode /*code*/, void* self, SUNContext /*ctx*/) {
    static_cast<Impl*>(self)->keep_message(function, message);
  }
#else
  static void error_handler(int code, const char* /*module*/, const char* function, char* message,
                            void* self) {
    if (code != ARK_WARNING) static_cast<Impl*>(self)->keep_message(function, message);
  }
#endif

  // -- set-up -----------------------------------------------------------------------

  [[noreturn]] void fail_setup(const char* call_name, long flag) const {
    std::string what = std::string("OdeSolver (") + to_string(options.method) + ", n = " + std::to_string(n) +
                       "): " + call_name + " failed";
    if (flag != 0) what += " with " + flag_name(flag);
    if (arkode_message[0] != '\0') what += std::string(" (") + arkode_message.data() + ")";
    throw std::runtime_error(what);
  }

  void check(int flag, const char* call_name) const {
    if (flag < 0) fail_setup(call_name, flag);
  }

  N_Vector new_vector(const char* what) {
    N_Vector v = N_VNew_Serial(static_cast<sunindextype>(n), ctx);
    if (v == nullptr) fail_setup(what, 0);
    // Fused vector operations (one pass for a linear combination of the
    // stages instead of one per stage): ARKODE's vectors are clones of
    // these, and keep the setting. bench/ct statespace: 17 % less time.
    if (N_VEnableFusedOps_Serial(v, SUNTRUE) != 0) fail_setup("N_VEnableFusedOps_Serial", 0);
    // Operations compiled here at -O2 instead of Debian's -O0 library
    // (vector_ops.hpp): bit for bit the same results.
    use_project_vector_ops(v);
    return v;
  }

  void set_classical_rk4() {
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
    const int flag = ERKStepSetTable(mem, table);  // copies the table
    ARKodeButcherTable_Free(table);
    check(flag, "ERKStepSetTable");
  }

  void set_tolerances() {
    const double rtol = options.rtol;
    if (options.atol_per_state.empty()) {
      check(CTDE_ARK(SStolerances, erk, mem, rtol, options.atol), "SStolerances");
      return;
    }
    N_Vector atol = new_vector("N_VNew_Serial (atol)");
    std::copy(options.atol_per_state.begin(), options.atol_per_state.end(), data(atol));
    const int flag = CTDE_ARK(SVtolerances, erk, mem, rtol, atol);  // copies atol
    N_VDestroy(atol);
    check(flag, "SVtolerances");
  }

  void create(double t_start, std::span<const double> x0) {
#if SUNDIALS_VERSION_MAJOR >= 7
    if (SUNContext_Create(SUN_COMM_NULL, &ctx) != 0) fail_setup("SUNContext_Create", 0);
#else
    if (SUNContext_Create(nullptr, &ctx) != 0) fail_setup("SUNContext_Create", 0);
#endif
    y[0] = new_vector("N_VNew_Serial (state)");
    y[1] = new_vector("N_VNew_Serial (state)");
    view = N_VNewEmpty_Serial(static_cast<sunindextype>(n), ctx);
    if (view == nullptr) fail_setup("N_VNewEmpty_Serial", 0);
    use_project_vector_ops(view);                 // the solver computes with views too (GetDky, Reset)
    std::copy(x0.begin(), x0.end(), data(y[0]));  // x(t0) and x(t1) of the empty first "step"
    std::copy(x0.begin(), x0.end(), data(y[1]));

    const SolverKind kind = options.method;
    erk = kind == SolverKind::kErk45 || kind == SolverKind::kErk23 || kind == SolverKind::kRk4Fixed ||
          kind == SolverKind::kRkf45;
    if (erk) {
      mem = ERKStepCreate(rhs_main, t_start, y[cur], ctx);
      if (mem == nullptr) fail_setup("ERKStepCreate", 0);
    } else if (kind == SolverKind::kArkImex && problem.rhs != nullptr && problem.rhs_implicit != nullptr) {
      mem = ARKStepCreate(rhs_main, rhs_implicit, t_start, y[cur], ctx);
      if (mem == nullptr) fail_setup("ARKStepCreate", 0);
    } else {  // dirk, or ark-imex with one function: all implicit
      mem = ARKStepCreate(nullptr, problem.rhs != nullptr ? rhs_main : rhs_implicit, t_start, y[cur], ctx);
      if (mem == nullptr) fail_setup("ARKStepCreate", 0);
    }

#if SUNDIALS_VERSION_MAJOR >= 7
    check(SUNContext_ClearErrHandlers(ctx), "SUNContext_ClearErrHandlers");
    check(SUNContext_PushErrHandler(ctx, error_handler, this), "SUNContext_PushErrHandler");
#else
    check(CTDE_ARK(SetErrHandlerFn, erk, mem, error_handler, this), "SetErrHandlerFn");
#endif
    check(CTDE_ARK(SetUserData, erk, mem, this), "SetUserData");

    switch (kind) {
      case SolverKind::kErk45:
        check(ERKStepSetTableNum(mem, ARKODE_DORMAND_PRINCE_7_4_5), "ERKStepSetTableNum");
        break;
      case SolverKind::kErk23:
        check(ERKStepSetTableNum(mem, ARKODE_BOGACKI_SHAMPINE_4_2_3), "ERKStepSetTableNum");
        break;
      case SolverKind::kRk4Fixed:
        set_classical_rk4();
        break;
      case SolverKind::kRkf45:
        check(ERKStepSetTableNum(mem, ARKODE_FEHLBERG_6_4_5), "ERKStepSetTableNum");
        break;
      case SolverKind::kDirk:
        check(ARKStepSetTableNum(mem, ARKODE_ESDIRK436L2SA_6_3_4, ARKODE_ERK_NONE), "ARKStepSetTableNum");
        break;
      case SolverKind::kArkImex:
        if (problem.rhs != nullptr && problem.rhs_implicit != nullptr) {
          check(ARKStepSetTableNum(mem, ARKODE_ARK437L2SA_DIRK_7_3_4, ARKODE_ARK437L2SA_ERK_7_3_4),
                "ARKStepSetTableNum");
        } else {
          check(ARKStepSetTableNum(mem, ARKODE_ARK437L2SA_DIRK_7_3_4, ARKODE_ERK_NONE), "ARKStepSetTableNum");
        }
        break;
    }

    set_tolerances();
    if (kind == SolverKind::kRk4Fixed) {
      check(CTDE_ARK(SetFixedStep, erk, mem, fixed_step()), "SetFixedStep");
    } else {
      if (options.initial_step) {
        check(CTDE_ARK(SetInitStep, erk, mem, *options.initial_step), "SetInitStep");
      }
      if (options.min_step) check(CTDE_ARK(SetMinStep, erk, mem, *options.min_step), "SetMinStep");
      if (options.max_step && std::isfinite(*options.max_step)) {
        check(CTDE_ARK(SetMaxStep, erk, mem, *options.max_step), "SetMaxStep");
      }
    }

    if (!erk) {
      jac_matrix = SUNDenseMatrix(static_cast<sunindextype>(n), static_cast<sunindextype>(n), ctx);
      if (jac_matrix == nullptr) fail_setup("SUNDenseMatrix", 0);
      linear_solver = SUNLinSol_Dense(y[cur], jac_matrix, ctx);
      if (linear_solver == nullptr) fail_setup("SUNLinSol_Dense", 0);
      check(CTDE_ARKSTEP(SetLinearSolver, mem, linear_solver, jac_matrix), "SetLinearSolver");
      if (problem.jacobian != nullptr) check(CTDE_ARKSTEP(SetJacFn, mem, jacobian), "SetJacFn");
      // Refactor the Newton matrix whenever the step size changes. With ARKODE's
      // default (only when gamma = h·a_ii changes by 20 %), the Newton convergence-rate
      // estimate kept from earlier, well-converged iterations accepts the first
      // iterate of a stale matrix: after a step shortened by a stop time (every event
      // does this) the error was 10^2 to 10^5 times the tolerance (6.4.1, x' = 1 - x
      // and the harmonic oscillator). The cost is one LU factorization per step-size
      // change; the Jacobian itself is still reused (ARKODE re-evaluates it every 51
      // steps or on a convergence failure).
      check(CTDE_ARKSTEP(SetDeltaGammaMax, mem, kDeltaGammaMax), "SetDeltaGammaMax");
    }
  }

  [[nodiscard]] double fixed_step() const {
    return options.initial_step ? *options.initial_step : *options.max_step;
  }

  // -- stepping ---------------------------------------------------------------------

  StepResult failure(StepStatus status, int flag, std::string message) const {
    return StepResult{status, t, flag, std::move(message)};
  }

  void reset_at(double time, N_Vector x) {
    arkode_message[0] = '\0';
    const int flag = CTDE_ARK(Reset, erk, mem, time, x);
    if (flag < 0) {
      throw std::runtime_error("OdeSolver: Reset at t = " + std::to_string(time) + " failed with " +
                               flag_name(flag) + " (" + arkode_message.data() + ")");
    }
  }
};

OdeSolver::OdeSolver(const OdeProblem& problem, const OdeOptions& options, double t0,
                     std::span<const double> x0)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.problem = problem;
  s.options = options;
  s.n = problem.size;
  const auto bad = [&](const std::string& why) {
    throw std::runtime_error(std::string("OdeSolver (") + to_string(options.method) + "): " + why);
  };
  if (problem.size == 0) bad("the state size must be > 0");
  if (x0.size() != problem.size) {
    bad("the initial state has " + std::to_string(x0.size()) + " values, the problem " +
        std::to_string(problem.size));
  }
  if (!std::isfinite(t0)) bad("the start time must be finite");
  if (problem.rhs == nullptr &&
      !(options.method == SolverKind::kArkImex && problem.rhs_implicit != nullptr)) {
    bad("no right-hand side function");
  }
  if (problem.rhs_implicit != nullptr && options.method != SolverKind::kArkImex) {
    bad("an implicit right-hand side part is only used by ark-imex");
  }
  if (!(options.rtol >= 0) || !std::isfinite(options.rtol)) bad("rtol must be finite and >= 0");
  if (options.atol_per_state.empty()) {
    if (!(options.atol >= 0) || !std::isfinite(options.atol)) bad("atol must be finite and >= 0");
  } else {
    if (options.atol_per_state.size() != problem.size) {
      bad("atol_per_state has " + std::to_string(options.atol_per_state.size()) + " values, the state " +
          std::to_string(problem.size));
    }
    for (double a : options.atol_per_state) {
      if (!(a >= 0) || !std::isfinite(a)) bad("every atol_per_state value must be finite and >= 0");
    }
  }
  const auto check_step = [&](const std::optional<double>& h, const char* name) {
    if (h && !(*h > 0)) bad(std::string(name) + " must be > 0");
    if (h && std::isnan(*h)) bad(std::string(name) + " must be a number");
  };
  check_step(options.initial_step, "initial_step");
  check_step(options.min_step, "min_step");
  check_step(options.max_step, "max_step");
  if (options.initial_step && !std::isfinite(*options.initial_step)) bad("initial_step must be finite");
  if (options.min_step && !std::isfinite(*options.min_step)) bad("min_step must be finite");
  if (options.min_step && options.max_step && *options.min_step > *options.max_step) {
    bad("min_step exceeds max_step");
  }
  if (options.method == SolverKind::kRk4Fixed &&
      !(options.initial_step || (options.max_step && std::isfinite(*options.max_step)))) {
    bad("rk4-fixed needs a step size: set initial_step (or a finite max_step)");
  }
  if (options.max_steps < 0) bad("max_steps must be >= 0 (0: no limit)");

  if (options.method == SolverKind::kErk45 && options.integrator == OdeIntegrator::kCtde) {
    own_ = std::make_unique<DormandPrince>(problem, options, t0, x0);
  } else {
    s.create(t0, x0);
  }
  s.t = t0;
  s.t0 = t0;
}

OdeSolver::~OdeSolver() = default;
OdeSolver::OdeSolver(OdeSolver&&) noexcept = default;
OdeSolver& OdeSolver::operator=(OdeSolver&&) noexcept = default;

StepResult OdeSolver::step(double t_limit) {
  // The contract's checks and the count of steps for max_steps, the same
  // for both integrators.
  const double t = current_time();
  if (t_limit == t) return StepResult{StepStatus::kReachedStop, t, 0, {}};
  if (!(t_limit > t)) {
    return StepResult{
        StepStatus::kFailed, t, 0,
        "t_limit " + std::to_string(t_limit) + " is not after the current time " + std::to_string(t)};
  }
  const long max_steps = impl_->options.max_steps;
  if (max_steps > 0 && steps_without_stop_ >= max_steps) {
    return StepResult{StepStatus::kTooMuchWork, t, 0,
                      std::to_string(steps_without_stop_) + " steps (max_steps) without reaching t = " +
                          std::to_string(t_limit) + "; is the problem stiff? (try dirk)"};
  }
  StepResult result = own_ ? own_->step(t_limit) : arkode_step(t_limit);
  if (result.status == StepStatus::kReachedStop) {
    steps_without_stop_ = 0;
  } else if (result.status == StepStatus::kOk) {
    ++steps_without_stop_;
  }
  return result;
}

StepResult OdeSolver::arkode_step(double t_limit) {
  Impl& s = *impl_;
  const double t_start = s.t;
  const int next = 1 - s.cur;

  // Closer than ARKODE can resolve (it would answer ARK_TOO_CLOSE, or return at once):
  // x changes by less than |f| times a few ulps of t. Advance the time only.
  if (!resolves(t_start, t_limit)) {
    std::memcpy(data(s.y[next]), data(s.y[s.cur]), s.n * sizeof(double));
    s.cur = next;
    s.reset_at(t_limit, s.y[s.cur]);
    s.t0 = t_start;
    s.t = t_limit;
    s.interpolant = false;
    return StepResult{StepStatus::kReachedStop, t_limit, ARK_TSTOP_RETURN, {}};
  }

  sunrealtype t_returned = t_start;
  int flag = 0;
  for (int retries = 0;; ++retries) {
    s.arkode_message[0] = '\0';
    flag = CTDE_ARK(SetStopTime, s.erk, s.mem, t_limit);
    if (flag < 0) {
      return s.failure(StepStatus::kFailed, flag,
                       flag_name(flag) + " from SetStopTime: " + s.arkode_message.data());
    }
    s.recoverable_failure = false;
    flag = CTDE_ARK(Evolve, s.erk, s.mem, t_limit, s.y[next], &t_returned, ARK_ONE_STEP);
    if (s.callback_error) {
      std::exception_ptr error = std::exchange(s.callback_error, nullptr);
      std::rethrow_exception(error);
    }
    if (flag >= 0) break;
    // ARKODE stays at its last good state (t, y[cur]); y[next] holds scratch values.
    if (!s.recoverable_failure) {
      return s.failure(classify(flag), flag, flag_name(flag) + ": " + s.arkode_message.data());
    }
    // The right-hand side refused a trial point (> 0: a state outside its
    // domain, as a stage of a long step overshooting a level). ARKODE's
    // explicit methods do not recover from that (ARK_UNREC_RHSFUNC_ERR), its
    // implicit ones only inside the Newton iteration: the step is tried
    // again from its start, shorter than the failing stage's offset (a stage
    // lies inside its step). A failure at the step's start (the solution
    // itself), after kMaxRecoverableRetries, below a step the solver can
    // integrate, or with a fixed step is final.
    const double shorter = OdeSolver::kRecoverableShrink * (s.recoverable_failure_time - t_start);
    if (retries == OdeSolver::kMaxRecoverableRetries || !resolves(t_start, t_start + shorter) ||
        s.options.method == SolverKind::kRk4Fixed) {
      StepResult result = s.failure(StepStatus::kRhsFailed, flag,
                                    flag_name(flag) + ": the right-hand side failed (recoverably) at t = " +
                                        std::to_string(s.recoverable_failure_time) + ", after " +
                                        std::to_string(retries) + " shorter steps");
      result.recoverable_retries = retries;
      return result;
    }
    s.reset_at(t_start, s.y[s.cur]);
    s.check(CTDE_ARK(SetInitStep, s.erk, s.mem, shorter), "SetInitStep");
  }
  s.cur = next;
  s.t0 = t_start;
  s.interpolant = true;
  if (flag == ARK_TSTOP_RETURN) {
    s.t = t_limit;  // exactly: the director's time events land on their tick
    return StepResult{StepStatus::kReachedStop, t_limit, flag, {}};
  }
  s.t = t_returned;
  return StepResult{StepStatus::kOk, t_returned, flag, {}};
}

void OdeSolver::dense_output(double t, double* out) const {
  if (own_) {
    own_->dense_output(t, out);
    return;
  }
  const Impl& s = *impl_;
  const std::size_t bytes = s.n * sizeof(double);
  if (t == s.t) {
    std::memcpy(out, data(s.y[s.cur]), bytes);
    return;
  }
  if (t == s.t0) {
    std::memcpy(out, data(s.y[1 - s.cur]), bytes);
    return;
  }
  if (!s.interpolant || !(t >= s.t0 && t <= s.t)) {
    // ARKODE would accept a few ulps outside [t0, t1]; the wrapper's contract is [t0, t1].
    // Outside of it, or inside a step that was reset or rolled back, there is no interpolant.
    throw std::out_of_range(
        "OdeSolver::dense_output: t = " + std::to_string(t) +
        (s.interpolant ? " is outside the last step [" : " is inside [") + std::to_string(s.t0) + ", " +
        std::to_string(s.t) + "]" +
        (s.interpolant ? "" : ", which was reset or rolled back: only its ends are stored"));
  }
  N_VSetArrayPointer(out, s.view);
  const int flag = CTDE_ARK(GetDky, s.erk, s.mem, t, 0, s.view);
  if (flag < 0) {
    throw std::out_of_range("OdeSolver::dense_output: GetDky at t = " + std::to_string(t) + " failed with " +
                            flag_name(flag) + " (" + s.arkode_message.data() + ")");
  }
}

bool OdeSolver::resolves(double t0, double t1) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  return t1 - t0 > 4.0 * kEps * std::max(std::abs(t0), std::abs(t1));
}

double OdeSolver::planned_step() const {
  if (own_) return own_->planned_step();
  const Impl& s = *impl_;
  sunrealtype planned = 0;
  if (CTDE_ARK(GetCurrentStep, s.erk, s.mem, &planned) < 0) return 0;
  return static_cast<double>(planned);
}

void OdeSolver::reset(double t, const double* x, double first_step) {
  if (own_) {
    own_->reset(t, x, first_step);
    steps_without_stop_ = 0;
    return;
  }
  Impl& s = *impl_;
  if (!std::isfinite(t)) throw std::runtime_error("OdeSolver::reset: t must be finite");
  // The step ARKODE planned next, before Reset forgets it.
  const double planned = first_step > 0 ? first_step : planned_step();
  std::memcpy(data(s.y[s.cur]), x, s.n * sizeof(double));
  s.reset_at(t, s.y[s.cur]);
  // A new state after an event: the first step is the one ARKODE planned before
  // the event (its error test rejects and shrinks it if the event changed the
  // dynamics), as ARKODE's own Reset keeps it; without one (a reset before any
  // step), ARKODE's estimate or the user's initial_step. rk4-fixed keeps its step.
  if (s.options.method == SolverKind::kRk4Fixed) {
    s.check(CTDE_ARK(SetFixedStep, s.erk, s.mem, s.fixed_step()), "SetFixedStep");
  } else {
    const double first = planned > 0 ? static_cast<double>(planned) : s.options.initial_step.value_or(0.0);
    s.check(CTDE_ARK(SetInitStep, s.erk, s.mem, first), "SetInitStep");
  }
  std::memcpy(data(s.y[1 - s.cur]), x, s.n * sizeof(double));
  s.t = t;
  s.t0 = t;
  s.interpolant = false;
  steps_without_stop_ = 0;
}

void OdeSolver::correct_state(const double* x) {
  if (own_) {
    own_->correct_state(x);
    return;
  }
  Impl& s = *impl_;
  std::memcpy(data(s.y[s.cur]), x, s.n * sizeof(double));
  s.reset_at(s.t, s.y[s.cur]);  // no SetInitStep: ARKODE keeps its next step size
  std::memcpy(data(s.y[1 - s.cur]), x, s.n * sizeof(double));
  s.t0 = s.t;
  s.interpolant = false;
}

void OdeSolver::redo_to(double te) {
  if (own_) {
    own_->redo_to(te);
    return;
  }
  Impl& s = *impl_;
  if (!(te >= s.t0 && te <= s.t)) {
    throw std::out_of_range("OdeSolver::redo_to: te = " + std::to_string(te) + " is outside the last step [" +
                            std::to_string(s.t0) + ", " + std::to_string(s.t) + "]");
  }
  if (te == s.t) return;
  if (te != s.t0 && !s.interpolant) {
    throw std::out_of_range("OdeSolver::redo_to: te = " + std::to_string(te) +
                            " is inside a step that was already reset or rolled back");
  }
  // x(te) into the buffer of x(t1), which the rollback discards; x(t0) stays.
  dense_output(te, data(s.y[s.cur]));
  s.reset_at(te, s.y[s.cur]);
  // Reset forgets the step size; the redone step starts with the one just
  // taken (its error test passed), so a step to any te inside it is one step.
  if (s.options.method != SolverKind::kRk4Fixed) {
    s.check(CTDE_ARK(SetInitStep, s.erk, s.mem, s.t - s.t0), "SetInitStep");
  }
  s.t = te;
  s.interpolant = false;
}

double OdeSolver::current_time() const { return own_ ? own_->current_time() : impl_->t; }

std::span<const double> OdeSolver::state() const {
  if (own_) return own_->state();
  return {data(impl_->y[impl_->cur]), impl_->n};
}
std::span<const double> OdeSolver::last_step_start_state() const {
  if (own_) return own_->last_step_start_state();
  return {data(impl_->y[1 - impl_->cur]), impl_->n};
}

double OdeSolver::last_step_start() const { return own_ ? own_->last_step_start() : impl_->t0; }
double OdeSolver::last_step_end() const { return current_time(); }
std::size_t OdeSolver::size() const { return impl_->n; }
SolverKind OdeSolver::method() const { return impl_->options.method; }

OdeStatistics OdeSolver::statistics() const {
  if (own_) return own_->statistics();
  const Impl& s = *impl_;
  OdeStatistics st;
  void* mem = s.mem;
  s.check(CTDE_ARK(GetNumSteps, s.erk, mem, &st.steps), "GetNumSteps");
  s.check(CTDE_ARK(GetNumStepAttempts, s.erk, mem, &st.step_attempts), "GetNumStepAttempts");
  s.check(CTDE_ARK(GetNumErrTestFails, s.erk, mem, &st.error_test_failures), "GetNumErrTestFails");
#if CTDE_ARKODE_SHARED_RHS_COUNT
  s.check(ARKodeGetNumRhsEvals(mem, -1, &st.rhs_evals), "ARKodeGetNumRhsEvals");  // -1: all partitions
#else
  if (s.erk) {
    s.check(ERKStepGetNumRhsEvals(mem, &st.rhs_evals), "ERKStepGetNumRhsEvals");
  } else {
    long fe = 0;
    long fi = 0;
    s.check(ARKStepGetNumRhsEvals(mem, &fe, &fi), "ARKStepGetNumRhsEvals");
    st.rhs_evals = fe + fi;
  }
#endif
  if (!s.erk) {
    s.check(CTDE_ARKSTEP(GetNumLinRhsEvals, mem, &st.jacobian_rhs_evals), "GetNumLinRhsEvals");
    s.check(CTDE_ARKSTEP(GetNumJacEvals, mem, &st.jacobian_evals), "GetNumJacEvals");
    s.check(CTDE_ARKSTEP(GetNumNonlinSolvIters, mem, &st.nonlinear_iterations), "GetNumNonlinSolvIters");
    s.check(CTDE_ARKSTEP(GetNumNonlinSolvConvFails, mem, &st.nonlinear_conv_failures),
            "GetNumNonlinSolvConvFails");
    s.check(CTDE_ARKSTEP(GetNumLinSolvSetups, mem, &st.linear_setups), "GetNumLinSolvSetups");
  }
  return st;
}

}  // namespace ctde
