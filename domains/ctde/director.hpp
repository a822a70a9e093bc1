#pragma once
/// The CTDE director: runs a validated model, alternating a discrete-event
/// phase and a continuous phase.
///
/// What a run does, as the user sees it, is docs/semantics.md; the run loop
/// as the director's named procedures (initialize, the DE phase, the
/// continuous phase, state events) is described once, in
/// docs/architecture.md, "The director, as named procedures".
///
/// Time is integer ticks; simultaneous events are exactly simultaneous. The
/// order of everything is total (time, microstep, depth), so the same model
/// gives the same trace, byte for byte, and since validation rejects
/// zero-delay cycles, what an actor reads never depends on firing order.
///

#include <complex>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../../core/flat_model.hpp"
#include "../../core/results_sink.hpp"
#include "../../core/trace.hpp"
#include "run_options.hpp"
#include "run_result.hpp"
#include "run_snapshot.hpp"

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

  // ---- Snapshots (docs/snapshots.md)

  /// Called with the snapshot a run takes (snapshot_at); it may throw (a
  /// file that cannot be written): the run then fails with its message.
  using SnapshotWriter = std::function<void(const RunSnapshot& snapshot)>;
  /// Saves the run at `time` (s), after the events there, and hands the
  /// snapshot to `write`; the run goes on. `time` is a stop time of the
  /// solver (as a time event's), which restarts there with the step it had
  /// planned, as the run resumed from the snapshot does. Before run().
  /// @throws ModelError when `time` is not a tick inside [start, stop).
  void snapshot_at(double time, SnapshotWriter write);

  /// Checkpoints (docs/snapshots.md, "Checkpoints"): after the events of a
  /// time at which every solver restarted anyway (after events that
  /// changed states or continuous inputs; any event time of a run without
  /// continuous states), when `due()` says yes, `write` gets a snapshot of
  /// the run there. Taking it changes nothing in the run (no restart of its
  /// own, no trace line), so a run with checkpoints is the run without them,
  /// bit for bit, wherever they fall; each resumes exactly. `due` is polled
  /// at every such time: it must be cheap. Before run().
  void set_checkpoints(std::function<bool()> due, SnapshotWriter write);

  /// The fingerprints a snapshot of this model carries.
  [[nodiscard]] ModelFingerprint fingerprint() const;

  /// Makes run() continue from `snapshot` instead of starting: every
  /// actor's run state, the continuous states, the queued events and the
  /// counters are the snapshot's; the rows and trace lines are those after
  /// its tag. `parameters_may_differ`: the resumed model's parameters may
  /// differ from the snapshot's (new values asked for on resuming); else a
  /// difference is refused. Before run(); the stop time must be after the
  /// snapshot's time.
  /// @throws SnapshotError (core/state_stream.hpp) naming what does not fit:
  ///         another model's structure, other parameters, a body that does not
  ///         read (corrupt), a stop time not after the snapshot's.
  void resume_from(RunSnapshot snapshot, bool parameters_may_differ);

  /// Runs from the start time (or from where advance_to() paused) to the
  /// stop time (or a Stop, or an error). Never throws for run-time
  /// failures: they are in the result. Called again, returns that result again.
  RunResult run();

  /// How advance_to() pauses (docs/semantics.md, "Pausing a run").
  enum class Pause {
    /// The solver stops at the pause: the run stands there as at the
    /// snapshot snapshot_at() takes at that time.
    kExact,
    /// When no event falls at the pause, the solver may step on towards the
    /// next one, and the outputs at the pause come from its step's dense
    /// output, as rows inside a step do: the run takes the steps it takes
    /// without pausing unless something happens at the pause (set_input,
    /// snapshot, linearize: the solver restarts there from the dense
    /// output). For a joined run with states and no rows, step watchers or
    /// checkpoints; otherwise as kExact. An FMU's communication points.
    kAhead,
  };

  /// Runs from the start time (or from where it paused) to `time` (s) and
  /// pauses after the events there, where a snapshot would be taken; run()
  /// or advance_to() go on from there. Returns true when paused; false when
  /// the run ended before (a Stop, an error, the stop time: run() gives the
  /// result).
  /// @throws std::invalid_argument when `time` is not a tick from where the
  ///         run stands to its stop time.
  bool advance_to(double time, Pause how = Pause::kExact);

  /// With `on`, advance_to() also pauses after the events of any time it
  /// reaches before its own (a time event, a located state event, a
  /// token's arrival): an FMU's early return. time() says where it stands.
  void return_at_events(bool on);

  /// Where the run stands (s): its start, a pause, or its end.
  [[nodiscard]] double time() const;

  /// A snapshot of the run where advance_to() paused it: its solvers
  /// restart there (as snapshot_at's do), so the run and one resumed from
  /// the snapshot go on alike.
  /// @throws std::logic_error when the run is not paused; SnapshotError
  ///         naming the actor that cannot save its state (the run goes on).
  RunSnapshot snapshot();

  // ---- Embedding the run (an FMU of the model: docs/fmi.md, "Export")

  /// Gives the `Input` actor `actor` (a model's declared input, or any
  /// actor of core/external_input.hpp) `value` where advance_to() paused
  /// the run. It takes it at the next microstep there, as an event of the
  /// run, when the run goes on: the solvers restart there as at any jump of
  /// a continuous input. A value equal to the one it has changes nothing.
  /// @throws std::logic_error when the run is not paused; ModelError for an
  ///         actor that is not there or takes no value, or a value of another width.
  void set_input(const std::string& actor, std::span<const double> value);

  /// The value of output port `port` ("actor.port") where the run stands
  /// (after advance_to() or run()): a view into the run's signals, valid as
  /// long as the director.
  /// @throws ModelError for a port that is not there.
  [[nodiscard]] std::span<const double> output_values(const std::string& port) const;

  // ---- Integrated by another program (an FMU's Model Exchange: docs/fmi.md, "Export")
  //
  // The program integrates the continuous states x (every state, in the
  // order `ctde validate` prints) from where the run paused (advance_to),
  // asking for derivatives and event indicators at points of its own, and
  // hands the run back each accepted step and each event. The run must be
  // one part (the option subsystems "joined"), and no actor may bound
  // every step (external_integration_problem()).

  /// Why this model cannot be integrated by another program (an actor
  /// that bounds every step, named), or empty when it can.
  [[nodiscard]] std::string external_integration_problem() const;
  /// The number of continuous states and of event indicators (one per guard).
  [[nodiscard]] std::size_t state_count() const;
  [[nodiscard]] std::size_t indicator_count() const;
  /// The states where the run stands: after advance_to() or events_at(),
  /// the values after the events there.
  [[nodiscard]] std::span<const double> states() const;
  /// Each state's name, as linearize() names them ("ball.x[1]").
  [[nodiscard]] std::vector<std::string> state_names() const;
  /// Each indicator's: its guard's actor, with the guard's number when the
  /// actor has several ("detector[1]").
  [[nodiscard]] std::vector<std::string> indicator_names() const;

  /// At time t (from where the run stands on) and states x, with the
  /// inputs as held: the derivatives into dx and the event indicators into
  /// z (each guard less the level it is armed at: a sign change is a
  /// crossing), and every output (output_values) there. Moves nothing.
  /// @throws std::invalid_argument for sizes that do not fit or a t before
  ///         the run; std::runtime_error when an actor fails there or a
  ///         value is not finite.
  void evaluate_at(double t, std::span<const double> x, std::span<double> dx, std::span<double> z);

  /// The program accepted its step to (t, x): the run's states are x and
  /// its guards take their sides there. True when an actor asks for an
  /// event there (an imported FMU's completedIntegratorStep): the program
  /// then calls events_at(t, x).
  bool step_completed(double t, std::span<const double> x);

  /// An event of the program at (t, x) (t rounded to the nearest tick): the
  /// run's states are x; the guards that crossed since the last accepted
  /// point fire there, with the time events due and every microstep after
  /// them; the run pauses after them, states() the values after the events.
  /// Returns false when the run ended (a Stop, an error, the stop time:
  /// run() gives the result).
  bool events_at(double t, std::span<const double> x);

  /// The time of the next queued event before the stop time, if any.
  [[nodiscard]] std::optional<double> next_event_time() const;

  /// Gives input actor `actor` `value` at once, without an event (a
  /// continuous input the program changes between its steps): what
  /// evaluate_at() reads from then on.
  /// @throws ModelError as set_input().
  void hold_input(const std::string& actor, std::span<const double> value);

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

  /// The linear model of the continuous side where the run stands
  /// (docs/semantics.md, "Linearization"): x' = A x + B u, y = C x + D u
  /// for small changes of the states x, of the signals u at the `inputs`
  /// ports and of the `outputs` ports' values y, each port named
  /// "actor.port" (every element of its width). Discrete values are held.
  /// Row-major matrices; the eigenvalues of A.
  struct Linearization {
    double time = 0;
    std::vector<std::string> states;   ///< "x", "p[1]": actor paths, the element when wider than 1
    std::vector<std::string> inputs;   ///< "mass.in", "u.in[2]"
    std::vector<std::string> outputs;  ///< "y.out"
    std::vector<double> a, b, c, d;    ///< n x n, n x inputs, outputs x n, outputs x inputs
    std::vector<std::complex<double>> eigenvalues;
  };
  /// Linearizes by central differences (each state and input element in
  /// turn, the algebraic loops solved). After run() or advance_to(); before
  /// either, at the start state (after initialize()).
  /// @throws ModelError for a name that is not an input (resp. output) port,
  ///         a discrete output, or an input whose driver is inside an algebraic loop;
  ///         std::runtime_error when a value is not finite.
  [[nodiscard]] Linearization linearize(const std::vector<std::string>& inputs,
                                        const std::vector<std::string>& outputs);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ctde
