#pragma once
/// The ODE solver: the project's own Dormand–Prince stepper for erk45, SUNDIALS
/// ARKODE for the other Runge–Kutta methods, CVODE for bdf, and a switch
/// between the first and the last for auto (docs/architecture.md; docs/semantics.md).
///
/// One integrator per run: `OdeSolver` creates one integrator for a state size n and
/// a method (its back end: a DormandPrince, an ARKODE or CVODE memory block), and keeps it until it is
/// destroyed. The director drives it
/// one internal step at a time, never past the next event time:
///
///     solver.step(t_next)          one step [t0, t1] with t1 <= t_next; t1 == t_next
///                                  exactly when the step reached it (kReachedStop)
///     solver.dense_output(t, x)    x(t) for t in [t0, t1], from the integrator's interpolant
///     solver.redo_to(te)           rollback: x(te) from the interpolant, then ReInit at
///                                  (te, x(te)); the step is now [t0, te]
///     solver.reset(t, x⁺)          state reset at an event: ReInit at (t, x⁺)
///
/// A state reset is ARKODE's or CVODE's ReInit, a rollback is GetDky + ReInit: the
/// integrator is never re-created and its options survive both; it starts as a new
/// one would (no step counter, no past errors), and its counters are carried over.
///
/// Methods (`SolverKind`, domains/ct/solver_kind.hpp; the director option `solver`):
///
/// | kind      | integrator                         | table                                               |
/// |-----------|------------------------------------|-----------------------------------------------------|
/// | erk45     | DormandPrince (dormand_prince.hpp) | Dormand–Prince 5(4), FSAL, its own order-4 dense    |
/// |           |   with OdeIntegrator::kCtde (the   |   output; ARKODE's error norm, PID controller, step |
/// |           |   default); ARKODE ERKStep with    |   limits and first-step estimate (about its steps). |
/// |           |   kArkode                          | ARKODE_DORMAND_PRINCE_7_4_5 (as ode45, SciPy RK45)  |
/// | erk23     | ERKStep, adaptive                  | ARKODE_BOGACKI_SHAMPINE_4_2_3                       |
/// | rk4-fixed | ERKStep, fixed step (SetFixedStep) | classical RK4 (ARKodeButcherTable_Create)           |
/// | dirk      | ARKStep, implicit, dense Newton    | ARKODE_ESDIRK436L2SA_6_3_4 (L-stable, order 4)      |
/// | ark-imex  | ARKStep, explicit fE + implicit fI | ARKODE_ARK437L2SA_ERK_7_3_4 / _DIRK_7_3_4 (order 4) |
/// | rkf45     | ERKStep, adaptive                  | ARKODE_FEHLBERG_6_4_5 (Fehlberg RK4(5))             |
/// | bdf       | CVODE, BDF of order 1 to 5, Newton | variable order and step (as ode15s, LSODE, DASSL)   |
/// | auto      | Dormand–Prince, switching to bdf   | stiffness detected and back (switching_backend.hpp) |
///
/// The tables are named explicitly rather than taken from ARKODE's defaults, which
/// changed in SUNDIALS 7.3 (to these implicit and IMEX tables): the method does not
/// change with the SUNDIALS version. erk45 is Dormand–Prince, not 6.x's default
/// order-5 table (Cash–Karp), to match the usual "ode45" baselines. ARKODE has no
/// classical RK4 table; it is built here (in first-same-as-last form, see the .cpp).
/// rkf45 is the method of the second-order facade (second_order.hpp): ARKODE's
/// Fehlberg table advances with the order-5 weights and uses the order-4 embedding
/// only for the error estimate (local extrapolation), unlike Fehlberg's original
/// RKF45, which advanced with order 4; 6 stages, not first-same-as-last.
/// dirk's table is also stiffly accurate. Implicit methods (dirk, ark-imex, bdf,
/// auto once stiff) solve their Newton systems with the linear solver of
/// OdeOptions::linear_solver (linear_solver.hpp: dense, band, KLU sparse, or
/// matrix-free GMRES; auto chooses from the Jacobian's structure), the
/// Jacobian computed over OdeProblem::pattern (jacobian_evaluator_impl.hpp: the
/// known rows exactly, the others by finite differences over column groups),
/// or the problem's own dense Jacobian function; ARKODE's Newton matrix is
/// refactored whenever the step size changes (arkode_backend.cpp). ark-imex with a single right-hand side
/// treats all of it as implicit (the safe choice for a right-hand side of unknown stiffness): it is then the
/// ARK pair's implicit table alone.
///
/// The own stepper is there for speed (docs/performance.md, "A stepper of the
/// project's own"): Debian's SUNDIALS is built -O0 and at small n its step logic was
/// most of the time. It keeps this contract to the letter; the differences are the
/// dense output (the method's own continuous extension, no f evaluation, where
/// ARKODE's Hermite interpolant evaluates f once per call), StepResult::flag (0),
/// and the messages (no ARKODE flag names). tests/ct/test_dormand_prince.cpp runs
/// the same problems and failures on both.
///
/// One contract, several back ends (solver_backend.hpp): OdeSolver checks the
/// options, the arguments and the times once, and forwards to the back end
/// of the method: DormandPrince (erk45 with kCtde), ArkodeBackend (every
/// other Runge–Kutta method), CvodeBackend (bdf), SwitchingBackend (auto).
///
/// Right-hand-side path (SUNDIALS): the integrator calls a static trampoline that unwraps the N_Vector
/// data pointers and calls the problem's function pointer. No heap allocation, no
/// std::function, no virtual call.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../core/state_stream.hpp"
#include "jacobian_pattern.hpp"
#include "solver_kind.hpp"

namespace ctde {

class SolverBackend;

/// Right-hand side x' = f(t, x): reads n states from `x`, writes n derivatives to
/// `dxdt`. Returns 0 on success, > 0 for a recoverable failure (x is outside f's
/// domain: a trial stage of a step too long), < 0 for an unrecoverable failure (the
/// step fails with StepStatus::kRhsFailed). After a recoverable failure the step is
/// tried again from its start, with a quarter of the failing stage's offset from it
/// (ARKODE's explicit methods do not retry by themselves, and its implicit ones only
/// inside the Newton iteration), up to 10 times in a row; a failure at the step's
/// start, the 11th, one that would need a step too short to integrate, or any with
/// rk4-fixed (its step cannot shorten) fails the step with kRhsFailed
/// (StepResult::recoverable_retries says how many shorter steps were tried).
/// An exception thrown by the function is caught at the C boundary and rethrown
/// from OdeSolver::step once ARKODE has returned.
using RhsFunction = int (*)(double t, const double* x, double* dxdt, void* user);

/// Jacobian J = ∂f/∂x of the (implicit) right-hand side at (t, x), with fx = f(t, x)
/// already evaluated. `jac` is n×n, column-major (J(i, j) at jac[i + j * n]) and
/// zeroed before the call. Same return convention as RhsFunction.
using JacobianFunction = int (*)(double t, const double* x, const double* fx, double* jac, void* user);

/// The values of a pattern that change from point to point (JacobianPattern::values_at_point()):
/// `values` holds one value per entry of the pattern (JacobianPattern::values() order); the
/// function replaces every kAtPoint one with its value at (t, x). Same return convention as
/// RhsFunction.
using JacobianValuesFunction = int (*)(double t, const double* x, double* values, void* user);

/// What to integrate. Plain pointers: the functions and `user` must outlive the solver.
struct OdeProblem {
  std::size_t size = 0;                ///< number of continuous states n, > 0
  RhsFunction rhs = nullptr;           ///< f; for ark-imex the explicit (non-stiff) part fE
  RhsFunction rhs_implicit = nullptr;  ///< ark-imex only: the implicit (stiff) part fI, x' = fE + fI
  JacobianFunction jacobian =
      nullptr;           ///< implicit methods: ∂f/∂x (dense) of the implicit part; null = from `pattern`
  void* user = nullptr;  ///< passed unchanged to the functions
  /// Implicit methods: the structure of ∂f/∂x and its known values (null:
  /// dense, nothing known); the Jacobian is computed over it. Must outlive the solver.
  const JacobianPattern* pattern = nullptr;
  /// Required when `pattern` has values at each point: gives them.
  JacobianValuesFunction values_at_point = nullptr;
  /// A state's name for messages ("tank.h[0]"), or null: "x[k]".
  std::string (*state_name)(std::size_t k, void* user) = nullptr;
};

/// Who integrates erk45: the project's own Dormand–Prince stepper
/// (dormand_prince.hpp, the default) or ARKODE's ERKStep with its Dormand–Prince
/// table. Every other method is ARKODE's whatever this says. The director option
/// `integrator` ("ctde" or "arkode").
enum class OdeIntegrator { kCtde, kArkode };

/// Integration options. Times in seconds. Copyable value type.
struct OdeOptions {
  SolverKind method = SolverKind::kErk45;
  OdeIntegrator integrator = OdeIntegrator::kCtde;  ///< erk45 only: the project's stepper or ARKODE's
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;  ///< implicit methods' Newton systems
  double rtol = 1e-6;                                        ///< relative tolerance, >= 0
  double atol = 1e-9;                                        ///< absolute tolerance for every state, >= 0
  std::vector<double>
      atol_per_state;  ///< if not empty: one absolute tolerance per state (size n), replaces atol
  std::optional<double> initial_step;  ///< empty: ARKODE's estimate. rk4-fixed: the fixed step
  std::optional<double> min_step;      ///< empty: no lower bound
  std::optional<double>
      max_step;  ///< empty or +inf: no upper bound. rk4-fixed: the step if initial_step is empty
  /// Most steps taken without reaching a stop time (ARKODE's mxstep, "steps before
  /// reaching tout", counted by the wrapper because it drives ARKODE one step at a
  /// time). Reached: step() returns kTooMuchWork. 0 = no limit.
  long max_steps = 1'000'000;
};

/// Outcome of one call to OdeSolver::step.
enum class StepStatus {
  kOk,            ///< one step taken, t_reached < t_limit
  kReachedStop,   ///< t_reached == t_limit exactly
  kRhsFailed,     ///< the right-hand side (or Jacobian at the first evaluation) failed
  kTooMuchWork,   ///< max_steps steps without reaching a stop time
  kStepTooSmall,  ///< error test or Newton iteration failed repeatedly or at min_step
  kFailed,        ///< any other ARKODE failure; see StepResult::message
};

[[nodiscard]] const char* to_string(StepStatus status);

/// Result of OdeSolver::step. On failure the solver is left at its last good state
/// (current_time() == t_reached) and may be reset() and stepped again.
struct StepResult {
  StepResult() = default;
  StepResult(StepStatus status_, double t_reached_, int flag_ = 0, std::string message_ = {})
      : status(status_), t_reached(t_reached_), flag(flag_), message(std::move(message_)) {}

  StepStatus status = StepStatus::kOk;
  double t_reached =
      0.0;       ///< time of the state after the call (the step's t1, or the unchanged time on failure)
  int flag = 0;  ///< the SUNDIALS integrator's return flag (ARK_*, CV_*), 0 if not from SUNDIALS
  std::string
      message;  ///< empty on success; on failure the flag name (*GetReturnFlagName) and ARKODE's message
  int recoverable_retries = 0;  ///< kRhsFailed after recoverable failures: the shorter steps tried
  /// auto: after this step the method switches (OdeSolver::method_switch says to which and why).
  bool switches_method = false;

  [[nodiscard]] bool ok() const { return status == StepStatus::kOk || status == StepStatus::kReachedStop; }
};

/// Cumulative counters since construction (carried over every ReInit).
struct OdeStatistics {
  long steps = 0;                ///< accepted steps
  long step_attempts = 0;        ///< accepted + rejected
  long error_test_failures = 0;  ///< steps rejected by the error test
  long rhs_evals = 0;  ///< ERK: f evaluations; ARK: fE + fI evaluations (not counting the FD Jacobian's)
  long jacobian_rhs_evals = 0;       ///< implicit: f evaluations spent on finite-difference Jacobians
  long jacobian_evals = 0;           ///< implicit: Jacobian evaluations (user or finite differences)
  long nonlinear_iterations = 0;     ///< implicit: Newton iterations
  long nonlinear_conv_failures = 0;  ///< implicit: Newton convergence failures
  long linear_setups = 0;            ///< implicit: linear solver setups (Newton matrix factorizations)
  long method_switches = 0;          ///< auto: switches between the non-stiff method and bdf

  /// Adds every counter of `other` (the integrations of another integrator, or of before a restart).
  OdeStatistics& operator+=(const OdeStatistics& other) {
    steps += other.steps;
    step_attempts += other.step_attempts;
    error_test_failures += other.error_test_failures;
    rhs_evals += other.rhs_evals;
    jacobian_rhs_evals += other.jacobian_rhs_evals;
    jacobian_evals += other.jacobian_evals;
    nonlinear_iterations += other.nonlinear_iterations;
    nonlinear_conv_failures += other.nonlinear_conv_failures;
    linear_setups += other.linear_setups;
    method_switches += other.method_switches;
    return *this;
  }
};

/// One integrator for one run. Not copyable; movable (the back end lives
/// behind a stable pointer). A moved-from solver may only be destroyed or
/// assigned to.
class OdeSolver {
 public:
  /// A step whose right-hand side failed recoverably at a stage is tried
  /// again with this fraction of the stage's offset from the step's start,
  /// at most kMaxRecoverableRetries times in a row (ARKODE's own limit on
  /// convergence failures in one step, maxncf, is 10; its step reduction
  /// after one, etacf, 0.25). The same rule for both integrators.
  static constexpr double kRecoverableShrink = 0.25;
  static constexpr int kMaxRecoverableRetries = 10;

  /// Creates and configures the integrator at (t0, x0), x0 of size problem.size.
  /// @throws std::runtime_error naming the problem: size 0, x0 of the wrong size, a
  ///         missing rhs, rhs_implicit with a method other than ark-imex, negative or
  ///         non-finite tolerances, atol_per_state of the wrong size, rk4-fixed
  ///         without a step size, a pattern of the wrong size, a linear solver
  ///         that does not fit (band or klu with the problem's dense Jacobian
  ///         function), or any SUNDIALS set-up call failing (with its flag).
  OdeSolver(const OdeProblem& problem, const OdeOptions& options, double t0, std::span<const double> x0);
  ~OdeSolver();
  OdeSolver(OdeSolver&&) noexcept;
  OdeSolver& operator=(OdeSolver&&) noexcept;
  OdeSolver(const OdeSolver&) = delete;
  OdeSolver& operator=(const OdeSolver&) = delete;

  /// Takes one internal step (ARK_ONE_STEP) from current_time(), with the stop time
  /// set to t_limit before the step (ARKODE clears it once reached), so the step
  /// never passes t_limit and lands on it exactly when it gets there.
  /// Post: on success [last_step_start(), last_step_end()] is the step just taken.
  /// t_limit == current_time() returns kReachedStop without stepping; t_limit less
  /// than current_time() returns kFailed. A t_limit closer to current_time() than
  /// ARKODE can resolve (a few ulps of t) advances the time without integrating.
  /// Failures are reported in the result, never thrown; an exception thrown by a
  /// problem function is rethrown. No heap allocation unless it fails.
  [[nodiscard]] StepResult step(double t_limit);

  /// Writes x(t) (n values) to `out`, from the interpolant of the last step: erk45
  /// with the own stepper, Dormand–Prince's continuous extension (order 4, no f
  /// evaluation); otherwise ARKODE's (GetDky, k = 0: ARKODE's default Hermite interpolant, of degree q - 1
  /// for a method of order q; above degree 3 it evaluates the right-hand side once more on every call; its
  /// error can exceed the step's local error a few times on long implicit steps). At the step's ends the
  /// stored states are copied exactly. No allocation. Pre: last_step_start() <= t <= last_step_end().
  /// @throws std::out_of_range if t is outside the last step, or strictly inside a
  ///         step that was reset or rolled back (only its ends are stored).
  void dense_output(double t, double* out) const;

  /// State reset after an event: the integrator continues from (t, x) (n values),
  /// starting with `first_step` when it is > 0, else with the step ARKODE had planned
  /// next (its error test shrinks it if the event changed the dynamics; ARKODE's
  /// estimate when there is none; rk4-fixed keeps its step). Same integrator, same
  /// counters.
  /// Post: current_time() == t, last step = [t, t].
  /// @throws std::runtime_error if ARKODE rejects the reset.
  void reset(double t, const double* x, double first_step = 0);
  /// The first step that makes a reset at the same (t, x) in a new
  /// integrator start as the last reset() did (SolverBackend::step_kept_by_reset).
  [[nodiscard]] double last_reset_step() const { return last_reset_step_; }

  /// A snapshot's part of the integrator beyond (t, x) and the step it
  /// restarts with (SolverBackend::save_method: auto's method and counters).
  void save_method(StateWriter& out) const;
  /// In a resumed run, before its restart at (t, x) (n values): reads what
  /// save_method wrote.
  void restore_method(StateReader& in, double t, const double* x);

  /// True when save_exact() lets a resumed run go on without a restart
  /// (SolverBackend::saves_exactly: the project's Dormand–Prince).
  [[nodiscard]] bool saves_exactly() const;
  /// Pre: saves_exactly(). The integrator where it stands, to go on from.
  void save_exact(StateWriter& out) const;
  /// In a resumed run's new integrator, instead of its restart: reads what
  /// save_exact wrote.
  void restore_exact(StateReader& in);

  /// True when a step from t0 to t1 > t0 is long enough to integrate: more
  /// than a few ulps of t (shorter, step() advances the time only).
  [[nodiscard]] static bool resolves(double t0, double t1);

  /// The step ARKODE plans to take next (0 before the first step).
  [[nodiscard]] double planned_step() const;

  /// Small correction of the state at current_time() (a projection onto a constraint,
  /// an invariant re-imposed): ReInit at (current_time(), x) (n values) keeping the step
  /// size ARKODE chose for the next step, where reset() asks for a fresh estimate, whose
  /// first steps are short: after a correction at every step that would make every step
  /// a first step. For a jump that makes the old step size meaningless, use reset().
  /// Post: as reset() at t = current_time(); max_steps keeps counting.
  /// @throws std::runtime_error if ARKODE rejects the reset.
  void correct_state(const double* x);

  /// Rollback of the last step to te in [last_step_start(), last_step_end()]: x(te)
  /// from the dense output, then ReInit at (te, x(te)); the next step starts with the
  /// rolled-back step's size (ARKODE's ReInit alone would estimate a new one). This is
  /// how a refined step is taken: redo_to(te) and the step is [t0, te] (the director
  /// then calls step(t_limit) to go on). redo_to(last_step_start()) restores the
  /// step's start state exactly, so re-integrating with step(te) is also possible.
  /// Post: current_time() == te, last step = [t0, te] (only its ends are available to
  /// dense_output: the interpolant is gone).
  /// @throws std::out_of_range if te is outside the last step, or strictly inside a
  ///         step that was already reset or rolled back.
  void redo_to(double te);

  [[nodiscard]] double current_time() const;
  /// The state at current_time(), n values. Valid until the next non-const call.
  [[nodiscard]] std::span<const double> state() const;
  /// The state at last_step_start(), n values. Valid until the next non-const call.
  [[nodiscard]] std::span<const double> last_step_start_state() const;
  [[nodiscard]] double last_step_start() const;  ///< t0 of the last step
  [[nodiscard]] double last_step_end() const;    ///< t1 of the last step == current_time()
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] SolverKind method() const { return method_; }
  /// The method stepping now: method()'s name, or for auto the one it runs.
  [[nodiscard]] std::string method_now() const;
  /// After a step with StepResult::switches_method: the method switched to
  /// and why ("bdf: stiff (h |lambda| = ...)"); "" otherwise.
  [[nodiscard]] const std::string& method_switch() const;
  /// The Newton systems' linear solver ("dense", "band", "klu", "gmres"), "" for an explicit method.
  [[nodiscard]] std::string linear_solver() const;
  /// Counters read from the integrator. @throws std::runtime_error if a query fails.
  [[nodiscard]] OdeStatistics statistics() const;

 private:
  std::unique_ptr<SolverBackend> backend_;
  SolverKind method_ = SolverKind::kErk45;
  std::size_t n_ = 0;
  double last_reset_step_ = 0;
  long max_steps_ = 0;
  long steps_without_stop_ = 0;  // steps since the last stop time or reset (max_steps)
};

/// The checks of OdeSolver's constructor on `problem` and `options`.
/// @throws std::runtime_error naming what is wrong.
void check_ode_problem(const OdeProblem& problem, const OdeOptions& options, double t0,
                       std::span<const double> x0);

}  // namespace ctde
