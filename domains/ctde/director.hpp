#pragma once
/// The CTDE director: runs a validated model, alternating a discrete-event
/// phase and a continuous phase.
///
/// ```
/// Initialize:
///   for each actor in schedule order: make_state(); initialize()  (initial
///     states and outputs, time events via fire_at)
///   evaluate every continuous and constant actor in schedule order
/// Run, until the stop time, a Stop actor, or an error:
///   t ← the earliest queued time event (none, or after the stop time: end)
///   DE phase at t, for microstep n = 0, 1, ...:
///     update: tokens held for microstep n become visible (each input has a
///       slot for n and one for n+1)
///     the actors with tokens at (t, n) or a time event at (t, n) fire once
///       each, in depth order (the topological order of zero-delay
///       connections, so a sender fires before its receivers); a token sent
///       to a deeper actor is delivered at (t, n) and that actor fires later
///       in the same microstep; a token to any other actor (a loop through a
///       TimeDelay, an input without feedthrough) waits for (t, n+1);
///       fire_at(t) means (t, n+1)
///     no actor to fire: the phase ends; n > max_microsteps: Zeno error
///       naming the actors still firing; a Stop actor: the run ends after n
///     after each microstep: continuous outputs are evaluated again and a
///       results row is written at (t, n+1): rows at (t, 0), (t, 1), ... are
///       the two sides of every jump
///   states written by firings (Integrator reset, impulse): x(t) → x⁺(t);
///     a `reset` trace line each; the solver restarts at (t, x⁺) (Reset, the
///     same integrator)
///   guards after the phase: one that fired settles (armed again, armed at
///     its post-event value when it hugs zero and moves back, or passed
///     through); one the phase made cross fires at (t, n+1): DE phase again
///   CT phase from t to t_next = min(next queued time, stop time):
///     one solver step [t0, t1] at a time with t_next as its stop time, so
///     time events are hit exactly; x ← x(t1), outputs evaluated (with
///     independent subsystems, subsystems "split": one solver per part, the
///     part with the earliest frontier steps, and what follows is per part;
///     rows once every part has passed their time, docs/semantics.md)
///     state-event generators: every guard g(t1) against its side at t0
///       none crossed → accept: a row at (t1, 0), and rows at output_interval
///         points inside the step from the dense output
///       some crossed → `step_reject`; Illinois search for the earliest
///         crossing, to one tick (or |g| ≤ event_tolerance), on a cubic
///         Hermite of the step, its bracket then checked (and if need be
///         searched again) on the solver's dense output; te = the first tick
///         where the guards have crossed; the step ends at te: cut there on
///         the dense output (event_state "interpolated", the default; a
///         crossing in the first 1e-6 of the step is integrated again), or
///         rolled back to t0 and integrated to te ("integrated"); no
///         crossing at te → accept [t0, te] and go on; crossed → each
///         crossed guard's actor fires at (te, 0) (`state_event` lines), the
///         CT phase ends at te; with `events: none` no search: they fire at
///         t1's tick
///       a guard crossing again within one tick of its event (chattering), or
///         8 events in a row within 64 ticks (Zeno): the run stops, naming it
///   the RHS: x' = f(t, x) evaluates, in schedule order, the continuous actors
///     whose outputs the derivatives read (built-in kernels for Integrator,
///     Gain, Sum; virtual calls for the rest), then each stateful actor's
///     derivatives; a NaN or Inf stops the run naming the actor and the time
/// ```
/// Time is integer ticks; simultaneous events are exactly simultaneous. The
/// order of everything is total (time, microstep, depth), so the same model
/// gives the same trace, byte for byte, and since validation rejects
/// zero-delay cycles, what an actor reads never depends on firing order.
///

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../core/flat_model.hpp"
#include "../../core/results_sink.hpp"
#include "../../core/trace.hpp"
#include "run_options.hpp"
#include "run_result.hpp"

namespace ctde {

/// Runs one flattened model once. Not copyable, not movable.
class Director {
 public:
  /// @param model validated (see validate()); it and its actors must outlive the director.
  /// @param trace optional trace writer (not owned).
  /// @param results optional results sink (not owned): CsvResults,
  ///        ColumnarResults or one's own; its signals() are the ones recorded.
  /// @throws ModelError, before anything runs, when an option is wrong
  ///         (check(const RunOptions&), as for a model file: options built in
  ///         C++ are checked the same way) or does not fit the model (a
  ///         per-state atol list of the wrong length).
  Director(const FlatModel& model, const RunOptions& options, std::string model_name,
           TraceWriter* trace = nullptr, ResultsSink* results = nullptr);
  ~Director();
  Director(const Director&) = delete;
  Director& operator=(const Director&) = delete;
  Director(Director&&) = delete;
  Director& operator=(Director&&) = delete;

  /// Called during run() after every solver step and every DE phase with the
  /// simulated time (s) and the counters so far; the callee rate-limits itself
  /// (the CLI's progress bar does). Never on the right-hand-side path.
  using ProgressCallback = std::function<void(double time, const RunStatistics& stats)>;
  /// Sets (or clears, with an empty function) the progress callback. Before run().
  void set_progress(ProgressCallback callback);

  /// Polled where the progress callback is called, and wherever else a run
  /// can go on without bound between two of those: between the microsteps
  /// of a DE phase (up to max_microsteps), between the output_interval rows
  /// inside a step, between the steps that take a state event to its tick.
  /// When it returns true the run ends there (so the rows and trace lines
  /// so far are whole), with RunStatus::kInterrupted. The CLI asks this way
  /// on Ctrl-C, SIGTERM or a failed write. Before run().
  using StopCheck = std::function<bool()>;
  void set_stop_check(StopCheck check);

  /// Runs from the start time to the stop time (or a Stop, or an error).
  /// Never throws for run-time failures: they are in the result.
  RunResult run();

  /// The structure of the whole continuous side's Jacobian ∂f/∂x (every
  /// state, in the order `ctde validate` prints), as the implicit methods
  /// use it (docs/semantics.md, "Jacobians"), and the linear solver that
  /// linear_solver "auto" would choose for it. Before or after run().
  struct JacobianSummary {
    std::size_t states = 0;
    std::size_t nonzeros = 0;  ///< with the diagonal
    std::size_t lower_bandwidth = 0;
    std::size_t upper_bandwidth = 0;
    std::size_t column_groups = 0;  ///< evaluations of f for the whole Jacobian by differences
    std::size_t known_rows = 0;     ///< rows whose values the actors give exactly
    std::string linear_solver;      ///< the options' choice for it ("band", ...)
    std::string reason;             ///< why
  };
  [[nodiscard]] JacobianSummary jacobian_summary() const;

  /// ∂f/∂x at the start state (after every actor's initialize()), n × n
  /// column-major in the state order of `ctde validate`: the rows the actors
  /// give exactly, the others by forward differences over the column groups
  /// (with `finite_differences`, every row by differences), as the implicit
  /// methods compute it. For linearization and for checking the actors'
  /// local Jacobians. Instead of run(): the director cannot run after it.
  /// @throws std::runtime_error when f fails or a value is not finite.
  [[nodiscard]] std::vector<double> jacobian_at_start(bool finite_differences = false);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ctde
