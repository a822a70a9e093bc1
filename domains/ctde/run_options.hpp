#pragma once
/// The director's run options (docs/model-format.md, "Director options"), their defaults and their checks.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../../core/error.hpp"
#include "../../core/param.hpp"
#include "../ct/ode_solver.hpp"
#include "../ct/solver_kind.hpp"

namespace ctde {

/// How state events are handled: located (normal) or only checked at step ends (none).
enum class EventMode { kNormal, kNone };

/// The state at a located state event: from the solver's dense output (the
/// step is cut at te, as ARKODE's, CVODE's and scipy's rootfinding restart),
/// or a step's end (the step is integrated again from t0 to te: one more step
/// per event, the state keeps the method's error control).
enum class EventState { kInterpolated, kIntegrated };

/// Independent parts of the continuous side (docs/semantics.md,
/// "Independent subsystems"): each its own integrator (split), or one
/// integrator for all states (joined).
enum class Subsystems { kSplit, kJoined };

/// Loops of direct-feedthrough continuous actors (docs/semantics.md,
/// "Algebraic loops"): solved by Newton's method at every evaluation, or refused.
enum class AlgebraicLoops { kSolve, kError };

/// Every option has a default; `stop_time` is required. Times in seconds. Copyable value type.
struct RunOptions {
  double start_time = 0.0;
  double stop_time = 0.0;
  double time_resolution = 1e-12;
  SolverKind solver = SolverKind::kErk45;
  /// erk45's integrator: the project's Dormand–Prince stepper or ARKODE's (OdeOptions::integrator).
  OdeIntegrator integrator = OdeIntegrator::kCtde;
  /// The implicit methods' Newton systems: chosen from the Jacobian's structure, or named.
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  double rtol = 1e-6;
  double atol = 1e-9;
  /// Per-state absolute tolerances (a list in the model file), in the order
  /// of the continuous states that `ctde validate` prints; empty: `atol` for all.
  std::vector<double> atol_per_state;
  std::optional<double> initial_step;  ///< empty: the solver's estimate
  std::optional<double> min_step;
  std::optional<double> max_step;
  long max_microsteps = 1000;
  /// A state-event search may stop once every crossed guard is within this of
  /// zero; empty: it always narrows the bracket to one tick.
  std::optional<double> event_tolerance;
  EventMode events = EventMode::kNormal;
  EventState event_state = EventState::kInterpolated;
  std::optional<double> output_interval;  ///< empty: no interpolated rows
  Subsystems subsystems = Subsystems::kSplit;
  AlgebraicLoops algebraic_loops = AlgebraicLoops::kSolve;
};

/// Checks the values of run options, however they were made (a model file's
/// `director`, or C++): make_run_options and the Director's constructor call
/// it, so nothing runs with bad options.
/// @throws ModelError naming the option: start_time or stop_time not finite,
///         stop_time not after start_time, either beyond the time horizon, a
///         time_resolution out of range, a tolerance, step, event_tolerance or
///         output_interval not a finite number > 0 (max_step may be +inf),
///         min_step above max_step, max_microsteps outside [1, 1e9].
void check(const RunOptions& options);

/// A wrong director option: a ModelError that knows the option's key, so
/// that the model file's location (`model.json at /director/rtol`) can be
/// added where the file is known. Copyable.
class OptionError : public ModelError {
 public:
  OptionError(std::string key, const std::string& message);
  [[nodiscard]] const std::string& key() const { return key_; }
  /// The same error, located at the option in `file`.
  [[nodiscard]] ModelError in_file(const std::string& file) const;

 private:
  std::string key_;
};

/// Evaluates the director options of a model (`director` keys, expressions
/// over the model's parameters) over the defaults, then check()s them.
/// @throws ModelError naming the option: a missing stop_time, stop_time not
///         after start_time, a non-positive tolerance or step, an unknown
///         solver, integrator, events or event_state value, a time_resolution out of range.
///         With `file` (the model file's name) the errors are located at
///         the option: "model.json at /director/rtol: ...".
[[nodiscard]] RunOptions make_run_options(const std::map<std::string, ParamValue>& director,
                                          const ParameterScope& scope, const std::string& file = "");

/// The solver part of the run options (method, tolerances, steps), for OdeSolver.
[[nodiscard]] OdeOptions make_ode_options(const RunOptions& run);

}  // namespace ctde
