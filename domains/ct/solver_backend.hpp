#pragma once
/// One integrator behind OdeSolver: the project's Dormand–Prince stepper
/// (dormand_prince.hpp), ARKODE (arkode_backend.hpp: erk45 by ARKODE, erk23,
/// rk4-fixed, rkf45, dirk, ark-imex), CVODE (cvode_backend.hpp: bdf) and the
/// switching one (switching_backend.hpp: auto). The contract is OdeSolver's
/// (ode_solver.hpp); OdeSolver checks it once for every back end (the
/// arguments, the times, max_steps, the ends of a step) and calls a back end
/// only with what that contract allows, so a back end says only how it
/// integrates.
///
/// Not copyable, not movable: OdeSolver holds it behind a pointer, and the
/// SUNDIALS ones are their integrators' user data.

#include <cstddef>
#include <span>
#include <string>

#include "../../core/state_stream.hpp"

namespace ctde {

struct StepResult;
struct OdeStatistics;

class SolverBackend {
 public:
  SolverBackend() = default;
  virtual ~SolverBackend() = default;
  SolverBackend(const SolverBackend&) = delete;
  SolverBackend& operator=(const SolverBackend&) = delete;
  SolverBackend(SolverBackend&&) = delete;
  SolverBackend& operator=(SolverBackend&&) = delete;

  /// One step from current_time() toward t_limit, never past it, landing on
  /// it exactly when it gets there (kReachedStop). Pre: t_limit is after
  /// current_time() by more than OdeSolver::resolves() asks.
  [[nodiscard]] virtual StepResult step(double t_limit) = 0;
  /// The time moves to t_limit, too close to integrate to: the state stays,
  /// the last step is [current_time(), t_limit] without an interpolant.
  virtual void advance_to(double t_limit) = 0;
  /// x(t) of the last step. Pre: has_interpolant(), t strictly inside it.
  virtual void interpolate(double t, double* out) const = 0;
  /// OdeSolver::reset. Pre: t finite.
  virtual void reset(double t, const double* x, double first_step) = 0;
  /// OdeSolver::correct_state.
  virtual void correct_state(const double* x) = 0;
  /// OdeSolver::redo_to. Pre: te in [last_step_start(), current_time()),
  /// and has_interpolant() when te is strictly inside.
  virtual void redo_to(double te) = 0;

  [[nodiscard]] virtual double planned_step() const = 0;
  [[nodiscard]] virtual double current_time() const = 0;
  [[nodiscard]] virtual double last_step_start() const = 0;
  /// True when the last step's inside can be interpolated (a real step, not
  /// one that was reset, rolled back or only advanced).
  [[nodiscard]] virtual bool has_interpolant() const = 0;
  [[nodiscard]] virtual std::span<const double> state() const = 0;
  [[nodiscard]] virtual std::span<const double> last_step_start_state() const = 0;
  [[nodiscard]] virtual OdeStatistics statistics() const = 0;
  /// The linear solver of its Newton iterations ("dense", "band", "klu",
  /// "gmres"), or "" for an explicit method.
  [[nodiscard]] virtual std::string linear_solver() const { return {}; }
  /// The first step a reset(t, x, 0) would start with, asked before it: the
  /// one it keeps (Dormand–Prince's and ARKODE's planned step), or 0 when
  /// it estimates one (CVODE). So a reset(t, x, step_kept_by_reset()) in a
  /// new integrator starts as that reset did (a checkpoint's restart).
  [[nodiscard]] virtual double step_kept_by_reset() const { return planned_step(); }
  /// A snapshot's part of the back end (docs/snapshots.md) beyond the state
  /// and the step it restarts with: which method `auto` runs and its
  /// switching counters. Default: nothing.
  virtual void save_method(StateWriter& out) const { (void)out; }
  /// In a resumed run, before its restart at (t, x): reads what save_method wrote.
  virtual void restore_method(StateReader& in, double t, std::span<const double> x) {
    (void)in;
    (void)t;
    (void)x;
  }
  /// True when save_exact() holds everything it needs to go on as if never
  /// stopped (the project's Dormand–Prince): a checkpoint then needs no
  /// restart (docs/snapshots.md, "Checkpoints"). SUNDIALS keeps its history
  /// to itself: the others restart.
  [[nodiscard]] virtual bool saves_exactly() const { return false; }
  /// Pre: saves_exactly(). Everything it holds beyond its options.
  virtual void save_exact(StateWriter& out) const { (void)out; }
  /// In a resumed run, instead of a restart: reads what save_exact wrote.
  virtual void restore_exact(StateReader& in) { (void)in; }
  /// The method stepping now: its own, or for auto the one it switched to.
  [[nodiscard]] virtual std::string method_now() const = 0;
  /// The last switch announced (auto), "" for the others.
  [[nodiscard]] virtual const std::string& method_switch() const {
    static const std::string kNone;
    return kNone;
  }
};

}  // namespace ctde
