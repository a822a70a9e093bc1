#pragma once
/// Second-order systems p'' = F(t, p, p') with a check_step protocol for discrete
/// events and guards located by the director's event locator (docs/second-order.md).
///
/// `SecondOrderSolver` integrates the m positions p and m velocities v = p' as the
/// first-order state x = (p, v), x' = (v, F(t, p, v)), on the project's solver
/// contract (OdeSolver) with any of its methods (SecondOrderOptions::method; Fehlberg's
/// RK4(5), SolverKind::kRkf45, by default). After every tentative step [t0, t1] it
/// asks the client's check_step, which answers exactly one of (x⁻ is the state the
/// solver computed, x⁺ the one it goes on from):
///
///     stop_at_start()            the step is dropped; run() returns at (t0, x(t0))
///     redo_to(te)                the step is dropped and integrated again from t0,
///                                this time to te (t0 + dt_min <= te < t1); check_step
///                                then sees the redone step [t0, te] (or a shorter
///                                [t0, t'] if the error test needs a smaller step)
///     take_and_stop()            run() returns at (t1, x⁺(t1))
///     take_and_continue(bound)   the next step starts at (t1, x⁺(t1)) and ends no
///                                later than bound (> t1; +inf: no bound but t_end)
///
/// In the two "take" answers the callback may have written a different end state
/// x⁺(t1) into the step's p1 and v1 (to re-impose a constraint, to reflect a
/// velocity at an impact): the solver is then reset at (t1, x⁺), keeping its step
/// size (OdeSolver::correct_state). Writes to p1 and v1 are ignored for the other two
/// answers. A redo is a real Runge–Kutta step from the start state, not a cut of the
/// interpolant: the state at te carries the method's error, and the redone step has a
/// dense output of its own for the next refinement.
///
/// Guards (SecondOrderProblem::guards): functions g_k(t, p, v) whose crossings of zero
/// in their direction are events. The EventLocator (event_locator.hpp) finds the
/// earliest crossing in each step, to the tick of SecondOrderOptions::resolution: the
/// event's time te is the first tick at which the guards have crossed. The step that
/// check_step sees then ends at te (cut on the solver's dense output, or integrated
/// again when te is very close to t0), and TentativeStep::crossings() says which
/// guards crossed. A take answer fires them (EventLocator::fire: chattering and Zeno
/// behaviour are a RunError), and they settle at x⁺. The loop of run(t_end):
///
///     limit = min(bound of the last take_and_continue, t_end)
///     while t < t_end:
///       [t0, t1] = one solver step from t, never past limit
///       g(t1) crossed?  [t0, t1] = [t0, te], te the located event (the step is cut)
///       answer = check_step(step)            (no check_step: take_and_continue(+inf))
///       stop_at_start      → roll back to t0, return kStoppedAtStart
///       redo_to(te)        → roll back to t0, limit = te
///       take_and_stop      → commit x⁺(t1), fire and settle the guards, return kStoppedAtEnd
///       take_and_continue  → commit x⁺(t1), fire and settle the guards, limit = min(bound, t_end)
///     return kReachedEnd
///
/// Guard: an answer that does not let time advance by dt_min (a redo, or a taken step
/// shorter than dt_min, or than a few ulps of t when dt_min is 0) is a stall; more
/// than max_stalls stalls in a row is an error naming the time and the last answer.
///
/// Right-hand-side path: a function pointer and a `void*` (or a callable through
/// make_second_order_problem, a captureless trampoline over the caller's object): no
/// allocation, no std::function. check_step is a std::function: it runs once per step
/// attempt, next to six evaluations of F, and a capturing lambda is the natural way
/// to keep event state (impact counters, the wall's position) beside it.

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../../core/crossing.hpp"
#include "../../core/run_statistics.hpp"
#include "../../core/time.hpp"
#include "ode_solver.hpp"

namespace ctde {

class TraceWriter;

/// The acceleration a = F(t, p, v) of p'' = F(t, p, p'): reads m positions `p` and m
/// velocities `v`, writes m accelerations to `a`. Units: p in the model's length unit
/// (per component), v in that unit per second, a per second squared, t in seconds.
/// The states it is called at may lie off the final path (Runge–Kutta stages). To
/// fail, throw: the exception comes out of SecondOrderSolver::run. A non-finite value
/// written to `a` is an error (RunError naming the component and time).
using AccelerationFunction = void (*)(double t, const double* p, const double* v, double* a, void* user);

/// The guards g(t, p, v) of a problem: reads m positions `p` and m velocities `v`,
/// writes one value per guard to `g`. Called at the ends of every step, at the trial
/// times of an event search (states from the step's interpolants) and after an event.
/// To fail, throw; a non-finite value is an error (RunError naming the guard and time).
using GuardFunction = void (*)(double t, const double* p, const double* v, double* g, void* user);

/// What to integrate. Plain pointers: the functions and their `user` data must outlive
/// the solver. Copyable value type.
struct SecondOrderProblem {
  std::size_t size = 0;                         ///< m, the number of positions, > 0
  AccelerationFunction acceleration = nullptr;  ///< F, required
  void* user = nullptr;                         ///< passed unchanged to F
  std::size_t guards = 0;                       ///< the number of guards (0: none)
  GuardFunction guard = nullptr;                ///< the guards; required when guards > 0
  void* guard_user = nullptr;                   ///< passed unchanged to `guard`
  /// One per guard: which of its crossings of zero are events (kRising, kFalling or
  /// kBoth; core/crossing.hpp says what a crossing is).
  std::vector<Crossing> directions{};
};

/// A problem whose F calls `f(t, p, v, a)` (same arguments as AccelerationFunction,
/// without `user`) through a captureless trampoline: no allocation, one indirect call.
/// `f` is held by address and must outlive the solver.
template <class F>
[[nodiscard]] SecondOrderProblem make_second_order_problem(std::size_t size, F& f) {
  const AccelerationFunction trampoline = [](double t, const double* p, const double* v, double* a,
                                             void* user) { (*static_cast<F*>(user))(t, p, v, a); };
  return SecondOrderProblem{size, trampoline, static_cast<void*>(&f)};
}

/// The method, tolerances, step limits, and the events' ticks and trace. Times in
/// seconds. Copyable value type.
///
/// The solver's error test for a step (ARKODE's, CVODE's, and the own Dormand–Prince
/// stepper's alike): the root mean square over the 2m states x_i of
/// err_i / (rtol·|x_i| + atol_i) is at most 1, where atol is position_tolerance for
/// the positions and velocity_tolerance for the velocities (OdeOptions::atol_per_state).
/// The default rtol = 0 makes the tolerances absolute errors per step, as in the
/// interface the facade follows; with an RMS norm one component may exceed its own
/// tolerance by up to sqrt(2m) when the others are well inside theirs.
struct SecondOrderOptions {
  /// Absolute error allowed per step in each position (units of p): one value for all
  /// m components, or m values. Each finite and > 0.
  std::vector<double> position_tolerance{1e-8};
  /// The same for the velocities (units of p per second).
  std::vector<double> velocity_tolerance{1e-8};
  double rtol = 0.0;  ///< relative tolerance for every state, finite and >= 0
  /// Smallest step the solver may choose (0: none), and the smallest te - t0 of a redo.
  /// Steps shortened to reach a bound or t_end may be shorter.
  double dt_min = 0.0;
  double dt_max = std::numeric_limits<double>::infinity();  ///< largest step, > 0 (+inf: none)
  std::optional<double> initial_step;                       ///< empty: the solver's estimate
  long max_steps = 1'000'000;  ///< steps without reaching a limit (OdeOptions::max_steps); 0: none
  /// Most stalls in a row (see the header comment) before run() throws; > 0.
  int max_stalls = 100;
  /// The method of the first-order solver (the table in ode_solver.hpp): any of them.
  /// rk4-fixed needs a step: initial_step, or a finite dt_max. The implicit methods
  /// (dirk, ark-imex, bdf, auto once stiff) solve their Newton systems with a dense
  /// Jacobian of x' = (v, F) by finite differences; ark-imex treats all of it as implicit.
  SolverKind method = SolverKind::kRkf45;
  /// The ticks of event times: a located event is the first tick at which its guards
  /// have crossed (core/time.hpp; the director's default, 1e-12 s). With guards, run()
  /// accepts no t_end beyond its horizon.
  TimeResolution resolution{1e-12};
  /// |g| (units of the guards) within which a search for a crossing may stop before it
  /// narrows the bracket to one tick; 0: it always narrows it. Finite, >= 0.
  double guard_tolerance = 0.0;
  /// Where each fired crossing writes a `state_event` line (and each located step its
  /// `step_reject`, each switch of auto its `solver` line); null: no trace. The tags are
  /// in `resolution`'s ticks: a run_start written by the caller gives the same
  /// time_resolution. Must outlive the solver.
  TraceWriter* trace = nullptr;
  /// The `actor` of the trace's lines (the guards are named by their index).
  std::string trace_name = "second_order";
};

/// The four answers of check_step.
enum class CheckKind { kStopAtStart, kRedoTo, kTakeAndStop, kTakeAndContinue };

/// "stop_at_start", "redo_to", "take_and_stop", "take_and_continue".
[[nodiscard]] const char* to_string(CheckKind kind);

/// One answer of check_step. Built by the four named constructors; their arguments are
/// checked by the solver against the step (run() throws on a bad one). Copyable value type.
class CheckAnswer {
 public:
  /// Drop the step; run() returns at its start t0 with the start state.
  [[nodiscard]] static CheckAnswer stop_at_start() { return {CheckKind::kStopAtStart, kNaN}; }
  /// Drop the step and integrate again from t0 to te (s); the solver requires
  /// t0 + dt_min <= te < t1 and te > t0. The redone step may end before te if the
  /// error test needs a shorter step; check_step sees it either way.
  [[nodiscard]] static CheckAnswer redo_to(double te) { return {CheckKind::kRedoTo, te}; }
  /// Take the step (with the end state as check_step left it); run() returns at t1.
  [[nodiscard]] static CheckAnswer take_and_stop() { return {CheckKind::kTakeAndStop, kNaN}; }
  /// Take the step and go on; the next step ends no later than `bound` (s), which the
  /// solver requires to be after t1 (+inf: only t_end bounds it).
  [[nodiscard]] static CheckAnswer take_and_continue(double bound = std::numeric_limits<double>::infinity()) {
    return {CheckKind::kTakeAndContinue, bound};
  }

  [[nodiscard]] CheckKind kind() const { return kind_; }
  /// te for redo_to, the bound for take_and_continue, NaN for the others.
  [[nodiscard]] double time() const { return time_; }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  CheckAnswer(CheckKind kind, double time) : kind_(kind), time_(time) {}
  CheckKind kind_;
  double time_;
};

class SecondOrderSolver;

/// The tentative step [t0, t1] shown to check_step: the states and accelerations at
/// both ends, the end state to adjust, and the dense output in between. A view into
/// the solver, valid only during the call. Not copyable, not movable.
class TentativeStep {
 public:
  TentativeStep(const TentativeStep&) = delete;
  TentativeStep& operator=(const TentativeStep&) = delete;

  [[nodiscard]] double t0() const { return t0_; }                              ///< start of the step (s)
  [[nodiscard]] double t1() const { return t1_; }                              ///< end of the step (s), > t0
  [[nodiscard]] std::size_t size() const { return m_; }                        ///< m
  [[nodiscard]] std::span<const double> p0() const { return {x0_, m_}; }       ///< positions at t0
  [[nodiscard]] std::span<const double> v0() const { return {x0_ + m_, m_}; }  ///< velocities at t0
  [[nodiscard]] std::span<const double> a0() const { return {a0_, m_}; }       ///< F at (t0, p0, v0)
  /// Positions at t1, writable: a take answer goes on from what is left here.
  [[nodiscard]] std::span<double> p1() { return {x1_, m_}; }
  /// Velocities at t1, writable like p1().
  [[nodiscard]] std::span<double> v1() { return {x1_ + m_, m_}; }
  [[nodiscard]] std::span<const double> p1() const { return {x1_, m_}; }       ///< positions at t1
  [[nodiscard]] std::span<const double> v1() const { return {x1_ + m_, m_}; }  ///< velocities at t1
  /// F at (t1, p1, v1) as the solver computed them (not updated by writes to p1, v1).
  [[nodiscard]] std::span<const double> a1() const { return {a1_, m_}; }
  /// How many redo_to answers led to this step since the last step taken (0: a fresh step).
  [[nodiscard]] int redos() const { return redos_; }
  /// One value per guard: how it crossed zero at t1, an event of this step (kRising or
  /// kFalling), or kNone. All kNone unless crossed().
  [[nodiscard]] std::span<const Crossing> crossings() const { return crossings_; }
  /// True when guards crossed in the solver's step: this step ends at their event.
  [[nodiscard]] bool crossed() const { return event_tick_ != kNever; }
  /// The event's tick (SecondOrderOptions::resolution): the first tick at which the
  /// guards have crossed; t1 is its time, or (a crossing in the last fraction of a tick
  /// of the solver's step) up to a tick or two before it. kNever unless crossed().
  [[nodiscard]] Tick event_tick() const { return event_tick_; }

  /// Positions and velocities at t from the solver's interpolant of this step
  /// (OdeSolver::dense_output); at t1 the state the solver computed, whatever was
  /// written to p1 and v1. No allocation.
  /// @throws std::invalid_argument if p or v do not have m values.
  /// At an event the solver's interpolant covers the step it took, of which [t0, t1] is
  /// the part before the event.
  /// @throws std::out_of_range if t is outside [t0, t1], or strictly inside a step too
  ///         short for the solver to have integrated it (a few ulps of t).
  void state_at(double t, std::span<double> p, std::span<double> v) const;

 private:
  friend class SecondOrderSolver;
  TentativeStep() = default;
  const OdeSolver* ode_ = nullptr;
  double* scratch_ = nullptr;  // 2m values for state_at
  std::size_t m_ = 0;
  double t0_ = 0.0;
  double t1_ = 0.0;
  const double* x0_ = nullptr;
  const double* a0_ = nullptr;
  double* x1_ = nullptr;
  const double* a1_ = nullptr;
  int redos_ = 0;
  std::span<const Crossing> crossings_;
  Tick event_tick_ = kNever;
};

/// check_step: inspects the tentative step, may adjust its end state, answers. It may
/// throw: run() then rolls the step back to t0 and lets the exception through.
using CheckStepFunction = std::function<CheckAnswer(TentativeStep& step)>;

/// Why run() returned.
enum class SecondOrderStop {
  kReachedEnd,      ///< t == t_end
  kStoppedAtStart,  ///< check_step answered stop_at_start
  kStoppedAtEnd,    ///< check_step answered take_and_stop
};

[[nodiscard]] const char* to_string(SecondOrderStop stop);

/// What run() returned: why, and the time it stopped at (== SecondOrderSolver::time()).
struct SecondOrderResult {
  SecondOrderStop stop = SecondOrderStop::kReachedEnd;
  double t = 0.0;
};

/// Counters since construction. Copyable value type.
struct SecondOrderStatistics {
  long checks = 0;       ///< calls of check_step
  long steps_taken = 0;  ///< steps committed (take answers, or every step without check_step)
  long redos = 0;        ///< redo_to answers
  long adjustments = 0;  ///< take answers that changed the end state (solver resets)
  /// Evaluations of F by the facade itself, for the accelerations it shows or returns
  /// (a0 at the start, a1 of every checked step, F at an adjusted state, acceleration())
  /// and for the event searches (the slopes at a step's ends, the guards' slopes).
  long acceleration_evals = 0;
  long guard_evals = 0;   ///< calls of the guard function
  long state_events = 0;  ///< guard crossings fired (one per guard per event)
  OdeStatistics ode;      ///< the wrapper's counters; F runs ode.rhs_evals + acceleration_evals times

  /// The counters a trace's run_end line reports (core/run_statistics.hpp): solver
  /// steps, steps rejected by the error test, evaluations of F, state events.
  [[nodiscard]] RunStatistics run_statistics() const;
};

/// Integrates p'' = F(t, p, p') from (t0, p0, v0) with the check_step protocol above.
/// Not copyable; movable (the integrator and the buffers live behind a stable
/// pointer); a moved-from solver may only be destroyed or assigned to.
class SecondOrderSolver {
 public:
  /// Checks the arguments and creates the integrator at (t0, p0, v0); evaluates F once
  /// (a0 of the first step), and the guards once (each guard's side at the start).
  /// @throws std::invalid_argument naming the problem: size 0, no acceleration
  ///         function, p0 or v0 not of size m, non-finite t0, p0 or v0, a tolerance list
  ///         not of size 1 or m, a tolerance not finite and > 0, rtol not finite and >= 0,
  ///         dt_min not finite and >= 0, dt_max not > 0, dt_min > dt_max, initial_step
  ///         not finite and > 0, max_steps < 0, max_stalls < 1, a method that is not
  ///         one, rk4-fixed without a step, guards without a guard function (or the
  ///         reverse), directions not one per guard or kNone, guard_tolerance not finite
  ///         and >= 0.
  /// @throws RunError if F or a guard gives a non-finite value at the start.
  SecondOrderSolver(const SecondOrderProblem& problem, const SecondOrderOptions& options, double t0,
                    std::span<const double> p0, std::span<const double> v0,
                    CheckStepFunction check_step = {});
  ~SecondOrderSolver();
  SecondOrderSolver(SecondOrderSolver&&) noexcept;
  SecondOrderSolver& operator=(SecondOrderSolver&&) noexcept;
  SecondOrderSolver(const SecondOrderSolver&) = delete;
  SecondOrderSolver& operator=(const SecondOrderSolver&) = delete;

  /// Integrates from time() until t_end (s) or until check_step stops (the loop in the
  /// header comment). May be called again to go on; a bound from the last
  /// take_and_continue still applies to the next step. t_end == time() returns at once.
  /// Post: time(), position(), velocity() are where it stopped.
  /// @throws std::invalid_argument if t_end is not finite or before time() (with guards:
  ///         or beyond the resolution's horizon), or for a bad answer (te outside
  ///         [t0 + dt_min, t1) or not after t0, a bound not after t1, a non-finite
  ///         adjusted end state); the message names the answer and the step. The solver
  ///         is then at the step's start t0.
  /// @throws RunError if F or a guard gives a non-finite value, if the solver fails
  ///         (step too small at dt_min, max_steps), on more than max_stalls stalls in a
  ///         row (the message names the time and the last answer), or when a guard's
  ///         events chatter or accumulate (Zeno behaviour: the message names the guard
  ///         and the times; the solver is then at the step's start t0).
  /// Anything thrown by F or check_step comes through; the solver is then at the last
  /// committed state.
  SecondOrderResult run(double t_end);

  [[nodiscard]] double time() const;                       ///< current time (s)
  [[nodiscard]] std::span<const double> position() const;  ///< p at time(), m values
  [[nodiscard]] std::span<const double> velocity() const;  ///< v at time(), m values
  /// F at (time(), position(), velocity()), m values; evaluated when not known yet
  /// (after steps without check_step). @throws RunError if it is not finite.
  [[nodiscard]] std::span<const double> acceleration() const;
  [[nodiscard]] std::size_t size() const;  ///< m
  /// @throws std::runtime_error if a query of the integrator fails.
  [[nodiscard]] SecondOrderStatistics statistics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ctde
