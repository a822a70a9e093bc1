#pragma once
/// Director::Impl, the director's implementation, shared by its sources
/// (private: not installed). What each source holds:
///
/// - director.cpp: the run loop, the services actors call (emit, fire_at,
///   ...), the DE phase, rows and the run's end;
/// - director_layout.cpp: the flat buffers and the evaluation lists;
/// - director_parts.cpp: the parts of the continuous side (one whole part,
///   or independent ones: director_parts_impl.hpp), each part's
///   right-hand side, a part touched by an event;
/// - director_continuous.cpp: the continuous phase (the part with the
///   earliest frontier steps), rows inside steps, restarts after events;
/// - director_state_events.cpp: the guards, the step the state-event
///   locator (domains/ct/event_locator.hpp) searches, ending the step at
///   the crossing it finds and firing the generators there, crossings made
///   by events.

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../core/actor_context.hpp"
#include "../../core/error.hpp"
#include "../../core/ids.hpp"
#include "../ct/event_locator.hpp"
#include "../ct/ode_solver.hpp"
#include "../de/discrete_scheduler.hpp"
#include "director.hpp"
#include "director_layout_impl.hpp"
#include "firing_table.hpp"
#include "rhs_program.hpp"
#include "row_recorder.hpp"
#include "states_view.hpp"

namespace ctde {

class Director::Impl final : public DirectorServices {
 public:
  /// Lays the model out (director_layout.cpp). @throws OptionError for an
  /// atol list of the wrong length.
  Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace,
       ResultsSink* results);

  ProgressCallback progress_;
  StopCheck stop_check_;

  RunResult run();
  /// Director::jacobian_summary (director_jacobian.cpp).
  [[nodiscard]] JacobianSummary jacobian_summary() const;
  /// Director::jacobian_at_start (director_jacobian.cpp).
  [[nodiscard]] std::vector<double> jacobian_at_start(bool finite_differences);

  // ---- DirectorServices

  void emit(ActorId actor, OutputPort output, std::span<const double> token) override;
  void fire_at(ActorId actor, Tick time) override;
  void request_stop(ActorId actor) override;
  void mode_changed(ActorId actor, std::string_view from, std::string_view via, std::string_view to) override;
  void trace_line(ActorId actor, std::string_view kind, std::span<const TraceField> fields) override;
  void states_changing(ActorId actor) override;

  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start_; }
  [[nodiscard]] Tick stop_tick() const override { return stop_; }

 private:
  /// Per actor flags: bits below (kFiring...).
  using Flags = std::uint16_t;

  struct Failure {
    std::string message;
    std::string actor;
  };
  /// Thrown where the stop check said yes; run() ends the run as interrupted.
  struct Interrupted {};
  void stop_if_asked() const {
    if (stop_check_ && stop_check_()) throw Interrupted{};
  }

  /// Offsets of every port in the flat buffers. Inside the director an
  /// actor is known by its depth (its position in the topological order), so
  /// that the queue's events name their receiver and the firing loop walks
  /// arrays in order.
  void lay_out();

  /// The lengths of the run's buffers, counted by lay_out_actors().
  struct BufferSizes {
    std::uint32_t signals = 0;  ///< output values
    std::uint32_t states = 0;   ///< continuous states
    std::uint32_t tokens = 0;   ///< input token slots
    std::uint32_t inputs = 0;   ///< input ports
    std::uint32_t outputs = 0;  ///< output ports
  };
  /// Per actor (by depth): its slices of the buffers, its guards, whether
  /// it has states, watches steps or drives continuous signals.
  BufferSizes lay_out_actors();
  /// Each input's slice (its driver's output, or zeros when unconnected),
  /// the receivers of each output's tokens, the token and value buffers.
  void connect_inputs(const BufferSizes& sizes);
  /// The fixed flags that need the evaluation lists: who moves guards,
  /// functions, readers of timed outputs; the constant discrete inputs.
  void set_fixed_flags();

  [[nodiscard]] const FlatActor& flat(ActorId a) const {
    return model_.actors[layout_.by_depth[a.index()].index()];
  }

  /// The evaluation lists, each in schedule order: every continuous and
  /// constant actor (layout_.at_start, once); those whose outputs change with time
  /// (layout_.continuous: at step ends, output_interval points and after events; a
  /// constant's outputs never change, an actor without continuous outputs
  /// has nothing to evaluate); those the derivatives read (layout_.rhs_inputs: the
  /// RHS evaluates only these, not outputs that only the results or discrete
  /// actors read); and those the guards read (layout_.guard_inputs: a state-event
  /// search evaluates only these at its trial times).
  void schedule_guards_and_outputs();

  /// The actors of layout_.continuous (layout_.timed) whose outputs `seeds` read: the
  /// drivers of the seeds' inputs and, upstream of those, drivers of inputs
  /// that feed an output through (an output that depends on states only ends
  /// the walk). With `with_seeds`, the seeds too. Schedule order.
  [[nodiscard]] std::vector<ActorId> upstream(const std::vector<ActorId>& seeds, bool with_seeds) const;

  /// At the start: the actors' states and initialize(), every continuous
  /// and constant output, the solver.
  void initialize();

  /// Every output that changes with time, at time t, in schedule order.
  void evaluate_all(double t) { evaluate(layout_.outputs, t); }

  /// The outputs `program` computes, at time t.
  void evaluate(const RhsProgram& program, double t);

  // ---- Parts: the continuous side as one part (a joined run) or several
  // independent ones (a split run), each with its own solver and locator
  // (director_parts_impl.hpp; docs/semantics.md, "Independent subsystems").
  // Every procedure below works on a part; a joined run is the case of one.

  struct Part;

  /// After lay_out's lists: the parts (split when the continuous side falls
  /// into independent parts and nothing asks for one integrator; else one
  /// whole part), parts_.of, and the kInPart flags (director_parts.cpp).
  void lay_out_parts();
  /// Per depth, the independent part of a split run (kNoPart: in none); or
  /// nothing, when the run is not split (an option, or one part only).
  [[nodiscard]] std::vector<PartId> split_parts() const;
  /// Appends part `id` with the actors marked in `mine` (per depth): their
  /// states, guards and evaluation programs; `whole` when it is every actor.
  void make_part(PartId id, bool whole, const std::vector<std::uint8_t>& mine);
  /// In initialize(): each part's solver at the start (`ode` with the run's
  /// per-state tolerances, if any).
  void start_parts(const OdeOptions& ode, double t);
  /// The structure of part p's Jacobian ∂f/∂x and its known values, from
  /// each actor's local Jacobian along the connections
  /// (director_jacobian.cpp; docs/semantics.md, "Jacobians").
  /// Of the whole continuous side (every state, the run's order) when p is null.
  [[nodiscard]] JacobianPattern jacobian_pattern(const Part* p) const;
  /// Actor d's local Jacobian (core/local_jacobian.hpp) over its ports'
  /// widths in this run, its entries sorted by row.
  [[nodiscard]] std::vector<LocalJacobian::Entry> sorted_local_jacobian(ActorId d) const;
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
    StateIndex state;     ///< in the run's state vector
    double value = 0;     ///< the derivative
    double x = 0;         ///< the state's value there
    Failure actor_error;  ///< an actor's own failure (then state, value and x are unset)
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

  /// The initial states must be finite.
  void check_states(double t);

  /// Integrates from now to `next` (ticks), always stepping the part with
  /// the earliest frontier, never past `next` (a solver's stop time makes it
  /// land on `next` exactly). Records a row at each step end and at each
  /// output_interval point inside the step (rows: one part). A state event
  /// located inside ends the phase early, at the event (now_ is then
  /// (te, 0) and the generators' firings are queued there).
  void continuous_phase(Tick next);

  /// p.frontier <- its pending crossing's time, else its solver's (or its own).
  void update_frontier(Part& p);

  /// The part with the earliest frontier (a located crossing before a
  /// solver's time at the same time).
  [[nodiscard]] Part& earliest_part(double& frontier);

  /// After the step of the part that reached `t1` (the earliest frontier
  /// now): rows, now_, the step watchers, progress, the stop check. Returns
  /// true when a step watcher asked for an event before `next`.
  bool reached(Part& p, double t1, Tick next, double t_next);

  /// The run's state <- p's solver's state at its current time; p's outputs at t.
  void load_part(Part& p, double t);

  // ---- State events (docs/semantics.md, "State events"; the locator is
  // domains/ct/event_locator.hpp)

  /// The step the locator searches, read from the model: a part's last
  /// step, its RHS, its guard actors (director_state_events.cpp).
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
  /// step_part's step: one solver step of p towards t_next (a solver's
  /// failure fails the run; a method switch is traced), or, without states,
  /// time advanced by at most the step bound. Returns the step's end.
  double advance_part(Part& p, double t_next);

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

  /// At the start time: each guard's side.
  void start_guards();

  /// A firing of actor a at now_ (split runs, kInPart): its part, the first
  /// time, takes its state at now_ from its dense output and its guards'
  /// sides there, and restarts at now_ after the phase.
  void touch_part(ActorId a);

  /// After a DE phase at now_, for each touched part: one behind restarts
  /// at now_; guards that fired settle (EventLocator::settle, using their
  /// slope along the new flow); guards that the phase itself made cross (a
  /// Step into a detector, a reset across a level) fire at the next
  /// microstep. Returns true when it queued such firings.
  /// Inline: once per event time, and most event-heavy models have no guard.
  bool after_events() { return (parts_.split || !guards_.generators.empty()) && settle_guards(); }
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
  /// The output_interval rows after the recorder's interval_until() and
  /// before t, from p's last step (`dense`: from its interpolant); then
  /// interval_until() is t.
  void rows_to(Part& p, double t, bool dense) {
    if (!rows_.active() || !options_.output_interval || !(t > rows_.interval_until())) return;
    record_interval_points(p, rows_.interval_until(), t, dense);
    rows_.set_interval_until(t);
  }

  /// After events changed continuous states or inputs: trace the resets and
  /// restart every touched part at (t, x+) — the same integrator.
  void restart_solver();
  /// Part p restarts at (t, its state in the run's).
  void restart_part(Part& p, double t);

  /// A row at `tag` with the current values (and the tokens sent at tag.microstep - 1).
  void record(Tag tag) {
    if (!rows_.active()) return;
    if (parts_.split) {
      record_split(tag, resolution_.to_seconds(tag.time));
      return;
    }
    record_values(RowTime::at_tick(tag.time, resolution_), tag.microstep);
  }

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

  /// A row at (time, microstep): continuous values, and discrete ones sent at
  /// microstep - 1 of this time (absent otherwise).
  void record_values(const RowTime& time, std::uint32_t microstep) {
    rows_.write(time, now_.time, microstep, b_.signals);
  }

  /// Runs `call` for actor `a`, turning its failures into a run failure.
  template <class Call>
  void guarded(ActorId a, Call&& call) {
    try {
      call();
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{flat(a).path + ": " + e.what(), flat(a).path};
    } catch (...) {  // whatever an actor's library throws ends the run, never the process
      throw Failure{flat(a).path + ": an error that is not a std::exception", flat(a).path};
    }
  }

  /// Starts loading what the next queued events will fire while the current
  /// one fires: with many actors each firing touches an actor cold in cache
  /// (bench/de, N = 1e5: the actor's first reads were most of the time per
  /// event). Called with the served event's slot open (EventQueue::open_top),
  /// so the top is the next event unless the firing schedules an earlier
  /// one: two lines of its actor object are loaded (the vtable pointer, and
  /// the subclass's first members, right after the base class; loading the
  /// whole base too was slower: more lines evicted); the one after is among
  /// the top's children: their entries in layout_.firing_table.
  /// Inline, and marked (director.cpp): GCC removes calls to a function that only prefetches.
  /// Called only in models with many actors (layout_.prefetch_ahead): a small model
  /// stays in cache, and the lookahead would only cost instructions.
  void prefetch_ahead() const;

  /// Fires the actor of `due` at now_ (t in seconds): a plain firing
  /// (FiringTable) here, any other in fire_flagged(). Then the event it
  /// served leaves the queue unless its firing scheduled one in its place.
  /// Inline (director.cpp): every firing of the DE phase.
  void fire(const DueActor& due, double t);

  /// A plain firing of `actor` (depth a) at now_, t in seconds;
  /// `time_event`: served from the queue.
  void fire_plain(ActorId a, const Actor* actor, bool time_event, double t);

  /// Fires actor `a` whose firing is not plain: it may serve a state event
  /// (`from_queue`: it was served from the queue), or ask for
  /// fire_special(); t: now_ in seconds.
  void fire_flagged(ActorId a, bool from_queue, double t);

  /// Fires the actors still due at the microstep now_ (t: its time in
  /// seconds), in depth order.
  void fire_due(double t);

  /// Every actor due at microstep now_ has fired: its end (outputs
  /// refreshed, a row, the crossings it made). Returns true, now_ at the
  /// next microstep, when anything is due there; false when the phase is
  /// over (or the run stops).
  bool end_microstep(double t);

  /// What a pass of lone_event() did.
  enum class LonePass : std::uint8_t {
    kDone,     ///< the phase at (t, 0) ran; now_ is the next event time
    kOver,     ///< the run is over: stopped, or the phase at the stop time done
    kGeneral,  ///< nothing ran: the general pass takes the phase at now_
  };
  /// The run loop's branch for pure-DE models without step watchers
  /// (layout_.lone_events): when the phase at (t, 0) starts with a plain
  /// firing of the event queued there and no token is due, runs it and
  /// jumps to the next event time: what the general pass does, without the
  /// steps such a model skips anyway (the test lone_events_give_the_
  /// general_loop's trace, tests/ctde, compares the two; CTDE_FAST_PATHS=off
  /// switches the branch off).
  LonePass lone_event();

  /// Fires actor `a` whose flags ask for more than its fire(): the
  /// evaluation of stale outputs before it reads them, the director's own
  /// firing of a function (fire_function), what its firing changed.
  void fire_special(ActorId a, Flags flags, FireContext& context);

  /// Fires a polymorphic actor resolved discrete: its outputs are its
  /// function (evaluate()) of the latest value of every input (an absent
  /// input holds its last token, 0 before the first), sent as tokens.
  void fire_function(ActorId a, double t);

  /// After a microstep at now_: guards of the touched parts that did not
  /// fire in this DE phase and that the microstep made cross fire at the
  /// next microstep (crossings in superdense time), taking their new side at
  /// once. Every guard of those parts when guards_.moved, else those of
  /// guards_.fired_generators.
  void microstep_crossings();

  /// The crossing check of microstep_crossings for part p's guard `local`
  /// (its value in p's locator's end values).
  void microstep_crossing(Part& p, GuardId local, const Tag& tag, double t);

  /// After an accepted step ending at t1 (now_ its tick): asks the step
  /// watchers; those that want an event there are queued at (now_, 0).
  /// Returns true when one did.
  bool steps_completed(double t1);

  /// At a time with events (and at the start): the step watchers'
  /// at_events(), before the first microstep or after the last one. Inline:
  /// twice per event time, and most models have no watcher.
  void watch_events(EventSide side) {
    if (!layout_.step_watchers.empty()) tell_step_watchers(side);
  }
  void tell_step_watchers(EventSide side);

  /// The step bound (layout_.step_bound) from the actors that drive the guards
  /// and, without output_interval rows, the recorded signals.
  void bound_steps();

  /// The DE phase at now_: every microstep of this time, each firing its
  /// actors in depth order (the event being served, tokens to deeper actors
  /// in the same microstep, everything else at the next one).
  void discrete_phase();

  /// Stops the run: more than max_microsteps at one time, naming the actors
  /// still due.
  [[noreturn]] void zeno(double t);

  /// The run's result and statistics; the trace's error and run_end lines.
  RunResult finish(RunStatus status, const std::string& message, const std::string& actor);

  const FlatModel& model_;
  RunOptions options_;
  std::string name_;
  TraceWriter* trace_;
  TimeResolution resolution_;
  Tick start_;
  Tick stop_;
  RunBuffers b_;
  /// The time events, the firing order, the token slots, the output refresh.
  DiscreteScheduler scheduler_{b_};
  Tag now_;
  bool initialized_ = false;
  bool stop_requested_ = false;
  ActorId stop_actor_;
  RunStatistics stats_;
  DirectorLayout layout_;

  RowRecorder rows_;  ///< the results rows
  EventChanges changes_;

  // Per actor flags (Flags, declared above; layout_.flags).
  static constexpr Flags kStatesChanging = 8;     ///< in changes_.reset
  static constexpr Flags kStateEvent = 16;        ///< queued for a located crossing
  static constexpr Flags kDrivesContinuous = 32;  ///< has a continuous output (fixed)
  /// Reads an output that changes with time (a driver in layout_.continuous), so
  /// it must see those outputs evaluated again before it fires (fixed).
  static constexpr Flags kReadsTimed = 2;
  /// A polymorphic actor resolved discrete: the director fires it as its
  /// function of the latest input values (fire_function; fixed).
  static constexpr Flags kFunction = 64;
  /// Its firing may move every guard: it has continuous outputs, or it
  /// sends tokens where a generator reads them (fixed). A generator that
  /// fires has its own guards checked (guards_.fired_generators).
  static constexpr Flags kMovesGuards = 128;
  /// Has guards of its own (fixed).
  static constexpr Flags kGenerator = 256;
  /// Belongs to a part of a split run: its firing touches the part (fixed).
  static constexpr Flags kInPart = 512;
  /// The flags that describe the actor, not the current microstep.
  static constexpr Flags kFixedFlags =
      kDrivesContinuous | kReadsTimed | kFunction | kMovesGuards | kGenerator | kInPart;
  /// Any of these asks for more than fire(): one test on the common path.
  static constexpr Flags kSpecial =
      kReadsTimed | kFunction | kDrivesContinuous | kMovesGuards | kGenerator | kInPart;
  /// Models with this many actors look ahead in the queue (prefetch_ahead):
  /// their actors outgrow the caches (4096 actors of ~300 bytes: 1.2 MB).
  static constexpr std::size_t kPrefetchActors = 4096;
  /// A step cut to less than this fraction of itself at a state event is
  /// integrated again to the event rather than cut on the dense output.
  static constexpr double kShortCut = 1e-6;
  /// Most redone steps for one state event before giving up.
  static constexpr int kMaxLocationRounds = 50;

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
  RhsFailure rhs_failure_;       ///< the last non-finite derivative part_rhs() met

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
};

}  // namespace ctde
