#pragma once
/// What a SecondOrderSolver holds behind its stable pointer, shared by
/// second_order.cpp (the checks, the loop, the answers) and
/// second_order_events.cpp (the guards, their search and their events). Not installed.

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "event_locator.hpp"
#include "second_order.hpp"

namespace ctde {

// Everything the solver's callbacks point at, behind a stable address.
struct SecondOrderSolver::Impl {
  /// The event of the step shown to check_step, as the locator found it.
  struct Event {
    Tick tick = kNever;       // the first tick at which the guards have crossed
    LocatedCrossing bracket;  // the search's final bracket
    int iterations = 0;       // guard evaluations of the searches, and steps integrated again
    double rejected_t1 = 0;   // the end of the solver's step that held the crossing
    double planned = 0;       // the step the solver planned after that step
  };

  SecondOrderProblem problem;
  SecondOrderOptions options;
  std::size_t m = 0;
  CheckStepFunction check;
  std::optional<OdeSolver> ode;

  std::vector<double> x_now;  // (p, v) at the current time: t0 of the next step
  std::vector<double> a_now;  // F there, valid if a_now_valid
  bool a_now_valid = false;
  std::vector<double> x_end;       // (p, v) at t1 of the step shown, adjustable
  std::vector<double> x_computed;  // (p, v) at t1 as the solver computed it: an adjustment differs
  std::vector<double> a_end;       // F at t1 before any adjustment
  std::vector<double> scratch;     // dense output for TentativeStep::state_at
  double bound = std::numeric_limits<double>::infinity();  // from the last take_and_continue
  SecondOrderStatistics counters;

  EventLocator locator;             // the guards' sides and the search (problem.guards > 0)
  std::vector<Crossing> crossings;  // per guard: its crossing at the end of the step shown
  std::optional<Event> event;       // the event the step shown ends at, if any
  std::vector<double> x_probe;      // (p, v) inside a step, or a little after an event
  std::vector<double> slopes;       // per guard: dg/dt after an event (settle)

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // -- second_order.cpp: the right-hand side, the loop and the answers --------------

  void require_finite(double t, const double* a) const;
  void evaluate(double t, const double* x, double* a) const;
  // x' = (v, F(t, p, v)); exceptions are caught by OdeSolver and rethrown from step().
  static int rhs(double t, const double* x, double* dxdt, void* self);
  // F for the facade's own use (a0, a1, the searches), counted apart from the solver's.
  void evaluate_counted(double t, const double* x, double* a);
  const double* acceleration_now();
  [[nodiscard]] bool is_stall(double t0, double t1) const;
  // A bad answer: back to the step's start, then the error.
  [[noreturn]] void reject(double t0, double t1, const CheckAnswer& answer, const std::string& why);
  void check_redo(double t0, double t1, const CheckAnswer& answer);
  [[noreturn]] void stalled(double t0, double t1, const CheckAnswer& answer) const;
  [[noreturn]] void solver_failed(const StepResult& result) const;
  /// One solver step from t0, never past `limit`, then the guards: x_end holds the
  /// state at the end of the step shown, which is returned (the event's time when
  /// guards crossed).
  double advance(double t0, double limit);
  /// The check's answer on the step [t0, t1] shown (x_end at t1): the accelerations at
  /// both ends, then check(step). Whatever throws after a0 leaves the solver back at t0.
  CheckAnswer ask(TentativeStep& step, double t0, double t1, int redos);
  /// A take answer for the step [t0, t1] shown, with the end state in x_end (maybe adjusted).
  void take(double t0, double t1, const CheckAnswer& answer);
  /// Commits the step [t0, t1] shown: the crossed guards fire, the solver goes on
  /// from (t1, x_end), and the guards settle there. `a_known`: a_end is F at x_end.
  void commit(double t0, double t1, bool adjusted, bool a_known);
  /// The solver at (t1, x_end): cut at the event, reset after it, or corrected.
  void move_solver(double t0, double t1, bool adjusted);

  // -- second_order_events.cpp: the guards -------------------------------------------

  /// The solver's last step as the locator reads it: its ends from the solver,
  /// x' = (v, F) for the cubic's slopes, the guards on states and on the dense output.
  class Trajectory;

  /// The guards at (t, x) into g; counted; a non-finite one is a RunError.
  void guards_at(double t, const double* x, std::span<double> g);
  /// At the start (x_now at t0): the locator, and each guard's side.
  void start_guards(double t0);
  /// After the solver's step [t0, t1] (x_end at t1): the end of the step shown, te
  /// when guards crossed (event and crossings set, x_end the state there). Whatever
  /// throws leaves the solver back at t0.
  double check_guards(double t0, double t1);
  double locate_event(double t0, double t1);
  /// At te (the guards there in the locator's end values): the event, or none when
  /// the guards have not crossed there after all.
  double confirm(const Event& found, double t0, double te, Tick after);
  double show_event(const Event& found, double t1);
  [[noreturn]] void unsettled(double t0, double t1) const;
  /// The crossed guards fire at the event's tick (state_event lines, counters).
  /// Chattering or Zeno behaviour is a RunError, with the solver back at t0.
  void fire_events(double t0);
  [[noreturn]] void unresolved_events(GuardId guard, const EventRhythm& rhythm, Tick te) const;
  /// After a take at t (x_end, x_now the state there): the guards take their sides;
  /// after an event, the fired ones settle (EventLocator::settle).
  void settle_guards(double t, bool adjusted);
  /// dg/dt at (t, x_end) along x' = (v, F), by a forward difference, into slopes.
  void guard_slopes(double t);
  /// A `solver` trace line for a switch of auto after the step ending at t1.
  void trace_switch(double t1) const;
};

}  // namespace ctde
