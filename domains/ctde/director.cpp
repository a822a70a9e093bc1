// The director: the run loop, the services actors call, the DE phase, rows
// and the run's end (director_impl.hpp lists the other parts).
#include "domains/ctde/director_impl.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "core/format.hpp"

namespace ctde {

RunResult Director::Impl::run() {
  if (trace_ != nullptr) {
    trace_->run_start({name_, to_string(options_.solver), options_.rtol, options_.atol, options_.stop_time,
                       options_.time_resolution});
  }
  try {
    initialize();
    start_guards();
    record(now_);
    while (!stop_requested_) {
      if ((!queue_.empty() && queue_.peek().time() == now_.time) || !fire_next_.empty()) {
        discrete_phase();
        if (progress_) progress_(resolution_.to_seconds(now_.time), stats_);
        if (stop_requested_) break;
        stop_if_asked();
        // A reset, or a jump in a continuous input (a hold, a step): the
        // solver's history (its FSAL derivative, its step size) is stale.
        if (states_changed_ || continuous_changed_) restart_solver();
        if (after_events()) continue;  // the phase made guards cross: next microstep
      }
      if (now_.time >= stop_) break;
      const Tick next = queue_.empty() ? stop_ : std::min(queue_.peek().time(), stop_);
      continuous_phase(next);
    }
    return finish(stop_requested_ ? RunStatus::kStopped : RunStatus::kOk, "", "");
  } catch (const Failure& f) {
    served_.end();  // an actor failed while its event was served
    return finish(RunStatus::kError, f.message, f.actor);
  } catch (const Interrupted&) {
    return finish(RunStatus::kInterrupted, "", "");
  }
}

void Director::Impl::emit(std::uint32_t actor, std::uint32_t output, std::span<const double> token) {
  const std::uint32_t port = b_.actors[actor].first_output + output;
  const Slice value = b_.outputs[port];
  if (token.size() != value.width) {
    throw std::logic_error(flat(actor).path + " sent a token of width " + std::to_string(token.size()) +
                           " on a port of width " + std::to_string(value.width));
  }
  if (token.data() != b_.signals.data() + value.offset) {  // fire_function sends the output itself
    std::copy(token.begin(), token.end(), b_.signals.begin() + value.offset);
  }
  ++stats_.events;
  if (!record_index_.empty() && record_index_[port] >= 0) {
    recorded_token_tag_[static_cast<std::size_t>(record_index_[port])] = {now_.time, now_.microstep + 1};
  }
  if (trace_ != nullptr) {
    trace_->event(now_, resolution_.to_seconds(now_.time), flat(actor).path,
                  flat(actor).actor->outputs()[output].name, token);
  }
  for (std::uint32_t r = b_.receivers_begin[port]; r < b_.receivers_begin[port + 1]; ++r) {
    const std::uint32_t input = b_.receivers[r];
    const Slice slot = b_.input_tokens[input];
    const std::uint32_t receiver = b_.input_owner[input];
    if (in_microstep_ && receiver > current_depth_) {  // fires later in this microstep
      std::copy(token.begin(), token.end(), b_.tokens_now.begin() + slot.offset);
      if (b_.present_now[input] == kAbsent) present_now_list_.push_back(input);
      b_.present_now[input] = kSentNow;
      schedule_now(receiver);
      continue;
    }
    std::copy(token.begin(), token.end(), b_.tokens_next.begin() + slot.offset);
    if (b_.present_next[input] == kAbsent) {
      b_.present_next[input] = kSentBefore;  // seen from the next microstep
      present_next_list_.push_back(input);
    }
    if ((flags_[receiver] & kScheduledNext) == 0) {
      flags_[receiver] |= kScheduledNext;
      fire_next_.push_back(receiver);
    }
  }
}

void Director::Impl::fire_at(std::uint32_t actor, Tick time) {
  if (time < now_.time) {
    throw std::logic_error(flat(actor).path + " asked to be fired in the past");
  }
  if (time > stop_) return;  // never reached
  const Tag tag = time == now_.time && initialized_ ? Tag{time, now_.microstep + 1} : Tag{time, 0};
  served_.schedule(Event::at(tag, actor));  // in the served event's place when it is held or open
}

void Director::Impl::request_stop(std::uint32_t actor) {
  stop_requested_ = true;
  stop_actor_ = actor;
}

void Director::Impl::mode_changed(std::uint32_t actor, std::string_view from, std::string_view via,
                                  std::string_view to) {
  continuous_changed_ = true;  // new derivatives: the solver's history is stale
  if (trace_ != nullptr)
    trace_->mode(now_, resolution_.to_seconds(now_.time), flat(actor).path, from, via, to);
}

void Director::Impl::states_changing(std::uint32_t actor) {
  if (!initialized_ || (flags_[actor] & kStatesChanging) != 0) return;
  flags_[actor] |= kStatesChanging;
  const Slice slice = b_.actors[actor].states;
  changed_.push_back({actor, std::vector<double>(b_.x + slice.offset, b_.x + slice.offset + slice.width)});
  states_changed_ = true;
}

void Director::Impl::initialize() {
  now_ = {start_, 0};
  const double t = resolution_.to_seconds(start_);
  for (std::uint32_t d = 0; d < actors_.size(); ++d) {
    guarded(d, [&] { b_.states[d] = actors_[d]->make_state(); });
    FireContext context(b_, this, d, now_, t);
    guarded(d, [&] { actors_[d]->initialize(context); });
  }
  evaluate(RhsProgram(RhsProgram::Part::kOutputs, at_start_, actors_, b_), t);
  // A constant's value is present on its discrete readers at every tag;
  // they fire once, at the start tag, when it appears (as for any input
  // that changes), and never again because of it.
  for (const auto& [input, value] : constant_inputs_) {
    const Slice slot = b_.input_tokens[input];
    for (auto* tokens : {&b_.tokens_now, &b_.tokens_next}) {
      std::copy_n(b_.signals.begin() + value.offset, value.width, tokens->begin() + slot.offset);
    }
    b_.present_now[input] = kConstantValue;
    b_.present_next[input] = kConstantValue;
    const std::uint32_t reader = b_.input_owner[input];
    if ((flags_[reader] & kScheduledNext) == 0) {
      flags_[reader] |= kScheduledNext;
      fire_next_.push_back(reader);
    }
  }
  initialized_ = true;
  if (!b_.x_storage.empty()) {
    check_states(t);
    OdeProblem problem;
    problem.size = b_.x_storage.size();
    problem.rhs = &Impl::rhs;
    problem.user = this;
    try {
      OdeOptions ode = make_ode_options(options_);
      if (ode.atol_per_state.empty()) {  // the actors may know their states' scales
        std::vector<double> atol(b_.x_storage.size(), options_.atol);
        bool changed = false;
        for (const std::uint32_t d : stateful_) {
          const Slice slice = b_.actors[d].states;
          const std::span<double> mine(atol.data() + slice.offset, slice.width);
          guarded(d, [&] { actors_[d]->state_tolerances(mine); });
          changed =
              changed || std::any_of(mine.begin(), mine.end(), [&](double v) { return v != options_.atol; });
        }
        for (const double v : atol) {
          if (!(v > 0) || !std::isfinite(v))
            throw Failure{"an actor gave a state tolerance of " + format_double(v), ""};
        }
        if (changed) ode.atol_per_state = std::move(atol);
      }
      if (std::isfinite(step_bound_))
        ode.max_step = std::min(ode.max_step.value_or(step_bound_), step_bound_);
      solver_.emplace(problem, ode, t, b_.x_storage);
    } catch (const std::exception& e) {
      throw Failure{std::string("the ODE solver could not start: ") + e.what(), ""};
    }
  }
}

void Director::Impl::record_values(double t, std::uint32_t microstep) {
  if (results_ == nullptr) return;
  const std::vector<RecordedSignal>& signals = results_->signals();
  results_->begin_row(t, microstep);
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const RecordedSignal& s = signals[i];
    const Slice slot = b_.outputs[b_.actors[model_.actors[s.actor].depth].first_output + s.port];
    const std::span<const double> value(b_.signals.data() + slot.offset, slot.width);
    // A discrete signal has a value only on the row after the microstep that sent it.
    const bool present =
        !s.discrete || (recorded_token_tag_[i] == Tag{now_.time, microstep} && microstep > 0);
    if (present) {
      results_->value(value);
    } else {
      results_->absent(s.width);
    }
  }
  results_->end_row();
}

void Director::Impl::discrete_phase() {
  const double t = resolution_.to_seconds(now_.time);
  while (true) {
    // Update: tokens sent to already-fired (or not deeper) actors at n-1
    // become visible at n.
    if (!present_now_list_.empty() || !present_next_list_.empty()) {
      for (const std::uint32_t p : present_now_list_) b_.present_now[p] = 0;
      present_now_list_.clear();
      std::swap(b_.present_now, b_.present_next);
      std::swap(b_.tokens_now, b_.tokens_next);
      std::swap(present_now_list_, present_next_list_);
    }
    for (const std::uint32_t a : fire_next_) {
      flags_[a] &= static_cast<Flags>(~kScheduledNext);
      schedule_now(a);
    }
    fire_next_.clear();
    const auto queued_now = [this] { return !queue_.empty() && queue_.peek().tag() == now_; };
    if (firing_.empty() && !queued_now()) return;
    if (now_.microstep >= static_cast<std::uint64_t>(options_.max_microsteps)) zeno(t);
    // Fire in depth order, merging two sorted sources: the time events of
    // (t, n) (the queue yields them by depth) and the actors with tokens (a
    // heap by depth). A token sent to a deeper actor joins this microstep;
    // any other waits for the next one. A fire_at of the actor being served
    // takes its event's place (ServedEvent: one sift instead of two). New
    // events are all later than (t, n).
    in_microstep_ = true;
    guards_current_ = false;
    bool fired = false;
    while (true) {
      const bool from_queue = queued_now();
      if (from_queue && fired && queue_.peek().depth() <= current_depth_) {
        queue_.pop();  // a twin of an event already served: the actor fired at this tag
        continue;
      }
      if (!from_queue && firing_.empty()) break;
      std::uint32_t a = 0;
      bool time_event = false;
      if (from_queue && (firing_.empty() || queue_.peek().depth() <= firing_.front())) {
        a = queue_.peek().depth();
        served_.begin();
        if (prefetch_ahead_) prefetch_ahead();  // the slot is open: the top is the next event
        if ((flags_[a] & kStateEvent) == 0) {   // a state event was traced where it was located
          time_event = true;
          ++stats_.time_events;
          if (trace_ != nullptr) trace_->time_event(now_, t, flat(a).path);
        }
        if (!firing_.empty() && firing_.front() == a) pop_firing();
      } else {
        a = pop_firing();
      }
      current_depth_ = a;
      fired = true;
      const Flags flags = flags_[a];
      FireContext context(b_, this, a, now_, t, time_event);
      if ((flags & kSpecial) == 0) {  // most firings in event-heavy models
        guarded(a, [&] { actors_[a]->fire(context); });
      } else {
        fire_special(a, flags, context);
      }
      if ((flags & kStateEvent) != 0) {
        const Slice guards = b_.actors[a].guards;
        std::fill_n(b_.crossed.begin() + guards.offset, guards.width, std::uint8_t{0});
      }
      flags_[a] &= kScheduledNext | kStatesChanging | kFixedFlags;
      served_.end();
    }
    in_microstep_ = false;
    // What the firings changed is visible after microstep n: continuous
    // outputs are evaluated again, and a row records that side at (t, n+1).
    if (stale_) {
      evaluate_all(t);
      stale_ = false;
    }
    record(Tag{now_.time, now_.microstep + 1});
    if (stop_requested_) return;
    if (guards_moved_ || !fired_generators_.empty()) microstep_crossings();
    // Nothing sent and nothing queued for the next microstep: the phase is over.
    if (fire_next_.empty() && present_next_list_.empty() &&
        (queue_.empty() || queue_.peek().tag() != Tag{now_.time, now_.microstep + 1})) {
      return;
    }
    stop_if_asked();  // a phase may go on for max_microsteps (up to 1e9)
    ++now_.microstep;
  }
}

void Director::Impl::fire_special(std::uint32_t a, Flags flags, FireContext& context) {
  // The fixed point of the microstep: an output that an earlier firing
  // changed is evaluated again before anything reads it, so every reader at
  // this tag sees one value, however many actors it passes through (the
  // director alone refreshes continuous outputs).
  if (stale_ && (flags & kReadsTimed) != 0) {
    evaluate_all(context.time());
    stale_ = false;
  }
  if ((flags & kFunction) != 0) {
    fire_function(a, context.time());
  } else {
    guarded(a, [&] { actors_[a]->fire(context); });
  }
  if ((flags & kDrivesContinuous) != 0) {
    continuous_changed_ = true;
    stale_ = true;
  }
  if ((flags & kMovesGuards) != 0) guards_moved_ = true;
  if ((flags & kGenerator) != 0) fired_generators_.push_back(a);
}

void Director::Impl::fire_function(std::uint32_t a, double t) {
  EvalContext context(b_, this, a, now_, t);
  guarded(a, [&] { actors_[a]->evaluate(context); });
  const std::size_t outputs = actors_[a]->outputs().size();
  for (std::size_t o = 0; o < outputs; ++o)
    emit(a, static_cast<std::uint32_t>(o), context.output(OutputPort{o}));
}

void Director::Impl::zeno(double t) {
  // The actors due at this microstep: the time event at the queue's top
  // and those with tokens, in depth order.
  std::vector<std::uint32_t> due(firing_.begin(), firing_.end());
  if (!queue_.empty() && queue_.peek().tag() == now_) due.push_back(queue_.peek().depth());
  std::sort(due.begin(), due.end());
  due.erase(std::unique(due.begin(), due.end()), due.end());
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
  if (solver_) {
    const OdeStatistics ode = solver_->statistics();
    stats_.steps = static_cast<std::uint64_t>(ode.steps);
    stats_.rejected_steps = static_cast<std::uint64_t>(ode.error_test_failures);
    stats_.rhs_evals = static_cast<std::uint64_t>(ode.rhs_evals) + extra_rhs_;
  }
  if (results_ != nullptr) results_->flush();
  RunResult result;
  result.status = status;
  result.tag = now_;
  result.time = resolution_.to_seconds(now_.time);
  result.stats = stats_;
  if (status == RunStatus::kStopped) result.actor = flat(stop_actor_).path;
  if (status == RunStatus::kError) {
    result.message = "at " + describe(now_, resolution_) + ": " + message;
    result.actor = actor;
    if (trace_ != nullptr) trace_->error(now_, result.time, "error", result.message, actor);
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

void Director::set_progress(ProgressCallback callback) { impl_->progress_ = std::move(callback); }
void Director::set_stop_check(StopCheck check) { impl_->stop_check_ = std::move(check); }

RunResult Director::run() { return impl_->run(); }

}  // namespace ctde
