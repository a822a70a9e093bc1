#pragma once
/// The continuous phase of a run (private: not installed): the continuous
/// side as one part (a joined run) or several independent ones (a split
/// run), each with its own solver, event locator and evaluation programs
/// (continuous_part_impl.hpp; docs/semantics.md, "Independent subsystems");
/// the guards and their crossings; the rows inside steps. It owns the parts,
/// the guards and what the right-hand side failed on, and works on the
/// run's shared state (RunState: the clock, the buffers, the scheduler it
/// queues the generators' firings on). Every procedure works on a part; a
/// joined run is the case of one. What each source holds:
///
/// - continuous_phase_parts.cpp: the parts laid out, each part's right-hand side,
///   a part touched by an event;
/// - continuous_phase.cpp: the phase itself (the part with the earliest
///   frontier steps), rows inside steps, restarts after events;
/// - continuous_phase_events.cpp: the guards, the step the state-event
///   locator (domains/ct/event_locator.hpp) searches, ending the step at the
///   crossing it finds and firing the generators there, crossings made by
///   events;
/// - continuous_phase_jacobian.cpp: the parts' Jacobian structure;
/// - continuous_phase_external.cpp: the run integrated by another program.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/local_jacobian.hpp"
#include "../../core/time.hpp"
#include "../ct/event_locator.hpp"
#include "../ct/jacobian_pattern.hpp"
#include "../ct/ode_solver.hpp"
#include "director.hpp"
#include "jacobian_program.hpp"
#include "run_state_impl.hpp"
#include "states_view.hpp"

namespace ctde {

class ContinuousPhase {
 public:
  /// Works on `run`, which outlives it (defined where Part is complete,
  /// continuous_phase_parts.cpp, as the destructor).
  explicit ContinuousPhase(RunState& run);
  ContinuousPhase(const ContinuousPhase&) = delete;
  ContinuousPhase& operator=(const ContinuousPhase&) = delete;
  ContinuousPhase(ContinuousPhase&&) = delete;
  ContinuousPhase& operator=(ContinuousPhase&&) = delete;
  ~ContinuousPhase();

  // ---- What the director's discrete side tells it, and asks of it

  /// While the director lays the run out (before lay_out_parts): the guards
  /// of the actor at depth `d`, `count` of them (0: none), numbered after
  /// those added before. Returns its first guard's number.
  GuardId add_guards(ActorId d, std::uint32_t count) {
    const GuardId first = GuardId::at(guards_.owner.size());
    if (count > 0) guards_.generators.push_back(d);
    for (std::uint32_t i = 0; i < count; ++i) guards_.owner.push_back(d);
    return first;
  }
  /// The actors with guards, in depth order; the number of guards.
  [[nodiscard]] const std::vector<ActorId>& generators() const { return guards_.generators; }
  [[nodiscard]] std::size_t guard_count() const { return guards_.owner.size(); }
  /// Two parts or more: firings touch the parts (kInPart).
  [[nodiscard]] bool split() const { return parts_.split; }

  /// A microstep begins: the locators' end values are no longer current.
  void begin_microstep() { guards_.current = false; }
  /// Actor `a` with these flags fired in this microstep: it may have moved
  /// every guard (kMovesGuards), or its own (kGenerator). Inline: a firing
  /// with flags.
  void fired(ActorId a, RunState::Flags flags) {
    if ((flags & RunState::kMovesGuards) != 0) guards_.moved = true;
    if ((flags & RunState::kGenerator) != 0) guards_.fired_generators.push_back(a);
  }
  /// The microstep's firings are over: the crossings they made
  /// (microstep_crossings), when a firing may have moved a guard.
  void end_microstep() {
    if (guards_.moved || !guards_.fired_generators.empty()) microstep_crossings();
  }

  /// Sets the steps, rejected steps and evaluations of `stats`: the
  /// solvers' counters plus the phase's own right-hand side evaluations.
  void add_statistics(RunStatistics& stats) const;

  /// Director::jacobian_summary (continuous_phase_jacobian.cpp).
  [[nodiscard]] Director::JacobianSummary jacobian_summary() const;
  /// The Jacobian of an algebraic loop's residual F(g) - g over its
  /// unknowns (LoopSolver), column-major, and the slopes of the other
  /// actors' outputs over them, composed from its actors' local Jacobians
  /// in the order of one iterate when every value it needs is declared (a
  /// linear loop: constants of the run); an empty Jacobian otherwise.
  [[nodiscard]] LoopSolver::Linear loop_jacobian(std::span<const ActorId> members, std::size_t tears,
                                                 std::span<const SignalIndex> unknowns) const;
  /// Director::jacobian_at_start once the run is initialized (continuous_phase_jacobian.cpp).
  [[nodiscard]] std::vector<double> jacobian_at_start(bool finite_differences);

  /// A row at `tag` with the current values (and the tokens sent at
  /// tag.microstep - 1): every part's values at its time in a split run.
  void record(Tag tag) {
    if (!run_.rows_.active()) return;
    if (parts_.split) {
      record_split(tag, run_.resolution_.to_seconds(tag.time));
      return;
    }
    run_.record_values(RowTime::at_tick(tag.time, run_.resolution_), tag.microstep);
  }

  struct Part;

  /// After lay_out's lists: the parts (split when the continuous side falls
  /// into independent parts and nothing asks for one integrator; else one
  /// whole part), parts_.of, and the kInPart flags (continuous_phase_parts.cpp).
  void lay_out_parts();

  /// In initialize(): each part's solver at the start (`ode` with the run's
  /// per-state tolerances, if any).
  void start_parts(const OdeOptions& ode, double t);

  /// The initial states must be finite.
  void check_states(double t);

  /// Integrates from now to `next` (ticks), always stepping the part with
  /// the earliest frontier, never past `next` (a solver's stop time makes it
  /// land on `next` exactly). Records a row at each step end and at each
  /// output_interval point inside the step (rows: one part). A state event
  /// located inside ends the phase early, at the event (now_ is then
  /// (te, 0) and the generators' firings are queued there).
  ///
  /// Looking ahead (`step_limit` after `next`: the run pauses at `next`,
  /// Director::advance_to, and its next event is at `step_limit`): a joined
  /// run with states and nothing that watches its steps (no rows, step
  /// watchers or checkpoints) steps on towards `step_limit` and stands at
  /// `next` with its solver ahead, its outputs at `next` from the step's
  /// dense output, as rows inside a step are (docs/semantics.md, "Pausing
  /// a run"). The run goes on from the solver's own state when nothing
  /// happens at the pause; settle_ahead() brings it back to `next` otherwise.
  void run_to(Tick next, Tick step_limit);
  void run_to(Tick next) { run_to(next, next); }

  /// True while the run stands at a pause with its solver ahead (run_to).
  [[nodiscard]] bool ahead() const { return ahead_.on; }
  /// Standing ahead, with no event before `at`: when the solver's step (and
  /// any crossing found in it) is past `at`, the run stands at `at` instead,
  /// its outputs there from the same step (true); else nothing (false: the
  /// phase must run).
  bool move_ahead(Tick at);
  /// The run standing ahead: its state at now_ from the dense output, its
  /// guards' sides there, its solver restarted there (with the step it had
  /// planned), a crossing found beyond forgotten; as after an event at
  /// now_. Before anything that reads or changes the state at a pause: an
  /// event there, a snapshot, a linearization. Nothing when not ahead.
  void settle_ahead();

  /// At the start time: each guard's side.
  void start_guards();

  /// A firing of actor a at now_ (split runs, kInPart): its part, the first
  /// time, takes its state at now_ from its dense output and its guards'
  /// sides there, and restarts at now_ after the phase.
  void touch_part(ActorId a);

  /// After events changed continuous states or inputs: trace the resets and
  /// restart every touched part at (t, x+) — the same integrator.
  void restart_solver();

  /// After a DE phase at now_, for each touched part: one behind restarts
  /// at now_; guards that fired settle (EventLocator::settle, using their
  /// slope along the new flow); guards that the phase itself made cross (a
  /// Step into a detector, a reset across a level) fire at the next
  /// microstep. Returns true when it queued such firings.
  /// Inline: once per event time, and most event-heavy models have no guard.
  bool after_events() { return (parts_.split || !guards_.generators.empty()) && settle_guards(); }

  // ---- Integrated by another program (continuous_phase_external.cpp;
  // Director's "Integrated by another program"): the run is one part.

  /// The derivatives (dx) and the guards less their levels (z) at (t, x),
  /// x in the run's layout; every output left at (t, x). Moves nothing.
  void evaluate_external(double t, const double* x, std::span<double> dx, std::span<double> z);
  /// The program's step ended at (t, x): the run's states are x, and the
  /// guards take their sides there, unless one crossed (an event comes:
  /// the program calls jump_external there).
  void accept_external(double t, std::span<const double> x);
  /// The program's event at (t, x), now_ its tag: the run's states are x,
  /// the part restarts there, and the guards that crossed since the last
  /// accepted point fire at now_, as a crossing located there.
  void jump_external(double t, std::span<const double> x);

  // ---- Snapshots (continuous_phase_snapshot.cpp; docs/snapshots.md)

  /// At a snapshot's tag, after its events (every part stands at now_):
  /// each part's solver restarts at (now_, its state) with the step it had
  /// planned, as a run resumed from the snapshot starts its solvers there;
  /// from here on the two take the same steps. Then save() writes it.
  void restart_for_snapshot();
  /// True when a snapshot here needs no restart of its own (a checkpoint's
  /// place, take_for_checkpoint): no part has a crossing pending or a state
  /// taken from its dense output, and each part's solver either saves itself
  /// exactly (OdeSolver::saves_exactly: it may stand at a step's end ahead
  /// of now_) or restarted at now_ after the events and has not stepped
  /// since, or there is none.
  [[nodiscard]] bool checkpoint_place() const;
  /// For a snapshot at such a place: each part, in the resumed run, goes on
  /// as its solver would have: restarted as it just was
  /// (OdeSolver::last_reset_step), or from its exact state.
  void take_for_checkpoint();
  /// Director::set_checkpoints: `due` is asked at step ends too (a place
  /// where the run goes on as after an event time with no event: a
  /// continuous run without events has no other), while it lives.
  void ask_checkpoints_at_steps(const std::function<bool()>* due) { checkpoint_due_ = due; }
  /// True once after a step end where `due` said yes (run_to returned there).
  [[nodiscard]] bool take_step_checkpoint() { return std::exchange(step_checkpoint_, false); }
  /// Writes each part's solver (its exact state, or the step it restarts
  /// with) and guards, and the counters so far.
  void save(StateWriter& out) const;
  /// In a resumed run, after start_parts() at the snapshot's time: reads
  /// what save() wrote; each part's solver restarts as restart_for_snapshot()
  /// did or goes on from its exact state, and the counters go on from the
  /// saved ones.
  void restore(StateReader& in);

 private:
  /// Per depth, the independent part of a split run (kNoPart: in none); or
  /// nothing, when the run is not split (an option, or one part only).
  [[nodiscard]] std::vector<PartId> split_parts() const;
  /// Appends part `id` with the actors marked in `mine` (per depth): their
  /// states, guards and evaluation programs; `whole` when it is every actor.
  void make_part(PartId id, bool whole, const std::vector<std::uint8_t>& mine);
  /// The structure of part p's Jacobian ∂f/∂x and its known values, from
  /// each actor's local Jacobian along the connections
  /// (continuous_phase_jacobian.cpp; docs/semantics.md, "Jacobians").
  /// Of the whole continuous side (every state, the run's order) when p is null.
  /// With `program`: records there how the pattern was composed, to compose
  /// its values at each point again (jacobian_program.hpp).
  [[nodiscard]] JacobianPattern jacobian_pattern(const Part* p, JacobianProgram* program = nullptr) const;
  /// Part p's pattern as its solver uses it: with values at each point, p.program
  /// records its composition (start_parts, jacobian_at_start).
  [[nodiscard]] JacobianPattern part_pattern(Part& p) const;
  /// An actor's local Jacobian entries, and how many of them are given at each point.
  struct LocalEntries {
    std::vector<LocalJacobian::Entry> entries;
    std::uint32_t points = 0;
  };
  /// Actor d's local Jacobian (core/local_jacobian.hpp) over its ports'
  /// widths in this run, its entries sorted by row.
  [[nodiscard]] LocalEntries sorted_local_jacobian(ActorId d) const;
  /// OdeProblem::values_at_point for part `user` (a Part*): the model
  /// evaluated at (t, x), its actors' values at that point
  /// (Actor::jacobian_values), the part's JacobianProgram composed into `values`.
  static int part_values_at_point(double t, const double* x, double* values, void* user);
  /// A state's name in messages: "tank.h", "plant.x[2]" (an actor's state of several).
  [[nodiscard]] std::string state_label(StateIndex state) const;
  /// OdeProblem::state_name for part `user` (a Part*): its state k's label.
  static std::string part_state_name(std::size_t k, void* user);

  /// The right-hand side of part `user` (a Part*) for its solver: outputs in
  /// schedule order, then each stateful actor's derivatives. No allocation.
  /// A NaN or infinite derivative, or an actor's failure on the way (an
  /// Expression giving NaN), is noted in rhs_failure_ and returned as a
  /// recoverable failure (1): at a trial stage of a step the solver tries a
  /// shorter step.
  static int part_rhs(double t, const double* x, double* dxdt, void* user);

  /// The part of part_rhs() that reads the model, with the states to read
  /// in view (part_rhs's StatesView): p's derivatives' inputs, then its
  /// actors' derivatives into dx (laid out as the run's state vector). False
  /// when an actor failed on the way (noted at (t, x), x in p's layout).
  bool compute_derivatives(const Part& p, double t, double* dx, const double* x);

  /// The states `x` of part p (its solver's layout) over the run's, in the
  /// run's layout, to view (StatesView): a whole part's x itself, a packed
  /// part's scattered into parts_.x.
  const double* placed_states(const Part& p, const double* x);

  /// Part p's states in its solver's layout, from the run's state vector
  /// (a whole part's are that vector; a packed part's are gathered in p.x).
  const double* part_state(Part& p);

  /// What part_rhs() failed on, for the run's error message.
  struct RhsFailure {
    bool seen = false;
    bool at_solution = false;  ///< at its part's solver's current state (not a trial stage)
    double t = 0;
    StateIndex state;               ///< in the run's state vector
    double value = 0;               ///< the derivative
    double x = 0;                   ///< the state's value there
    RunState::Failure actor_error;  ///< an actor's own failure (then state, value and x are unset)
  };

  /// Notes in rhs_failure_ that part p's right-hand side failed at (t, x)
  /// (x in p's layout): at the solution when that is p's solver's state.
  void note_rhs_failure(const Part& p, double t, const double* x);
  /// ... on the non-finite derivative `value` of state `state` (the run's
  /// numbering), whose value there was `x_value`.
  void note_nonfinite_derivative(const Part& p, double t, const double* x, StateIndex state, double value,
                                 double x_value);

  /// part_rhs() at a point of the solution (a step's end, the state after an
  /// event), for the director's own use: a non-finite derivative there stops
  /// the run.
  void rhs_on_solution(Part& p, double t, const double* x, double* dxdt);

  /// Stops the run with the failure noted in rhs_failure_: for a non-finite
  /// derivative naming the actor, its state, the time and `where` it was met.
  [[noreturn]] void rhs_failed(const std::string& where) const;

  /// p.frontier <- its pending crossing's time, else its solver's (or its own).
  void update_frontier(Part& p);

  /// The part with the earliest frontier (a located crossing before a
  /// solver's time at the same time).
  [[nodiscard]] Part& earliest_part(double& frontier);

  /// run_to may look ahead (see there): one part with a solver, nothing
  /// that watches its steps.
  [[nodiscard]] bool may_look_ahead() const;
  /// The run stands at `at` with p (the whole part) ahead: the run's
  /// signals kept, the outputs at `at` from p's dense output.
  void stand_ahead(Part& p, Tick at);
  /// Standing ahead: now_ <- `at` (`t` s), the outputs there from p's dense output.
  void at_ahead(Part& p, Tick at, double t);

  /// Part p's state at now_ (t) from its dense output in the run's state,
  /// its outputs and guards' sides there; a pending crossing forgotten.
  void take_state_at(Part& p, double t);

  /// After the step of the part that reached `t1` (the earliest frontier
  /// now): rows, now_, the step watchers, progress, the stop check. Returns
  /// true when a step watcher asked for an event before `next`.
  bool reached(Part& p, double t1, Tick next, double t_next);

  /// The run's state <- p's solver's state at its current time; p's outputs at t.
  void load_part(Part& p, double t);

  // ---- State events (docs/semantics.md, "State events"; the locator is
  // domains/ct/event_locator.hpp)

  /// The step the locator searches, read from the model: a part's last
  /// step, its RHS, its guard actors (continuous_phase_events.cpp).
  class Trajectory;

  /// Part p's guards at time t (local numbering), from the outputs as they
  /// are now. A NaN or infinite guard stops the run.
  void evaluate_guards(const Part& p, double t, std::span<double> g);

  /// Part p's guards at time t for its states `x` (its solver's layout; the
  /// actors they read evaluated there, in a StatesView).
  void guards_at(Part& p, double t, const double* x, std::span<double> g);

  /// Part p's guards at time t inside its last step, from its solver's
  /// dense output (or exactly, without continuous states).
  void guards_inside_step(Part& p, double t, std::span<double> g);

  /// "0", or the guard's name when its actor gives one.
  [[nodiscard]] std::string guard_label(GuardId guard) const;

  /// One step of part p towards t_next, and its guards checked over it:
  /// none crossed, the step is accepted; else the earliest crossing te is
  /// located on the step (with events "none": t1's tick) and becomes p's
  /// pending crossing, fired when p's frontier is the earliest
  /// (fire_pending). A crossing very early in the step, or any with
  /// event_state "integrated", is integrated to again at once, asking again
  /// until the crossing is at the step's end (p's step starts at the
  /// earliest frontier now).
  void step_part(Part& p, double t_next);
  /// A `step` trace line for the step [t0, t1] `p` took (when the trace writes them).
  void trace_step(Part& p, double t0, double t1);
  /// step_part's step: one solver step of p towards t_next (a solver's
  /// failure fails the run; a method switch is traced), or, without states,
  /// time advanced by at most the step bound. Returns the step's end.
  double advance_part(Part& p, double t_next);
  /// For a solver's failure: where p's solver stands, the state whose
  /// derivative is largest for its tolerance, named with its value and
  /// derivative, and what that suggests (a blow-up, or stiffness).
  [[nodiscard]] std::string fastest_state(Part& p);

  /// Part p at its pending crossing te, the earliest frontier: its step ends
  /// at te: rolled back there on its dense output (GetDky + Reset), or, when
  /// te, a tick, is after the step's end (a step that ends between two
  /// ticks, crossed in its last fraction of a tick), stepped on to te. Rows
  /// inside the step written while its interpolant is there. Returns true
  /// when its generators fire at te (the guards crossed there); false when
  /// the crossing was a few ulps of the interpolant later (the step, up to
  /// te, accepted).
  bool fire_pending(Part& p);

  /// One solver step of p from its current time towards the event's time
  /// `te`; returns the step's end. A solver failure fails the run.
  double step_to_event(Part& p, double te);

  /// Queues the generators of part p whose guards cross at its locator's
  /// end values to fire at `tag`, with their crossings visible to fire()
  /// through context.crossing(i).
  void fire_part_events(Part& p, Tag tag, const LocatedCrossing& found, double rejected_t1, int iterations);

  /// The run's guard `guard` crossed (`c`) is an event at `tag`: marked
  /// crossed for its actor's fire(), counted, traced (`bracket`, `residual`,
  /// `iterations` and `rejected_t1` are what its search found: 0 for a
  /// crossing made by a microstep) and its actor queued once.
  void queue_crossing(GuardId guard, Crossing c, const Tag& tag, double bracket, double residual,
                      int iterations, double rejected_t1);

  /// Stops the run for an event of `guard` at `te` that time cannot resolve
  /// (EventLocator::fire): chattering, or Zeno behaviour.
  [[noreturn]] void unresolved_events(GuardId guard, const EventRhythm& rhythm, Tick te) const;

  bool settle_guards();

  /// p.slopes <- dg/dt at now_ along the flow: p's guards at t + h on the
  /// Euler prediction x + h f(t, x), against its locator's end values.
  /// Leaves x and the outputs at t.
  void guard_slopes(Part& p, double t);

  /// One step of p's solver towards t_limit; a solver exception fails the
  /// run, and so does a non-finite derivative the solver could not step
  /// around (on the solution, or at a trial stage).
  StepResult step_solver(Part& p, double t_limit);

  /// x(t) of part p inside its last step, in its solver's layout, from its
  /// dense output (its interpolant may evaluate the right-hand side: a
  /// failure there fails the run).
  void dense_state(Part& p, double t, double* out);

  /// Rows at start + k * output_interval strictly inside (t0, t1), from the
  /// part's dense output (or, without states, from outputs at that time).
  void record_interval_points(Part& p, double t0, double t1, bool dense);
  /// The output_interval row start + k * output_interval: at its tick when
  /// the interval is a whole number of ticks, else between ticks.
  [[nodiscard]] RowTime interval_row(std::int64_t k) const;
  /// The time (s) of the first output_interval row after t; infinity
  /// without such rows (no results, or no output_interval).
  [[nodiscard]] double next_row_time(double t) const;
  /// The output_interval rows after the recorder's interval_until() and
  /// before t, from p's last step (`dense`: from its interpolant); then
  /// interval_until() is t.
  void rows_to(Part& p, double t, bool dense) {
    if (!run_.rows_.active() || !run_.options_.output_interval || !(t > run_.rows_.interval_until())) return;
    record_interval_points(p, run_.rows_.interval_until(), t, dense);
    run_.rows_.set_interval_until(t);
  }

  /// Part p restarts at (t, its state in the run's).
  void restart_part(Part& p, double t);

  /// A split run's row at `tag` with every part's values at t (seconds; a
  /// step end's row is at its tick with the values at the step's end, as
  /// in a joined run): row_state(t), the outputs at t, the row.
  void record_split(Tag tag, double t);

  /// A split run's state at t in parts_.row_x (for a StatesView): each part's
  /// own state when it stands at t (touched at an event, or its solver at
  /// t), else from its last step's dense output (which covers t: rows are
  /// written at most at the earliest frontier, and every part's step
  /// started at or before it). `still`, if not null, is a part whose
  /// state did not change over its last step (one too short to integrate).
  void row_state(double t, const Part* still);

  /// After a microstep at now_: guards of the touched parts that did not
  /// fire in this DE phase and that the microstep made cross fire at the
  /// next microstep (crossings in superdense time), taking their new side at
  /// once. Every guard of those parts when guards_.moved, else those of
  /// guards_.fired_generators.
  void microstep_crossings();

  /// The crossing check of microstep_crossings for part p's guard `local`
  /// (its value in p's locator's end values).
  void microstep_crossing(Part& p, GuardId local, const Tag& tag, double t);

  RunState& run_;
  const std::function<bool()>* checkpoint_due_ = nullptr;  ///< ask_checkpoints_at_steps
  bool step_checkpoint_ = false;                           ///< take_step_checkpoint

  /// The guards of the state-event generators, numbered across actors in
  /// depth order (each part's locator holds its own, step_part).
  struct Guards {
    std::vector<ActorId> generators;  ///< actors with guards
    std::vector<ActorId> owner;       ///< per guard (GuardId): its actor
    std::vector<GuardId> local;       ///< per guard: its number in its part
    /// A firing of this microstep may have moved any guard (microstep_crossings).
    bool moved = false;
    /// The generators that fired in this microstep (their own guards may
    /// have moved: a mode, a state of their own).
    std::vector<ActorId> fired_generators;
    /// The touched parts' locators' end values are their guards after the
    /// last microstep (after_events need not evaluate them again).
    bool current = false;
  };
  Guards guards_;
  std::uint64_t extra_rhs_ = 0;  ///< RHS evaluations made by the director itself (searches, slopes)
  /// The run's loop counters at the last `step` trace line (trace_step).
  std::uint64_t traced_loop_solves_ = 0;
  std::uint64_t traced_loop_iterations_ = 0;
  /// What a resumed run adds to its solvers' counters (add_statistics): the
  /// snapshot's counts less what its solvers counted on starting there.
  struct Carried {
    std::int64_t steps = 0;
    std::int64_t rejected_steps = 0;
    std::int64_t rhs_evals = 0;
  };
  Carried carried_;
  RhsFailure rhs_failure_;  ///< the last non-finite derivative part_rhs() met

  /// The parts: one whole part (a joined run), or two or more (split).
  struct Parts {
    /// Laid out once (a part's address is its solver's user data).
    std::vector<Part> all;
    std::vector<PartId> of;       ///< per depth: its part (kNoPart: none; a joined run: 0)
    std::vector<PartId> touched;  ///< the parts at now_ that the events may change
    std::vector<double> x;        ///< run-sized scratch: a packed part's states in the run's layout
    std::vector<double> dx;       ///< run-sized scratch: its derivatives
    std::vector<double> row_x;    ///< run-sized: the run's state inside a step, for output_interval rows
    bool split = false;           ///< two parts or more: the parts are touched by firings
  };
  Parts parts_;

  /// Where the run stands ahead (run_to, stand_ahead): the run's signals at
  /// the solver's time, put back when it goes on from there.
  struct Ahead {
    bool on = false;
    std::vector<double> signals;  ///< run-sized, kept from lay_out_parts
  };
  Ahead ahead_;
};

}  // namespace ctde
