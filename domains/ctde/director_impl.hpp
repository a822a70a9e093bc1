#pragma once
/// Director::Impl, the director's implementation (private: not installed):
/// the run loop and the discrete phase, over the run's shared state
/// (RunState, run_state_impl.hpp) with the continuous phase beside it
/// (ContinuousPhase, continuous_phase_impl.hpp). Its sources:
///
/// - director.cpp: the run loop, the services actors call (emit, fire_at,
///   ...), the DE phase and the run's end. The run's layout is RunState's
///   (run_layout.cpp).

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
#include "../de/discrete_scheduler.hpp"
#include "continuous_phase_impl.hpp"
#include "director.hpp"
#include "firing_table.hpp"
#include "rhs_program.hpp"
#include "row_recorder.hpp"
#include "run_layout_impl.hpp"
#include "run_state_impl.hpp"
#include "states_view.hpp"

namespace ctde {

class Director::Impl final : public DirectorServices, public RunState {
 public:
  /// Lays the model out (RunState::lay_out). @throws OptionError for an
  /// atol list of the wrong length.
  Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace,
       ResultsSink* results);

  RunResult run();
  /// Director::advance_to.
  bool advance_to(double time, Pause how);
  /// Director::return_at_events and Director::time.
  void return_at_events(bool on) { return_at_events_ = on; }
  [[nodiscard]] double time() const { return resolution_.to_seconds(now_.time); }
  /// Director::snapshot.
  RunSnapshot snapshot();
  /// Director::set_input.
  void set_input(const std::string& actor, std::span<const double> value);
  /// Director::output_values.
  [[nodiscard]] std::span<const double> output_values(const std::string& port) const;

  // ---- Snapshots (run_snapshot.cpp)

  /// Director::snapshot_at.
  void snapshot_at(double time, SnapshotWriter write);
  /// Director::set_checkpoints.
  void set_checkpoints(std::function<bool()> due, SnapshotWriter write);
  /// Director::fingerprint.
  [[nodiscard]] ModelFingerprint fingerprint() const;
  /// Director::resume_from.
  void resume_from(RunSnapshot snapshot, bool parameters_may_differ);
  /// Director::jacobian_summary (the continuous phase's).
  [[nodiscard]] JacobianSummary jacobian_summary() const;
  /// Director::jacobian_at_start: initialize(), then the continuous phase's.
  [[nodiscard]] std::vector<double> jacobian_at_start(bool finite_differences);
  /// Director::linearize (linearization.cpp).
  [[nodiscard]] Director::Linearization linearize(const std::vector<std::string>& inputs,
                                                  const std::vector<std::string>& outputs);
  /// An input element of a linearization: the signal it reads, moved where
  /// its driver computes it.
  struct Perturbed {
    ActorId driver;
    SignalIndex signal;
  };
  /// The derivatives (into dx) and every timed output, at time t, the
  /// states in b_.x_storage, the signals first `held`, input k moved by du[k].
  void evaluate_perturbed(double t, const std::vector<double>& held, const std::vector<Perturbed>& u,
                          const std::vector<double>& du, double* dx);
  /// The elements of the input ports `names` ("actor.port"), their names appended to `element_names`.
  std::vector<Perturbed> perturbed_inputs(const std::vector<std::string>& names,
                                          std::vector<std::string>& element_names);
  /// The elements of the output ports `names`, their names appended to `element_names`.
  std::vector<SignalIndex> linearized_outputs(const std::vector<std::string>& names,
                                              std::vector<std::string>& element_names);
  /// The actor and port of "actor.port" (an input or an output).
  /// @throws ModelError naming what is not there.
  [[nodiscard]] std::pair<FlatIndex, std::size_t> find_port(const std::string& name, bool input,
                                                            std::string_view caller) const;

  // ---- Integrated by another program (director_external.cpp; Director's declarations say what each does)

  [[nodiscard]] std::string external_integration_problem() const;
  [[nodiscard]] std::size_t state_count() const { return b_.x_storage.size(); }
  [[nodiscard]] std::size_t indicator_count() const { return continuous_.guard_count(); }
  [[nodiscard]] std::span<const double> states() const { return b_.x_storage; }
  /// Each state's name: the actor's path, with its element when it has several ("p[1]").
  [[nodiscard]] std::vector<std::string> state_names() const;
  [[nodiscard]] std::vector<std::string> indicator_names() const;
  void evaluate_at(double t, std::span<const double> x, std::span<double> dx, std::span<double> z);
  bool step_completed(double t, std::span<const double> x);
  bool events_at(double t, std::span<const double> x);
  [[nodiscard]] std::optional<double> next_event_time() const;
  void hold_input(const std::string& actor, std::span<const double> value);

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
  /// At the start: the actors (RunState::initialize_actors), then the solver.
  void initialize();
  /// The solver at time t (after initialize(), or a resume): the run's
  /// options with the actors' state tolerances and the step bound.
  void start_solver(double t);

  /// The time the continuous phase and the lone events may run to: the
  /// stop time, or the pause (`with_pause`) or a snapshot's time before it.
  [[nodiscard]] Tick run_limit(bool with_pause = true) const {
    Tick limit = with_pause && pause_ > now_.time ? std::min(stop_, pause_) : stop_;
    return snapshot_ && snapshot_->at > now_.time ? std::min(limit, snapshot_->at) : limit;
  }
  /// The run from where it stands: started (initialize() or resume()) the
  /// first time, then on to `pause`, where it pauses after the events
  /// there (nullopt), or to its end (its result, which every later call
  /// returns again).
  std::optional<RunResult> go(Tick pause);
  /// After the events at now_: takes the snapshot asked for there.
  void snapshot_if_due() {
    if (snapshot_ && snapshot_->at == now_.time && !snapshot_->taken) take_snapshot();
    if (checkpoint_ && now_.time < stop_ &&
        (continuous_.take_step_checkpoint() ||
         ((b_.x_storage.empty() || continuous_.checkpoint_place()) && checkpoint_->due())))
      take_checkpoint();
  }
  /// A checkpoint here, where no solver needs a restart of its own (run_snapshot.cpp).
  void take_checkpoint();
  /// The solver restarts for the snapshot (ContinuousPhase::restart_for_snapshot),
  /// then the run's state is written and handed to the writer.
  void take_snapshot();
  /// The snapshot of the run where it stands (a snapshot line traced, the
  /// solvers restarted, the state written).
  RunSnapshot saved();
  /// The snapshot at now_ whose body `out` wrote (save_run).
  [[nodiscard]] RunSnapshot here(const StateWriter& out) const;
  /// The run's state after the events of now_ (run_snapshot.cpp).
  void save_run(StateWriter& out) const;
  /// resume_from(): the run's state from resume_'s snapshot, but for the
  /// continuous phase's (kept in resume_->continuous: its solvers start in
  /// run(), after the trace's first line).
  /// @throws SnapshotError naming what does not fit.
  void restore_run();
  /// In run(), instead of initialize(): the solvers at the snapshot's time,
  /// the continuous phase's state.
  void resume();

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
    kPaused,   ///< the phase at the pause time ran: the run pauses there
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

  /// The DE phase at now_: every microstep of this time, each firing its
  /// actors in depth order (the event being served, tokens to deeper actors
  /// in the same microstep, everything else at the next one).
  void discrete_phase();

  /// Stops the run: more than max_microsteps at one time, naming the actors
  /// still due.
  [[noreturn]] void zeno(double t);

  /// The run's result and statistics; the trace's error and run_end lines.
  RunResult finish(RunStatus status, const std::string& message, const std::string& actor);

  std::string name_;
  bool initialized_ = false;
  bool stop_requested_ = false;
  ActorId stop_actor_;
  bool started_ = false;
  Tick pause_ = 0;                   ///< where go() pauses (the stop time: nowhere)
  Pause pause_how_ = Pause::kExact;  ///< how (advance_to's argument while it runs)
  bool return_at_events_ = false;    ///< Director::return_at_events
  Tick went_from_ = 0;               ///< where go() began
  /// With return_at_events, after the events of a time after where go()
  /// began and before its pause: the run pauses here (pause_ <- now_).
  bool early_pause() {
    if (!return_at_events_ || now_.time <= went_from_ || now_.time >= pause_) return false;
    pause_ = now_.time;
    return true;
  }
  std::optional<RunResult> ended_;  ///< how the run ended, once it did
  /// Integrated by another program: step_completed() moved now_ to a new
  /// tick at which no event has run yet (events_at() there needs no new microstep).
  bool tag_fresh_ = false;
  /// Checks a call of the program that integrates: a started run, not
  /// ended, t a time from where it stands, `x` of the states' size.
  /// Returns t's tick. @throws std::invalid_argument, std::logic_error.
  Tick external_point(double t, std::span<const double> x, const char* caller) const;
  /// The tick of `t` (s): `near` when t is its time to a few ulps, else t rounded.
  [[nodiscard]] Tick snapped(double t, Tick near) const;
  /// The input actor `actor` (ExternalInput), by depth. @throws ModelError.
  [[nodiscard]] ActorId input_actor(const std::string& actor) const;
  /// Where the run stood when a value was last given to an input (set_input):
  /// the values given at one pause are taken at one microstep.
  std::optional<Tag> given_at_;
  /// A snapshot to take (snapshot_at).
  struct SnapshotRequest {
    Tick at = 0;
    SnapshotWriter write;
    bool taken = false;
  };
  std::optional<SnapshotRequest> snapshot_;
  /// Director::set_checkpoints.
  struct Checkpoints {
    std::function<bool()> due;
    SnapshotWriter write;
  };
  std::optional<Checkpoints> checkpoint_;
  /// The snapshot to resume from (resume_from).
  struct Resume {
    RunSnapshot snapshot;
    bool parameters_may_differ = false;
    std::vector<std::byte> continuous;  ///< the continuous phase's part of the body
  };
  std::optional<Resume> resume_;
  /// The continuous side: its parts, guards and rows inside steps.
  ContinuousPhase continuous_{*this};

  /// prefetch_ahead: the cache lines of the next actor object it prefetches (its first 256 bytes).
  static constexpr std::size_t kPrefetchLines = 4;
  static constexpr std::size_t kCacheLine = 64;
};

}  // namespace ctde
