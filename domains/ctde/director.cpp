// The director: the run loop, the services actors call, the DE phase and
// the run's end (director_impl.hpp says where the rest is).
#include "domains/ctde/director_impl.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>

#include "core/external_input.hpp"
#include "core/format.hpp"

namespace ctde {

// The firing path of the DE phase, inline here where it is called (director_impl.hpp says what each does).

__attribute__((always_inline)) inline void Director::Impl::prefetch_ahead() const {
  const std::span<const Event> h = scheduler_.pending();
  const std::size_t n = h.size();
  if (n <= 1) return;
  // The actor object's first four cache lines, whatever its layout: the vtable pointer is in
  // the first, and a subclass's own members begin within them (prefetching past an object's
  // end is harmless).
  const auto* actor = reinterpret_cast<const char*>(layout_.firing_table.at(h[0].depth()).actor());
  for (std::size_t line = 0; line < kPrefetchLines; ++line) __builtin_prefetch(actor + line * kCacheLine);
  if (n > EventQueue::kArity) {  // a full group of children (the common case), unrolled
    static_assert(EventQueue::kArity == 4);
    __builtin_prefetch(layout_.firing_table.address(h[1].depth()));
    __builtin_prefetch(layout_.firing_table.address(h[2].depth()));
    __builtin_prefetch(layout_.firing_table.address(h[3].depth()));
    __builtin_prefetch(layout_.firing_table.address(h[4].depth()));
    return;
  }
  for (std::size_t c = 1; c < n; ++c) __builtin_prefetch(layout_.firing_table.address(h[c].depth()));
}

__attribute__((always_inline)) inline void Director::Impl::fire(const DueActor& due, double t) {
  const ActorId a = due.actor;
  if (due.from_queue && layout_.prefetch_ahead)
    prefetch_ahead();  // the slot is open: the top is the next event
  const FiringEntry entry = layout_.firing_table.at(a);
  if (entry.plain()) {  // most firings in event-heavy models: fire() alone, never a state event
    fire_plain(a, entry.actor(), due.from_queue, t);
  } else {
    fire_flagged(a, due.from_queue, t);
  }
  scheduler_.end_firing();
}

__attribute__((always_inline)) inline void Director::Impl::fire_plain(ActorId a, const Actor* actor,
                                                                      bool time_event, double t) {
  if (time_event) {
    ++stats_.time_events;
    if (trace_ != nullptr) trace_->time_event(now_, flat(a).path);
  }
  FireContext context(b_, this, a, now_, t, time_event);
  guarded(a, [&] { actor->fire(context); });
}

RunResult Director::Impl::run() {
  if (!ended_) ended_ = go(stop_);  // a run goes on to its stop time unless it ends before
  return *ended_;
}

bool Director::Impl::advance_to(double time, Pause how) {
  const std::optional<Tick> at = resolution_.whole_ticks(time);
  if (!at || *at < (started_ ? now_.time : start_) || *at > stop_) {
    throw std::invalid_argument(
        "advance_to(" + format_double(time) +
        " s): expects a whole number of ticks from the run's current time to its stop "
        "time (" +
        format_double(resolution_.to_seconds(started_ ? now_.time : start_)) + " to " +
        format_double(resolution_.to_seconds(stop_)) + " s)");
  }
  if (ended_) return false;
  // Standing ahead, nothing due up to `at` and the solver's step past it:
  // the outputs there from the same step, as go() would find them.
  if (how == Pause::kAhead && continuous_.ahead() &&
      *at < scheduler_.next_time(run_limit(/*with_pause=*/false)) && !stop_requested_ &&
      continuous_.move_ahead(*at)) {
    pause_ = *at;
    return true;
  }
  pause_how_ = how;
  std::optional<RunResult> result = go(*at);
  pause_how_ = Pause::kExact;
  if (!result) return true;
  ended_ = std::move(result);
  return false;
}

std::optional<RunResult> Director::Impl::go(Tick pause) {
  if (ended_) return ended_;
  pause_ = pause;
  try {
    if (!started_) {
      started_ = true;
      if (trace_ != nullptr) {
        trace_->run_start({name_, to_string(options_.solver), options_.rtol, options_.atol,
                           options_.stop_time, options_.time_resolution});
      }
      if (resume_) {
        resume();  // after the events of the snapshot's tag: its rows were written by the run that took it
      } else {
        initialize();
        continuous_.start_guards();
        continuous_.record(now_);
        watch_events(EventSide::kBefore);  // the start values, before any event at the start
      }
    }
    went_from_ = now_.time;
    while (!stop_requested_) {
      if (layout_.lone_events) {  // pure DE: an event time with one plain firing is a pass of its own
        const LonePass pass = lone_event();
        if (pass == LonePass::kOver) break;
        if (pass == LonePass::kPaused) return std::nullopt;
        if (pass == LonePass::kDone) continue;
      }
      bool served = false;
      if (scheduler_.due_at(now_.time)) {
        continuous_.settle_ahead();  // an event where the run paused ahead (a new input)
        if (now_.microstep == 0 && now_.time != start_) watch_events(EventSide::kBefore);
        discrete_phase();
        if (progress_) progress_(resolution_.to_seconds(now_.time), stats_);
        if (stop_requested_) break;
        stop_if_asked();
        // A reset, or a jump in a continuous input (a hold, a step): the
        // solver's history (its FSAL derivative, its step size) is stale.
        if (changes_.states || changes_.continuous) continuous_.restart_solver();
        if (continuous_.after_events()) continue;  // the phase made guards cross: next microstep
        watch_events(EventSide::kAfter);
        served = true;
      }
      snapshot_if_due();
      if (now_.time >= stop_) break;
      if (now_.time >= pause_) return std::nullopt;  // after the events there, as a snapshot's place
      if (served && early_pause()) return std::nullopt;
      const Tick next = scheduler_.next_time(run_limit());
      // Pausing at next before any event: the solver may step on to that event.
      const bool ahead = pause_how_ == Pause::kAhead && next == pause_;
      continuous_.run_to(next, ahead ? scheduler_.next_time(run_limit(/*with_pause=*/false)) : next);
    }
    return finish(stop_requested_ ? RunStatus::kStopped : RunStatus::kOk, "", "");
  } catch (const Failure& f) {
    scheduler_.end_firing();  // an actor failed while its event was served
    return finish(RunStatus::kError, f.message, f.actor);
  } catch (const Interrupted&) {
    return finish(RunStatus::kInterrupted, "", "");
  }
}

void Director::Impl::set_input(const std::string& actor, std::span<const double> value) {
  if (!started_ || ended_ || now_.time != pause_)
    throw std::logic_error("Director::set_input: the run is not paused (advance_to() pauses it)");
  const ActorId d = input_actor(actor);
  const auto& input = dynamic_cast<const ExternalInput&>(*layout_.actors[d.index()]);
  if (!input.take(*b_.states[d.index()], value)) return;
  // The run stands after the events of its tag (t, n): the values given
  // here are taken at (t, n + 1), the run standing there, so that its DE
  // phase begins with them when it goes on.
  if (given_at_ != now_) {
    ++now_.microstep;
    given_at_ = now_;
  }
  scheduler_.fire_at(now_, d);
}

std::span<const double> Director::Impl::output_values(const std::string& port) const {
  const auto [actor, output] = find_port(port, /*input=*/false, "output_values");
  const SignalSlice slice = b_.outputs[b_.actors[model_[actor].depth.index()].output(output).index()];
  return {b_.signals.data() + slice.offset.index(), slice.width};
}

Director::JacobianSummary Director::Impl::jacobian_summary() const { return continuous_.jacobian_summary(); }

std::vector<double> Director::Impl::jacobian_at_start(bool finite_differences) {
  initialize();
  return continuous_.jacobian_at_start(finite_differences);
}

void Director::Impl::emit(ActorId actor, OutputPort output, std::span<const double> token) {
  const OutputId port = b_.actors[actor.index()].output(output.index);
  const SignalSlice value = b_.outputs[port.index()];
  if (token.size() != value.width) {
    throw std::logic_error(flat(actor).path + " sent a token of width " + std::to_string(token.size()) +
                           " on a port of width " + std::to_string(value.width));
  }
  if (token.data() != b_.signals.data() + value.offset.index()) {  // fire_function sends the output itself
    std::copy(token.begin(), token.end(), b_.signals.data() + value.offset.index());
  }
  ++stats_.events;
  rows_.token_sent(port, now_);
  if (trace_ != nullptr) {
    trace_->event(now_, flat(actor).path, flat(actor).actor->outputs()[output.index].name, token);
  }
  scheduler_.send(port, token);
}

void Director::Impl::fire_at(ActorId actor, Tick time) {
  if (time < now_.time) {
    throw std::logic_error(flat(actor).path + " asked to be fired in the past");
  }
  if (time > stop_) return;  // never reached
  const Tag tag = time == now_.time && initialized_ ? Tag{time, now_.microstep + 1} : Tag{time, 0};
  scheduler_.fire_at(tag, actor);
}

void Director::Impl::request_stop(ActorId actor) {
  stop_requested_ = true;
  stop_actor_ = actor;
}

void Director::Impl::mode_changed(ActorId actor, std::string_view from, std::string_view via,
                                  std::string_view to) {
  changes_.continuous = true;  // new derivatives: the solver's history is stale
  if (trace_ != nullptr) trace_->mode(now_, flat(actor).path, from, via, to);
}

void Director::Impl::trace_line(ActorId actor, std::string_view kind, std::span<const TraceField> fields) {
  if (is_director_trace_kind(kind)) {
    throw std::logic_error(flat(actor).path + ": an actor's trace line cannot be of the director's kind '" +
                           std::string(kind) + "'");
  }
  if (trace_ != nullptr) trace_->actor_line(now_, kind, flat(actor).path, fields);
}

void Director::Impl::states_changing(ActorId actor) {
  if (!initialized_ || (layout_.flags[actor.index()] & kStatesChanging) != 0) return;
  layout_.flags[actor.index()] |= kStatesChanging;
  const StateSlice slice = b_.actors[actor.index()].states;
  changes_.reset.push_back(
      {actor, std::vector<double>(b_.x + slice.offset.index(), b_.x + slice.offset.index() + slice.width)});
  changes_.states = true;
}

Director::Impl::Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace,
                     ResultsSink* results)
    : RunState(model, options, trace, results, *this), name_(std::move(name)) {
  for (const FlatActor& actor : model_.actors) actor.actor->check_time_resolution(resolution_);
  lay_out(continuous_);
  if (!options_.atol_per_state.empty() && options_.atol_per_state.size() != b_.x_storage.size()) {
    throw OptionError("atol", "director option 'atol' lists " +
                                  std::to_string(options_.atol_per_state.size()) +
                                  " tolerances but the model has " + std::to_string(b_.x_storage.size()) +
                                  " continuous states (give one number, or one per state in the order ctde "
                                  "validate prints)");
  }
}

void Director::Impl::initialize() {
  initialize_actors();
  initialized_ = true;
  start_solver(resolution_.to_seconds(start_));
}

void Director::Impl::start_solver(double t) {
  if (b_.x_storage.empty()) return;
  continuous_.check_states(t);
  try {
    continuous_.start_parts(ode_options(), t);
  } catch (const std::exception& e) {  // a Failure (an actor's) passes as it is
    throw Failure{std::string("the ODE solver could not start: ") + e.what(), ""};
  }
}

void Director::Impl::discrete_phase() {
  const double t = resolution_.to_seconds(now_.time);
  DiscreteScheduler& scheduler = scheduler_;
  while (true) {
    if (!scheduler.begin_microstep(now_)) return;
    if (now_.microstep >= static_cast<std::uint64_t>(options_.max_microsteps)) zeno(t);
    continuous_.begin_microstep();
    fire_due(t);
    if (!end_microstep(t)) return;
  }
}

void Director::Impl::fire_due(double t) {
  // Fire in depth order (the scheduler merges the time events of (t, n)
  // and the actors with tokens). A token sent to a deeper actor joins this
  // microstep; any other waits for the next one. A fire_at of the actor
  // being served takes its event's place (ServedEvent: one sift instead of
  // two). New events are all later than (t, n).
  DueActor due;
  while (scheduler_.next_due(now_, due)) fire(due, t);
}

bool Director::Impl::end_microstep(double t) {
  scheduler_.end_microstep();
  // What the firings changed is visible after microstep n: continuous
  // outputs are evaluated again, and a row records that side at (t, n+1).
  if (scheduler_.refresh_due()) evaluate_all(t);
  continuous_.record(Tag{now_.time, now_.microstep + 1});
  if (stop_requested_) return false;
  continuous_.end_microstep();
  // Nothing sent and nothing queued for the next microstep: the phase is over.
  if (!scheduler_.due_after(now_)) return false;
  stop_if_asked();  // a phase may go on for max_microsteps (up to 1e9)
  ++now_.microstep;
  return true;
}

Director::Impl::LonePass Director::Impl::lone_event() {
  DiscreteScheduler& scheduler = scheduler_;
  // The general pass (below, in run(): the phase, then what follows it) for
  // a phase at (t, 0) that starts with a plain firing of the queued event
  // there, without the steps a pure-DE model without step watchers skips
  // anyway (the watchers, the guards after events, the continuous phase,
  // which is a jump to the next event time).
  if (!scheduler.lone_event(now_)) return LonePass::kGeneral;
  const FiringEntry entry = layout_.firing_table.at(scheduler.top_actor());
  if (!entry.plain()) return LonePass::kGeneral;
  const double t = resolution_.to_seconds(now_.time);
  // The phase's first microstep, (t, 0), below max_microsteps (at least 1).
  continuous_.begin_microstep();
  const ActorId a = scheduler.serve_lone(now_);
  if (layout_.prefetch_ahead) prefetch_ahead();  // the slot is open: the top is the next event
  fire_plain(a, entry.actor(), true, t);
  scheduler.end_firing();
  if (scheduler.quiet_after(now_)) {
    // Nothing else is due at t: the microstep's end (end_microstep) with
    // what cannot apply left out: no guards in a pure-DE model, and a
    // stop request ends the phase here either way.
    scheduler.end_microstep();
    if (scheduler.refresh_due()) evaluate_all(t);
    continuous_.record(Tag{now_.time, 1});
  } else {
    fire_due(t);                             // anything its firing made due at (t, 0)
    if (end_microstep(t)) discrete_phase();  // the phase goes on at (t, 1)
  }
  if (progress_) progress_(t, stats_);
  if (stop_requested_) return LonePass::kOver;
  stop_if_asked();
  if (changes_.states || changes_.continuous) continuous_.restart_solver();
  snapshot_if_due();
  if (now_.time >= stop_) return LonePass::kOver;
  if (now_.time >= pause_ || early_pause()) return LonePass::kPaused;
  now_ = {scheduler.next_time(run_limit()), 0};
  return LonePass::kDone;
}

void Director::Impl::fire_flagged(ActorId a, bool from_queue, double t) {
  bool time_event = false;
  if (from_queue &&
      (layout_.flags[a.index()] & kStateEvent) == 0) {  // a state event was traced where it was located
    time_event = true;
    ++stats_.time_events;
    if (trace_ != nullptr) trace_->time_event(now_, flat(a).path);
  }
  const Flags flags = layout_.flags[a.index()];
  FireContext context(b_, this, a, now_, t, time_event);
  if ((flags & kSpecial) == 0) {
    guarded(a, [&] { layout_.actors[a.index()]->fire(context); });
  } else {
    fire_special(a, flags, context);
  }
  if ((flags & kStateEvent) != 0) {
    const GuardSlice guards = b_.actors[a.index()].guards;
    std::fill_n(b_.crossed.data() + guards.offset.index(), guards.width, std::uint8_t{0});
  }
  layout_.flags[a.index()] &= kStatesChanging | kFixedFlags;
}

void Director::Impl::fire_special(ActorId a, Flags flags, FireContext& context) {
  // The fixed point of the microstep: an output that an earlier firing
  // changed is evaluated again before anything reads it, so every reader at
  // this tag sees one value, however many actors it passes through (the
  // director alone refreshes continuous outputs).
  if ((flags & kInPart) != 0) continuous_.touch_part(a);
  if ((flags & kReadsTimed) != 0 && scheduler_.refresh_due()) evaluate_all(context.time());
  if ((flags & kFunction) != 0) {
    fire_function(a, context.time());
  } else {
    guarded(a, [&] { layout_.actors[a.index()]->fire(context); });
  }
  if ((flags & kDrivesContinuous) != 0) {
    changes_.continuous = true;
    scheduler_.outputs_changed();
  }
  continuous_.fired(a, flags);
}

void Director::Impl::fire_function(ActorId a, double t) {
  EvalContext context(b_, this, a, now_, t);
  guarded(a, [&] { layout_.actors[a.index()]->evaluate(context); });
  const std::size_t outputs = layout_.actors[a.index()]->outputs().size();
  for (std::size_t o = 0; o < outputs; ++o) emit(a, OutputPort{o}, context.output(OutputPort{o}));
}

void Director::Impl::zeno(double t) {
  const std::vector<ActorId> due = scheduler_.due(now_);
  std::string names;
  for (std::size_t i = 0; i < due.size() && i < 8; ++i) {
    names += (names.empty() ? "" : ", ") + flat(due[i]).path;
  }
  if (due.size() > 8) names += ", ...";
  throw Failure{"Zeno behaviour: more than max_microsteps (" + std::to_string(options_.max_microsteps) +
                    ") microsteps at t = " + format_double(t) + " s; still firing: " + names +
                    " (a zero-delay loop keeps sending tokens; add a TimeDelay with a positive "
                    "delay, or raise max_microsteps)",
                flat(due.front()).path};
}

RunResult Director::Impl::finish(RunStatus status, const std::string& message, const std::string& actor) {
  if (!b_.x_storage.empty()) continuous_.add_statistics(stats_);
  rows_.flush();
  RunResult result;
  result.status = status;
  result.tag = now_;
  result.time = resolution_.to_seconds(now_.time);
  result.stats = stats_;
  if (status == RunStatus::kStopped) result.actor = flat(stop_actor_).path;
  if (status == RunStatus::kError) {
    result.message = "at " + describe(now_, resolution_) + ": " + message;
    result.actor = actor;
    if (trace_ != nullptr) trace_->error(now_, "error", result.message, actor);
  }
  if (trace_ != nullptr) trace_->run_end(to_string(status), stats_);
  return result;
}

namespace {

/// `options`, once check() has passed them: options built in C++ skip
/// make_run_options, and nothing may run with bad ones.
const RunOptions& checked(const RunOptions& options) {
  check(options);
  return options;
}

}  // namespace

Director::Director(const FlatModel& model, const RunOptions& options, std::string model_name,
                   TraceWriter* trace, ResultsSink* results)
    : impl_(std::make_unique<Impl>(model, checked(options), std::move(model_name), trace, results)) {}

Director::~Director() = default;

Director::JacobianSummary Director::jacobian_summary() const { return impl_->jacobian_summary(); }

std::vector<double> Director::jacobian_at_start(bool finite_differences) {
  return impl_->jacobian_at_start(finite_differences);
}

Director::Linearization Director::linearize(const std::vector<std::string>& inputs,
                                            const std::vector<std::string>& outputs) {
  return impl_->linearize(inputs, outputs);
}

void Director::set_progress(ProgressCallback callback) { impl_->progress_ = std::move(callback); }
void Director::set_stop_check(StopCheck check) { impl_->stop_check_ = std::move(check); }

RunResult Director::run() { return impl_->run(); }
bool Director::advance_to(double time, Pause how) { return impl_->advance_to(time, how); }

void Director::return_at_events(bool on) { impl_->return_at_events(on); }

double Director::time() const { return impl_->time(); }
void Director::set_input(const std::string& actor, std::span<const double> value) {
  impl_->set_input(actor, value);
}
std::span<const double> Director::output_values(const std::string& port) const {
  return impl_->output_values(port);
}
RunSnapshot Director::snapshot() { return impl_->snapshot(); }

std::string Director::external_integration_problem() const { return impl_->external_integration_problem(); }
std::size_t Director::state_count() const { return impl_->state_count(); }
std::size_t Director::indicator_count() const { return impl_->indicator_count(); }
std::span<const double> Director::states() const { return impl_->states(); }
std::vector<std::string> Director::state_names() const { return impl_->state_names(); }
std::vector<std::string> Director::indicator_names() const { return impl_->indicator_names(); }
void Director::evaluate_at(double t, std::span<const double> x, std::span<double> dx, std::span<double> z) {
  impl_->evaluate_at(t, x, dx, z);
}
bool Director::step_completed(double t, std::span<const double> x) { return impl_->step_completed(t, x); }
bool Director::events_at(double t, std::span<const double> x) { return impl_->events_at(t, x); }
std::optional<double> Director::next_event_time() const { return impl_->next_event_time(); }
void Director::hold_input(const std::string& actor, std::span<const double> value) {
  impl_->hold_input(actor, value);
}

void Director::snapshot_at(double time, SnapshotWriter write) { impl_->snapshot_at(time, std::move(write)); }
void Director::set_checkpoints(std::function<bool()> due, SnapshotWriter write) {
  impl_->set_checkpoints(std::move(due), std::move(write));
}
ModelFingerprint Director::fingerprint() const { return impl_->fingerprint(); }
void Director::resume_from(RunSnapshot snapshot, bool parameters_may_differ) {
  impl_->resume_from(std::move(snapshot), parameters_may_differ);
}

}  // namespace ctde
