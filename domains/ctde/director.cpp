#include "domains/ctde/director.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include <cmath>
#include <optional>
#include <utility>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/ct/guard_set.hpp"
#include "domains/ct/ode_solver.hpp"
#include "domains/ctde/rhs_program.hpp"
#include "domains/de/event_queue.hpp"

namespace ctde {

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kStopped:
      return "stopped";
    case RunStatus::kError:
      return "error";
  }
  return "?";
}

class Director::Impl final : public DirectorServices {
 public:
  Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace,
       Recorder* recorder)
      : model_(model),
        options_(options),
        name_(std::move(name)),
        trace_(trace),
        recorder_(recorder),
        resolution_(options.time_resolution),
        start_(resolution_.to_ticks(options.start_time)),
        stop_(resolution_.to_ticks(options.stop_time)) {
    lay_out();
    event_tolerance_ = options_.event_tolerance.value_or(0.0);
    if (!options_.atol_per_state.empty() && options_.atol_per_state.size() != b_.x_storage.size()) {
      throw ModelError("director option 'atol' lists " + std::to_string(options_.atol_per_state.size()) +
                       " tolerances but the model has " + std::to_string(b_.x_storage.size()) +
                       " continuous states (give one number, or one per state in the order ctde "
                       "validate prints)");
    }
  }

  ProgressCallback progress_;

  RunResult run() {
    if (trace_ != nullptr) {
      trace_->run_start({name_, to_string(options_.solver), options_.rtol, options_.atol, options_.stop_time,
                         options_.time_resolution});
    }
    try {
      initialize();
      start_guards();
      record(now_);
      while (!stop_requested_) {
        if (!queue_.empty() && queue_.peek().time() == now_.time) {
          discrete_phase();
          if (progress_) progress_(resolution_.to_seconds(now_.time), stats_);
          if (stop_requested_) break;
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
      if (queue_.has_open()) queue_.close_open();  // an actor failed while its event was served
      return finish(RunStatus::kError, f.message, f.actor);
    }
  }

  // ---- DirectorServices

  void emit(std::uint32_t actor, std::uint32_t output, std::span<const double> token) override {
    const std::uint32_t port = b_.actors[actor].first_output + output;
    const Slice value = b_.outputs[port];
    if (token.size() != value.width) {
      throw std::logic_error(flat(actor).path + " sent a token of width " + std::to_string(token.size()) +
                             " on a port of width " + std::to_string(value.width));
    }
    std::copy(token.begin(), token.end(), b_.signals.begin() + value.offset);
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
        if (b_.present_now[input] == 0) {
          b_.present_now[input] = 1;
          present_now_list_.push_back(input);
        }
        schedule_now(receiver);
        continue;
      }
      std::copy(token.begin(), token.end(), b_.tokens_next.begin() + slot.offset);
      if (b_.present_next[input] == 0) {
        b_.present_next[input] = 1;
        present_next_list_.push_back(input);
      }
      if ((flags_[receiver] & kScheduledNext) == 0) {
        flags_[receiver] |= kScheduledNext;
        fire_next_.push_back(receiver);
      }
    }
  }

  void fire_at(std::uint32_t actor, Tick time) override {
    if (time < now_.time) {
      throw std::logic_error(flat(actor).path + " asked to be fired in the past");
    }
    if (time > stop_) return;  // never reached
    const Tag tag = time == now_.time && initialized_ ? Tag{time, now_.microstep + 1} : Tag{time, 0};
    if (held_top_) {  // reuse the slot of the event that fired us: one sift instead of two
      held_top_ = false;
      queue_.replace_top(Event::at(tag, actor));
      return;
    }
    queue_.insert(Event::at(tag, actor));  // into the served event's open slot if it is still open
  }

  void request_stop(std::uint32_t actor) override {
    stop_requested_ = true;
    stop_actor_ = actor;
  }

  void mode_changed(std::uint32_t actor, std::string_view from, std::string_view via,
                    std::string_view to) override {
    continuous_changed_ = true;  // new derivatives: the solver's history is stale
    if (trace_ != nullptr) trace_->mode(now_, resolution_.to_seconds(now_.time), flat(actor).path, from, via, to);
  }

  void states_changing(std::uint32_t actor) override {
    if (!initialized_ || (flags_[actor] & kStatesChanging) != 0) return;
    flags_[actor] |= kStatesChanging;
    const Slice slice = b_.actors[actor].states;
    changed_.push_back({actor, std::vector<double>(b_.x + slice.offset, b_.x + slice.offset + slice.width)});
    states_changed_ = true;
  }

  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start_; }
  [[nodiscard]] Tick stop_tick() const override { return stop_; }

 private:
  struct Failure {
    std::string message;
    std::string actor;
  };

  /// Offsets of every port in the flat buffers. Inside the director an
  /// actor is known by its depth (its position in the topological order), so
  /// that the queue's events name their receiver and the firing loop walks
  /// arrays in order.
  void lay_out() {
    const auto n = static_cast<std::uint32_t>(model_.actors.size());
    by_depth_.resize(n);
    flags_.assign(n, 0);
    prefetch_ahead_ = n >= kPrefetchActors;
    for (std::uint32_t a = 0; a < n; ++a) by_depth_[model_.actors[a].depth] = a;
    actors_.resize(n);
    b_.actors.resize(n);
    std::uint32_t signal_size = 0;
    std::uint32_t state_size = 0;
    std::uint32_t token_size = 0;
    std::uint32_t inputs = 0;
    std::uint32_t outputs = 0;
    std::vector<Crossing> directions;
    for (std::uint32_t d = 0; d < n; ++d) {
      const FlatActor& actor = flat(d);
      actors_[d] = actor.actor;
      if (std::find(actor.output_kinds.begin(), actor.output_kinds.end(), PortKind::kContinuous) !=
          actor.output_kinds.end()) {
        flags_[d] = kDrivesContinuous;
      }
      const auto states = static_cast<std::uint32_t>(actor.actor->state_size());
      b_.actors[d].states = {state_size, states};
      const auto guards = static_cast<std::uint32_t>(actor.actor->guard_count());
      b_.actors[d].guards = {static_cast<std::uint32_t>(guard_owner_.size()), guards};
      if (guards > 0) generators_.push_back(d);
      for (std::uint32_t i = 0; i < guards; ++i) {
        guard_owner_.push_back(d);
        directions.push_back(actor.actor->guard_direction(i));
      }
      state_size += states;
      if (states > 0) stateful_.push_back(d);
      b_.actors[d].first_input = inputs;
      b_.actors[d].first_output = outputs;
      for (const int w : actor.output_widths) {
        b_.outputs.push_back({signal_size, static_cast<std::uint32_t>(w)});
        signal_size += static_cast<std::uint32_t>(w);
        ++outputs;
      }
      for (std::size_t i = 0; i < actor.input_widths.size(); ++i) {
        const auto w = static_cast<std::uint32_t>(actor.input_widths[i]);
        b_.input_tokens.push_back({token_size, w});
        b_.input_owner.push_back(d);
        token_size += w;
        ++inputs;
      }
    }
    // Unconnected inputs read a slice of zeros at the end of the signals.
    std::uint32_t widest = 1;
    for (const Slice& s : b_.input_tokens) widest = std::max(widest, s.width);
    const std::uint32_t zeros = signal_size;
    signal_size += widest;
    b_.signals.assign(signal_size, 0.0);
    for (const Slice& s : b_.outputs) widest = std::max(widest, s.width);
    b_.scratch.assign(widest, 0.0);
    b_.inputs.resize(inputs);
    std::vector<std::vector<std::uint32_t>> receivers(outputs);
    for (std::uint32_t d = 0; d < n; ++d) {
      const FlatActor& actor = flat(d);
      for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
        const std::uint32_t input = b_.actors[d].first_input + static_cast<std::uint32_t>(i);
        if (!actor.drivers[i]) {
          b_.inputs[input] = {zeros, static_cast<std::uint32_t>(actor.input_widths[i])};
          continue;
        }
        const std::uint32_t driver = model_.actors[actor.drivers[i]->actor].depth;
        const std::uint32_t output = b_.actors[driver].first_output + actor.drivers[i]->port;
        b_.inputs[input] = b_.outputs[output];
        if (actor.input_kinds[i] == PortKind::kDiscrete) receivers[output].push_back(input);
      }
    }
    b_.receivers_begin.assign(1, 0);
    for (const auto& list : receivers) {
      b_.receivers.insert(b_.receivers.end(), list.begin(), list.end());
      b_.receivers_begin.push_back(static_cast<std::uint32_t>(b_.receivers.size()));
    }
    b_.tokens_now.assign(token_size, 0.0);
    b_.tokens_next.assign(token_size, 0.0);
    b_.present_now.assign(inputs, 0);
    b_.present_next.assign(inputs, 0);
    b_.states.resize(n);
    b_.x_storage.assign(state_size, 0.0);
    b_.x = b_.x_storage.data();
    dense_.assign(state_size, 0.0);
    const std::size_t guard_total = guard_owner_.size();
    guards_ = GuardSet(std::move(directions));
    b_.crossed.assign(guard_total, 0);
    for (auto* g : {&g_start_, &g_end_, &g_a_, &g_b_, &g_trial_, &g_before_, &g_mid_}) g->assign(guard_total, 0.0);
    fired_.assign(guard_total, Crossing::kNone);
    last_fired_.assign(guard_total, kNever);
    close_events_.assign(guard_total, 0);
    if (guard_total > 0) {
      probe_x_.assign(state_size, 0.0);
      probe_dx_.assign(state_size, 0.0);
      cubic_f0_.assign(state_size, 0.0);
      cubic_f1_.assign(state_size, 0.0);
    }
    schedule_guards_and_outputs();
    outputs_ = RhsProgram(RhsProgram::Part::kOutputs, continuous_, actors_, b_);
    rhs_outputs_ = RhsProgram(RhsProgram::Part::kOutputs, rhs_inputs_, actors_, b_);
    guard_outputs_ = RhsProgram(RhsProgram::Part::kOutputs, guard_inputs_, actors_, b_);
    derivatives_ = RhsProgram(RhsProgram::Part::kDerivatives, stateful_, actors_, b_);
    if (recorder_ != nullptr) {
      record_index_.assign(outputs, -1);
      recorded_token_tag_.assign(recorder_->signals().size(), Tag{kNever, 0});
      for (std::size_t i = 0; i < recorder_->signals().size(); ++i) {
        const RecordedSignal& s = recorder_->signals()[i];
        const std::uint32_t port = b_.actors[model_.actors[s.actor].depth].first_output + s.port;
        record_index_[port] = static_cast<int>(i);
      }
    }
  }

  [[nodiscard]] const FlatActor& flat(std::uint32_t d) const { return model_.actors[by_depth_[d]]; }

  /// The evaluation lists, each in schedule order: every continuous and
  /// constant actor (at_start_, once); those whose outputs change with time
  /// (continuous_: at step ends, output_interval points and after events; a
  /// constant's outputs never change, an actor without continuous outputs
  /// has nothing to evaluate); those the derivatives read (rhs_inputs_: the
  /// RHS evaluates only these, not outputs that only the results or discrete
  /// actors read); and those the guards read (guard_inputs_: a state-event
  /// search evaluates only these at its trial times).
  void schedule_guards_and_outputs() {
    const auto n = static_cast<std::uint32_t>(actors_.size());
    std::vector<std::uint8_t> timed(n, 0);
    for (const std::uint32_t a : model_.continuous_schedule) {
      const FlatActor& actor = model_.actors[a];
      at_start_.push_back(actor.depth);
      if (actor.mode == TimeMode::kConstant || (flags_[actor.depth] & kDrivesContinuous) == 0) continue;
      continuous_.push_back(actor.depth);
      timed[actor.depth] = 1;
    }
    rhs_inputs_ = upstream(stateful_, timed, /*with_seeds=*/false);
    guard_inputs_ = upstream(generators_, timed, /*with_seeds=*/true);
  }

  /// The actors of continuous_ (flagged in `timed`) whose outputs `seeds`
  /// read: the drivers of the seeds' inputs and, upstream of those, drivers
  /// of inputs that feed an output through (an output that depends on states
  /// only ends the walk). With `with_seeds`, the seeds too. Schedule order.
  [[nodiscard]] std::vector<std::uint32_t> upstream(const std::vector<std::uint32_t>& seeds,
                                                    const std::vector<std::uint8_t>& timed, bool with_seeds) const {
    std::vector<std::uint8_t> reached(actors_.size(), 0);
    std::vector<std::uint32_t> work;
    // Every input of a seed, then inputs that feed a reached output through.
    const auto walk = [&](std::uint32_t d, bool all_inputs) {
      const FlatActor& actor = flat(d);
      for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
        if (!actor.drivers[i] || (!all_inputs && !actor.actor->feeds_through(i))) continue;
        const std::uint32_t u = model_.actors[actor.drivers[i]->actor].depth;
        if (timed[u] == 0 || reached[u] != 0) continue;
        reached[u] = 1;
        work.push_back(u);
      }
    };
    for (const std::uint32_t d : seeds) walk(d, /*all_inputs=*/true);
    while (!work.empty()) {
      const std::uint32_t d = work.back();
      work.pop_back();
      walk(d, /*all_inputs=*/false);
    }
    if (with_seeds) {
      for (const std::uint32_t d : seeds) reached[d] = 1;
    }
    std::vector<std::uint32_t> list;
    for (const std::uint32_t d : continuous_) {
      if (reached[d] != 0) list.push_back(d);
    }
    return list;
  }

  void initialize() {
    now_ = {start_, 0};
    const double t = resolution_.to_seconds(start_);
    for (std::uint32_t d = 0; d < actors_.size(); ++d) {
      guarded(d, [&] { b_.states[d] = actors_[d]->make_state(); });
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->initialize(context); });
    }
    evaluate(RhsProgram(RhsProgram::Part::kOutputs, at_start_, actors_, b_), t);
    initialized_ = true;
    if (!b_.x_storage.empty()) {
      check_states(t);
      OdeProblem problem;
      problem.size = b_.x_storage.size();
      problem.rhs = &Impl::rhs;
      problem.user = this;
      try {
        solver_.emplace(problem, make_ode_options(options_), t, b_.x_storage);
      } catch (const std::exception& e) {
        throw Failure{std::string("the ODE solver could not start: ") + e.what(), ""};
      }
    }
  }

  /// Every output that changes with time, at time t, in schedule order.
  void evaluate_all(double t) { evaluate(outputs_, t); }

  /// The outputs `program` computes, at time t.
  void evaluate(const RhsProgram& program, double t) {
    program.run_outputs(b_, [&](std::uint32_t d) {
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->evaluate(context); });
    });
  }

  /// The right-hand side for the solver: outputs in schedule order, then
  /// each stateful actor's derivatives. No allocation.
  static int rhs(double t, const double* x, double* dxdt, void* user) {
    auto& self = *static_cast<Impl*>(user);
    self.b_.x = const_cast<double*>(x);  // read only: actors get states() as const
    self.evaluate(self.rhs_outputs_, t);
    self.derivatives_.run_derivatives(self.b_, dxdt, [&](std::uint32_t d) {
      const Slice slice = self.b_.actors[d].states;
      const std::span<double> dx(dxdt + slice.offset, slice.width);
      ActorContext context(self.b_, &self, d, self.now_, t);
      self.guarded(d, [&] { self.actors_[d]->derivatives(context, dx); });
    });
    self.b_.x = self.b_.x_storage.data();
    const std::size_t n = self.b_.x_storage.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (!std::isfinite(dxdt[k])) self.non_finite_derivative(t, k, dxdt[k]);
    }
    return 0;
  }

  /// Stops the run: the derivative of state `k` is `v` (NaN or infinite) at t.
  [[noreturn]] void non_finite_derivative(double t, std::size_t k, double v) const {
    std::uint32_t owner = stateful_.front();
    for (const std::uint32_t d : stateful_) {
      if (b_.actors[d].states.offset <= k) owner = d;
    }
    throw Failure{flat(owner).path + ": a derivative is " + format_double(v) + " at t = " + format_double(t) + " s",
                  flat(owner).path};
  }

  /// The initial states must be finite.
  void check_states(double t) {
    for (const std::uint32_t d : stateful_) {
      const Slice slice = b_.actors[d].states;
      for (std::uint32_t i = 0; i < slice.width; ++i) {
        if (!std::isfinite(b_.x[slice.offset + i])) {
          throw Failure{flat(d).path + ": a continuous state is " + format_double(b_.x[slice.offset + i]) +
                            " at t = " + format_double(t) + " s",
                        flat(d).path};
        }
      }
    }
  }

  /// Integrates from now to `next` (ticks), one solver step at a time; the
  /// solver's stop time makes it land on `next` exactly. Records a row at
  /// each step end and at each output_interval point inside the step. A
  /// state event located inside ends the phase early, at the event (now_
  /// is then (te, 0) and the generators' firings are queued there).
  void continuous_phase(Tick next) {
    if (!solver_ && continuous_.empty() && recorder_ == nullptr && generators_.empty()) {  // pure DE
      now_ = {next, 0};
      return;
    }
    const double t_next = resolution_.to_seconds(next);
    double t0 = solver_ ? solver_->current_time() : resolution_.to_seconds(now_.time);
    planned_step_ = 0;  // a plan for a restart after the last event that did not restart
    while (t0 < t_next) {
      double t1 = t_next;
      if (solver_) {  // one step; without states, time just advances
        const StepResult r = step_solver(t_next);
        if (!r.ok()) {
          throw Failure{std::string("the ODE solver failed (") + ctde::to_string(r.status) + "): " + r.message,
                        ""};
        }
        t1 = r.t_reached;
        load_solver_state();
      }
      evaluate_all(t1);
      const std::optional<Tick> event = generators_.empty() ? std::nullopt : check_step(t0, t1);
      if (!std::exchange(interval_rows_done_, false)) record_interval_points(t0, t1, /*dense=*/solver_.has_value());
      if (event) {
        now_ = {*event, 0};
        record(now_);
        return;
      }
      const Tick previous = now_.time;
      now_ = {t1 >= t_next ? next : resolution_.to_ticks(t1), 0};
      if (t1 < t_next && now_.time >= next) {
        throw Failure{
            "the solver's step ended within one tick of the next event; the time "
            "resolution is too coarse for this model",
            ""};
      }
      // A row per step end, but one per tick: a step shorter than a tick
      // (the first after a restart may be) leaves no row of its own.
      if (t1 < t_next && now_.time > previous) record(now_);
      if (progress_) progress_(t1, stats_);
      t0 = t1;
    }
    now_ = {next, 0};
    record(now_);
  }

  /// x <- the solver's state at its current time.
  void load_solver_state() {
    const auto x = solver_->state();
    std::copy(x.begin(), x.end(), b_.x_storage.begin());
    b_.x = b_.x_storage.data();
  }

  // ---- State events (ARCHITECTURE.md, "The director"; docs/semantics.md)

  /// Every generator's guards at time t, from the outputs as they are now
  /// (evaluate_all(t) first). A NaN or infinite guard stops the run.
  void evaluate_guards(double t, std::span<double> g) {
    for (const std::uint32_t d : generators_) {
      const Slice slice = b_.actors[d].guards;
      const std::span<double> out = g.subspan(slice.offset, slice.width);
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->guards(context, out); });
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (!std::isfinite(out[i])) {
          throw Failure{flat(d).path + ": guard " + guard_label(slice.offset + static_cast<std::uint32_t>(i)) +
                            " is " + format_double(out[i]) + " at t = " + format_double(t) + " s",
                        flat(d).path};
        }
      }
    }
  }

  /// The guards at time t inside the last step, from the solver's dense
  /// output (or exactly, without continuous states). For GuardSet::locate.
  static void guards_inside_step(void* user, double t, std::span<double> g) {
    auto& self = *static_cast<Impl*>(user);
    if (!self.solver_) {
      self.guards_at(t, self.b_.x_storage.data(), g);
      return;
    }
    self.solver_->dense_output(t, self.dense_.data());
    self.guards_at(t, self.dense_.data(), g);
  }

  /// The guards at time t for the states `x` (the actors they read evaluated
  /// there); x is the run's state again afterwards.
  void guards_at(double t, const double* x, std::span<double> g) {
    b_.x = const_cast<double*>(x);  // read only: actors get states() as const
    evaluate(guard_outputs_, t);
    evaluate_guards(t, g);
    b_.x = b_.x_storage.data();
  }

  /// The guards at time t inside the last step [t0, t1], from the cubic
  /// Hermite interpolant of the states and derivatives at its ends (see
  /// locate(); prepare_cubic() first). No RHS evaluation, no allocation.
  static void guards_on_cubic(void* user, double t, std::span<double> g) {
    auto& self = *static_cast<Impl*>(user);
    const double t0 = self.solver_->last_step_start();
    const double h = self.solver_->last_step_end() - t0;
    const double s = (t - t0) / h;
    const double r = 1 - s;
    const double c0 = (1 + 2 * s) * r * r;
    const double d0 = h * s * r * r;
    const double c1 = s * s * (3 - 2 * s);
    const double d1 = -h * s * s * r;
    const std::span<const double> x0 = self.solver_->last_step_start_state();
    const std::span<const double> x1 = self.solver_->state();
    for (std::size_t k = 0; k < x0.size(); ++k) {
      self.dense_[k] = c0 * x0[k] + d0 * self.cubic_f0_[k] + c1 * x1[k] + d1 * self.cubic_f1_[k];
    }
    self.guards_at(t, self.dense_.data(), g);
  }

  /// The derivatives at both ends of the last step, for guards_on_cubic.
  void prepare_cubic() {
    const std::span<const double> x0 = solver_->last_step_start_state();
    rhs(solver_->last_step_start(), x0.data(), cubic_f0_.data(), this);
    rhs(solver_->last_step_end(), solver_->state().data(), cubic_f1_.data(), this);
    extra_rhs_ += 2;
  }

  /// The earliest event crossing in the step [t0, t1] (an event crossing at
  /// t1, the guards' values there in g_end_) is found in two passes: the Illinois
  /// search on a cubic Hermite interpolant of the step (two RHS evaluations
  /// for the derivatives at its ends, none per trial), then a check of the
  /// bracket it found on the solver's own dense output (ARKODE's Hermite of
  /// degree q - 1, one RHS evaluation per call): when the bracket holds
  /// there, it is the answer; otherwise the search goes on, on the dense
  /// output, from that side of the bracket (the two interpolants differ by
  /// the cubic's error, so the crossing is near). Leaves g_a_, g_b_ at the
  /// final bracket's ends.
  ///
  /// search() is the first pass over [t0, t1] (values g0 at t0; exactly, on
  /// the guards themselves, without continuous states), polish() the second.
  LocatedCrossing search(double t0, double t1, std::span<const double> g0, double tolerance) {
    const double tick = resolution_.seconds_per_tick();
    std::copy(g0.begin(), g0.end(), g_a_.begin());
    std::copy(g_end_.begin(), g_end_.end(), g_b_.begin());
    if (!solver_) return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &Impl::guards_inside_step, this);
    if (t0 == solver_->last_step_start()) prepare_cubic();
    return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &Impl::guards_on_cubic, this);
  }

  LocatedCrossing polish(LocatedCrossing found, double t0, double t1, std::span<const double> g0,
                         double tolerance) {
    const double tick = resolution_.seconds_per_tick();
    // The bracket on the dense output (its ends at t0 and t1 are exact).
    if (found.ta > t0) guards_inside_step(this, found.ta, g_a_);
    else std::copy(g0.begin(), g0.end(), g_a_.begin());
    if (found.tb < t1) guards_inside_step(this, found.tb, g_b_);
    else std::copy(g_end_.begin(), g_end_.end(), g_b_.begin());
    found.iterations += (found.ta > t0 ? 1 : 0) + (found.tb < t1 ? 1 : 0);
    const bool before = !guards_.any_event(g_a_);
    const bool after = guards_.any_event(g_b_);
    if (before && after) return found;
    // The interpolants disagree near the crossing (by the cubic's error, or
    // by roundoff at a one-tick bracket): walk from the failed end away from
    // it, 1, 2, 4, ... ticks, to a bracket on the dense output, and search it.
    const bool later = before;  // else crossed already at ta: look earlier (the earliest crossing wins)
    double near = later ? found.tb : found.ta;   // the end on the wrong side
    std::span<double> g_near = later ? std::span<double>(g_b_) : std::span<double>(g_a_);
    std::span<double> g_far = later ? std::span<double>(g_a_) : std::span<double>(g_b_);
    std::copy(g_near.begin(), g_near.end(), g_far.begin());
    double far = near;
    for (double step = tick;; step *= 2) {
      far = later ? std::min(near + step, t1) : std::max(near - step, t0);
      if (far == (later ? t1 : t0)) {
        const std::span<const double> exact = later ? std::span<const double>(g_end_) : g0;
        std::copy(exact.begin(), exact.end(), g_near.begin());
      } else {
        guards_inside_step(this, far, g_near);
        ++found.iterations;
      }
      if (guards_.any_event(g_near) == later) break;  // the crossing is between near and far
      near = far;
      std::copy(g_near.begin(), g_near.end(), g_far.begin());
    }
    const double ta = later ? near : far;  // g_a_ holds the values at ta, g_b_ at tb
    const double tb = later ? far : near;
    const LocatedCrossing again =
        guards_.locate(ta, tb, g_a_, g_b_, g_trial_, tick, tolerance, &Impl::guards_inside_step, this);
    return {again.ta, again.tb, found.iterations + again.iterations};
  }

  /// See check_step: guards with a shifted level crossing it at `found`,
  /// beyond zero on their side at the midpoint tm of [t0, found.tb] (values
  /// left in g_mid_), take level 0 again. Returns true when one did.
  bool rearm_shifted_guards(double t0, const LocatedCrossing& found) {
    bool probed = false;
    bool rearmed = false;
    for (std::size_t i = 0; i < g_b_.size(); ++i) {
      if (guards_.level(i) == 0.0 || guards_.event(i, g_b_[i]) == Crossing::kNone) continue;
      if (!probed) {
        guards_on_cubic(this, 0.5 * (t0 + found.tb), g_mid_);
        probed = true;
      }
      if (guards_.rearm(i, g_mid_[i])) rearmed = true;
    }
    return rearmed;
  }

  /// "0", or the guard's name when its actor gives one.
  [[nodiscard]] std::string guard_label(std::uint32_t guard) const {
    const std::uint32_t d = guard_owner_[guard];
    const std::size_t index = guard - b_.actors[d].guards.offset;
    std::string name = actors_[d]->guard_name(index);
    return name.empty() ? std::to_string(index) : "'" + name + "'";
  }

  /// After the tentative step [t0, t1] (state and outputs at t1): accepts it
  /// when no guard crossed; otherwise locates the earliest crossing te on the
  /// dense output and ends the step there: the solver rolls back to te on
  /// its dense output (GetDky + Reset), or, with event_state "integrated",
  /// integrates [t0, te] again, asking again until the crossing is at the
  /// step's end. Returns the event's tick, with the solver, x and outputs at
  /// te; or nothing, the step (perhaps shortened to t1) accepted.
  std::optional<Tick> check_step(double t0, double& t1) {
    evaluate_guards(t1, g_end_);
    if (!guards_.any_event(g_end_)) {
      accept_guards();
      return std::nullopt;
    }
    if (options_.events == EventMode::kNone) {  // checked at step ends only, no location
      const Tick te = std::max(resolution_.to_ticks(t1), now_.time + 1);
      fire_state_events(te, resolution_.to_seconds(te), {t0, t1, 0}, t1);
      return te;
    }
    const double rejected_t1 = t1;
    const double planned = solver_ ? solver_->planned_step() : 0.0;
    int iterations = 0;
    for (int round = 0;; ++round) {
      if (round > kMaxLocationRounds) {
        throw Failure{"the state-event search did not settle between t = " + format_double(t0) + " and " +
                          format_double(t1) + " s (the guards disagree with the solver's steps)",
                      ""};
      }
      // A guard crossing again in the step that starts at its own last event
      // is searched to one tick, so that chattering shows as such.
      double tolerance = event_tolerance_;
      for (std::size_t i = 0; i < g_end_.size(); ++i) {
        if (last_fired_[i] == now_.time && guards_.event(i, g_end_[i]) != Crossing::kNone) tolerance = 0;
      }
      LocatedCrossing found = search(t0, t1, g_start_, tolerance);
      // A guard armed at a shifted level (resting just past zero after its
      // event) whose first crossing in this step is of that level: if it was
      // beyond zero halfway there (a bounce, not a rest: with long steps no
      // step end in between saw it), its level is 0 again, and the search
      // goes on from that point. No other guard crosses before it.
      double ts = t0;
      std::span<const double> gs = g_start_;
      if (solver_ && rearm_shifted_guards(t0, found)) {
        ts = 0.5 * (t0 + found.tb);
        gs = g_mid_;
        const LocatedCrossing again = search(ts, t1, gs, tolerance);
        found = {again.ta, again.tb, found.iterations + again.iterations};
      }
      if (solver_) found = polish(found, ts, t1, gs, tolerance);
      iterations += found.iterations;
      if (trace_ != nullptr) trace_->step_reject(t0, t1, flat(first_event_owner(g_b_)).path);
      const Tick te = event_tick(found);
      const double te_s = resolution_.to_seconds(te);
      if (te_s == t1) {
        evaluate_all(t1);  // the search left the outputs at its last trial time
        fire_state_events(te, te_s, found, rejected_t1, iterations);
        return te;
      }
      // The interpolant's roundoff is a few ulps of the states over the whole
      // step: a crossing very early in a long step (a ball coming to rest,
      // flights of 1e-8 s in steps of 0.5 s) is integrated again instead.
      const bool integrate = options_.event_state == EventState::kIntegrated ||
                             te_s - t0 < kShortCut * (t1 - t0);
      if (solver_ && integrate) {  // integrate [t0, te] again: x(te) is a step's end
        solver_->redo_to(t0);
        const StepResult r = step_solver(te_s);
        if (!r.ok()) {
          throw Failure{std::string("the ODE solver failed redoing a step to a state event (") +
                            ctde::to_string(r.status) + "): " + r.message,
                        ""};
        }
        t1 = r.t_reached;
        ++iterations;
      } else {  // cut the step at te: x(te) from the dense output
        if (solver_) {
          record_interval_points(t0, te_s, /*dense=*/true);  // while the interpolant is there
          interval_rows_done_ = true;
          solver_->redo_to(te_s);
          // The step after the event: as planned before the cut, but at most
          // four times the part of the step before the event (how far apart the
          // events are): the interpolant's roundoff grows with the step's
          // span, and a step much longer than the events' spacing would
          // only be cut again.
          planned_step_ = std::min(planned, 4 * (te_s - t0));
        }
        t1 = te_s;
      }
      if (solver_) load_solver_state();
      evaluate_all(t1);
      evaluate_guards(t1, g_end_);
      if (!guards_.any_event(g_end_)) {
        if (t1 == te_s && (te == now_.time + 1 || !OdeSolver::resolves(t0, te_s))) {
          // The crossing is within a tick of the step's start, or closer to
          // it than the solver can integrate (a tick is a few ulps of t late
          // in a long run): the states cannot be told apart, and it fires
          // here, as the search found it.
          std::copy(g_b_.begin(), g_b_.end(), g_end_.begin());
          fire_state_events(te, te_s, found, rejected_t1, iterations);
          return te;
        }
        accept_guards();  // the crossing is later (by a few ulps of the interpolant): take [t0, t1]
        planned_step_ = 0;  // no event: no restart
        return std::nullopt;
      }
      if (t1 != te_s) continue;  // a shorter redone step that crossed already: search it
      fire_state_events(te, te_s, found, rejected_t1, iterations);
      return te;
    }
  }

  /// The event's time in ticks: the first tick at which the guards have
  /// crossed. The nearest tick to tb when the dense output shows a crossing
  /// there, else the next one; always after the step's start tag.
  Tick event_tick(const LocatedCrossing& found) {
    Tick te = resolution_.to_ticks(found.tb);
    const double at = resolution_.to_seconds(te);
    if (at < found.tb) {
      bool crossed = false;
      if (at > found.ta) {
        guards_inside_step(this, at, g_trial_);
        crossed = guards_.any_event(g_trial_);
      }
      if (!crossed) ++te;
    }
    return std::max(te, now_.time + 1);
  }

  /// The shallowest actor owning a guard with an event crossing at `g`.
  [[nodiscard]] std::uint32_t first_event_owner(std::span<const double> g) const {
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (guards_.event(i, g[i]) != Crossing::kNone) return guard_owner_[i];
    }
    return guard_owner_.front();
  }

  /// The step's end is accepted: every guard takes its side there.
  void accept_guards() {
    guards_.commit(g_end_);
    std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
  }

  /// Queues the generators whose guards cross at g_end_ to fire at (te, 0)
  /// (or, for crossings made by a DE phase, at (te, n+1)), with their
  /// crossings visible to fire() through context.crossing(i).
  void fire_state_events(Tick te, double te_s, const LocatedCrossing& found, double rejected_t1,
                         int iterations = 0) {
    const Tag tag = te == now_.time ? Tag{te, now_.microstep + 1} : Tag{te, 0};
    for (std::size_t i = 0; i < g_end_.size(); ++i) {
      const Crossing c = guards_.event(i, g_end_[i]);
      if (c == Crossing::kNone) continue;
      const std::uint32_t d = guard_owner_[i];
      check_chattering(static_cast<std::uint32_t>(i), te);
      b_.crossed[i] = static_cast<std::uint8_t>(c);
      fired_[i] = c;
      g_before_[i] = g_end_[i];
      ++stats_.state_events;
      if (trace_ != nullptr) {
        const std::size_t index = i - b_.actors[d].guards.offset;
        const std::string name = actors_[d]->guard_name(index);
        trace_->state_event(tag, te_s,
                            {flat(d).path, name, index, to_string(c), found.tb - found.ta,
                             g_end_[i] - guards_.level(i), iterations, rejected_t1});
      }
      if ((flags_[d] & kStateEvent) == 0) {
        flags_[d] |= kStateEvent;
        queue_.insert(Event::at(tag, d));
      }
    }
  }

  /// Events of one guard that time cannot resolve stop the run: a crossing
  /// again within one tick of its last event (chattering: the event does not
  /// move the guard away from zero), or kZenoEvents events in a row each
  /// within kZenoTicks of the one before (an accumulation of events, as a
  /// bouncing ball coming to rest: Zeno behaviour).
  void check_chattering(std::uint32_t guard, Tick te) {
    const Tick last = last_fired_[guard];
    last_fired_[guard] = te;
    if (last == kNever) return;
    const Tick interval = te - last;
    close_events_[guard] = interval <= kZenoTicks ? close_events_[guard] + 1 : 0;
    if (interval > 1 && close_events_[guard] < kZenoEvents) return;
    const std::uint32_t d = guard_owner_[guard];
    const std::string who = flat(d).path + " (" + actors_[d]->type() + "), guard " + guard_label(guard);
    const std::string when = "t = " + format_double(resolution_.to_seconds(last)) + " s";
    if (interval <= 1) {
      throw Failure{"chattering: " + who + " crossed again at once after its event at " + when +
                        " (the event does not move the guard away from zero, so it would fire "
                        "forever at this time)",
                    flat(d).path};
    }
    throw Failure{"Zeno behaviour: " + who + " fired " + std::to_string(kZenoEvents + 1) +
                      " times in a row at most " + std::to_string(kZenoTicks) +
                      " ticks apart, the last two at " + when + " and t = " +
                      format_double(resolution_.to_seconds(te)) + " s" +
                      "; its events accumulate here, and the model does not say what happens after "
                      "(stop the run before this time, or model the resting state, e.g. with a mode)",
                  flat(d).path};
  }

  /// At the start time: each guard's side.
  void start_guards() {
    if (generators_.empty()) return;
    evaluate_guards(resolution_.to_seconds(now_.time), g_start_);
    guards_.start(g_start_);
  }

  /// After a DE phase at now_: guards that fired settle (GuardSet::after_event,
  /// using their slope along the new flow); guards that the phase itself made
  /// cross (a Step into a detector, a reset across a level) fire at the next
  /// microstep. Returns true when it queued such firings.
  bool after_events() {
    if (generators_.empty()) return false;
    const double t = resolution_.to_seconds(now_.time);
    evaluate_guards(t, g_end_);
    bool slope_needed = false;
    for (std::size_t i = 0; i < g_end_.size(); ++i) {
      if (fired_[i] != Crossing::kNone && GuardSet::needs_slope(fired_[i], g_end_[i])) slope_needed = true;
    }
    if (slope_needed) guard_slopes(t);
    bool again = false;
    for (std::size_t i = 0; i < g_end_.size(); ++i) {
      if (fired_[i] != Crossing::kNone) {
        guards_.after_event(i, fired_[i], g_before_[i], g_end_[i], slope_needed ? g_trial_[i] : 0.0,
                            event_tolerance_);
        fired_[i] = Crossing::kNone;
      } else if (guards_.event(i, g_end_[i]) != Crossing::kNone) {
        again = true;
      } else {
        guards_.commit(i, g_end_[i]);
      }
    }
    if (again) {
      fire_state_events(now_.time, t, {t, t, 0}, t);
      ++now_.microstep;
      return true;
    }
    std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
    return false;
  }

  /// g_trial_ <- dg/dt at now_ along the flow: the guards at t + h on the
  /// Euler prediction x + h f(t, x), against g_end_. Leaves x and the
  /// outputs at t.
  void guard_slopes(double t) {
    const double h = 1e-7 * std::max(1.0, std::abs(t));
    if (!b_.x_storage.empty()) {
      rhs(t, b_.x_storage.data(), probe_dx_.data(), this);
      ++extra_rhs_;
      for (std::size_t k = 0; k < probe_x_.size(); ++k) probe_x_[k] = b_.x_storage[k] + h * probe_dx_[k];
      b_.x = probe_x_.data();
    }
    evaluate_all(t + h);
    evaluate_guards(t + h, g_trial_);
    b_.x = b_.x_storage.data();
    evaluate_all(t);
    for (std::size_t i = 0; i < g_trial_.size(); ++i) g_trial_[i] = (g_trial_[i] - g_end_[i]) / h;
  }

  StepResult step_solver(double t_limit) {
    try {
      return solver_->step(t_limit);
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{std::string("the ODE solver failed: ") + e.what(), ""};
    }
  }

  /// Rows at start + k * output_interval strictly inside (t0, t1), from the
  /// solver's dense output (or, without states, from outputs at that time).
  void record_interval_points(double t0, double t1, bool dense) {
    if (recorder_ == nullptr || !options_.output_interval) return;
    const double h = *options_.output_interval;
    auto k = static_cast<std::int64_t>(std::floor((t0 - options_.start_time) / h)) + 1;
    bool recorded = false;
    for (;; ++k) {
      const double t = options_.start_time + static_cast<double>(k) * h;
      if (t >= t1) break;
      if (t <= t0) continue;
      if (dense) {
        solver_->dense_output(t, dense_.data());
        b_.x = dense_.data();
      }
      evaluate_all(t);
      b_.x = b_.x_storage.data();
      record_values(t, 0);
      recorded = true;
    }
    if (recorded) evaluate_all(t1);  // the outputs at the step's end again
  }

  /// After events changed continuous states: trace the resets and restart
  /// the solver at (t, x+) — the same integrator.
  void restart_solver() {
    const double t = resolution_.to_seconds(now_.time);
    for (auto& [actor, before] : changed_) {
      flags_[actor] &= static_cast<std::uint8_t>(~kStatesChanging);
      const Slice slice = b_.actors[actor].states;
      if (trace_ != nullptr) {
        trace_->reset(now_, t, flat(actor).path, before,
                      std::span<const double>(b_.x + slice.offset, slice.width));
      }
    }
    changed_.clear();
    states_changed_ = false;
    continuous_changed_ = false;
    check_states(t);
    // After a located crossing the first step is the one planned after the
    // step that held it (the step cut at te would plan a shorter one).
    if (solver_) solver_->reset(t, b_.x_storage.data(), std::exchange(planned_step_, 0.0));
  }

  /// A row at `tag` with the current values (and the tokens sent at tag.microstep - 1).
  void record(Tag tag) {
    if (recorder_ != nullptr) record_values(resolution_.to_seconds(tag.time), tag.microstep);
  }

  void record_values(double t, std::uint32_t microstep) {
    if (recorder_ == nullptr) return;
    recorder_->row(t, microstep);
    for (std::size_t i = 0; i < recorder_->signals().size(); ++i) {
      const RecordedSignal& s = recorder_->signals()[i];
      const Slice slot = b_.outputs[b_.actors[model_.actors[s.actor].depth].first_output + s.port];
      const std::span<const double> value(b_.signals.data() + slot.offset, slot.width);
      if (!s.discrete) {
        recorder_->value(value);
      } else if (recorded_token_tag_[i] == Tag{now_.time, microstep} && microstep > 0) {
        recorder_->value(value);
      } else {
        recorder_->absent(s.width);
      }
    }
    recorder_->end_row();
  }

  /// Runs `call` for actor `a`, turning its failures into a run failure.
  template <class Call>
  void guarded(std::uint32_t a, Call&& call) {
    try {
      call();
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{flat(a).path + ": " + e.what(), flat(a).path};
    }
  }

  /// Adds actor `a` to the current microstep's firing order (once).
  void schedule_now(std::uint32_t a) {
    if ((flags_[a] & kFiring) != 0) return;
    flags_[a] |= kFiring;
    firing_.push_back(a);
    std::push_heap(firing_.begin(), firing_.end(), std::greater<>());
  }

  /// Starts loading what the next queued events will fire while the current
  /// one fires: with many actors each firing touches an actor cold in cache
  /// (bench/de, N = 1e5: the actor's first reads were most of the time per
  /// event). Called with the served event's slot open (EventQueue::open_top),
  /// so the top is the next event unless the firing schedules an earlier
  /// one: two lines of its actor object are loaded (the vtable pointer, and
  /// the subclass's first members, right after the base class; loading the
  /// whole base too was slower: more lines evicted); the one after is among
  /// the top's children: their entries in actors_.
  /// Inline, and marked: GCC removes calls to a function that only prefetches.
  /// Only for models with many actors (prefetch_ahead_): a small model
  /// stays in cache, and the lookahead would only cost instructions.
  __attribute__((always_inline)) void prefetch_ahead() const {
    const std::span<const Event> h = queue_.heap();
    const std::size_t n = h.size();
    if (!prefetch_ahead_ || n <= 1) return;
    const auto* actor = reinterpret_cast<const char*>(actors_[h[0].depth()]);
    __builtin_prefetch(actor);                  // the vtable pointer
    __builtin_prefetch(actor + sizeof(Actor));  // the subclass's first members
    for (std::size_t c = 1; c < std::min(n, EventQueue::kArity + 1); ++c) {
      __builtin_prefetch(&actors_[h[c].depth()]);
    }
  }

  /// Removes and returns the shallowest actor with tokens.
  std::uint32_t pop_firing() {
    if (firing_.size() > 1) std::pop_heap(firing_.begin(), firing_.end(), std::greater<>());
    const std::uint32_t a = firing_.back();
    firing_.pop_back();
    return a;
  }

  void discrete_phase() {
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
        flags_[a] &= static_cast<std::uint8_t>(~kScheduledNext);
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
      // reuses its event's slot (one sift instead of two): in a small model
      // the event stays at the top ("held") while its actor fires and
      // replace_top() sifts once; in a large one (prefetch_ahead_) its slot is
      // opened before the actor fires (open_top), so that the walk down the
      // heap overlaps the actor's loads from memory (bench/de, N = 1e5: 6 %
      // faster; N = 1e3: 13 % slower). New events are all later than (t, n).
      in_microstep_ = true;
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
          if (prefetch_ahead_) {
            queue_.open_top();  // the heap's half of the hold operation, before the actor's loads
            prefetch_ahead();
          } else {
            held_top_ = true;
          }
          if ((flags_[a] & kStateEvent) == 0) {  // a state event was traced where it was located
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
        ActorContext context(b_, this, a, now_, t, time_event);
        guarded(a, [&] { actors_[a]->fire(context); });
        const std::uint8_t flags = flags_[a];
        if ((flags & kDrivesContinuous) != 0) continuous_changed_ = true;
        if ((flags & kStateEvent) != 0) {
          const Slice guards = b_.actors[a].guards;
          std::fill_n(b_.crossed.begin() + guards.offset, guards.width, std::uint8_t{0});
        }
        flags_[a] &= kScheduledNext | kStatesChanging | kDrivesContinuous;
        if (held_top_) {  // no fire_at reused the slot
          held_top_ = false;
          queue_.pop();
        } else if (queue_.has_open()) {
          queue_.close_open();
        }
      }
      in_microstep_ = false;
      // What the firings changed is visible after microstep n: continuous
      // outputs are evaluated again, and a row records that side at (t, n+1).
      if (!continuous_.empty()) evaluate_all(t);
      record(Tag{now_.time, now_.microstep + 1});
      if (stop_requested_) return;
      // Nothing sent and nothing queued for the next microstep: the phase is over.
      if (fire_next_.empty() && present_next_list_.empty() &&
          (queue_.empty() || queue_.peek().tag() != Tag{now_.time, now_.microstep + 1})) {
        return;
      }
      ++now_.microstep;
    }
  }

  [[noreturn]] void zeno(double t) {
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

  RunResult finish(RunStatus status, std::string message, std::string actor) {
    if (solver_) {
      const OdeStatistics ode = solver_->statistics();
      stats_.steps = static_cast<std::uint64_t>(ode.steps);
      stats_.rejected_steps = static_cast<std::uint64_t>(ode.error_test_failures);
      stats_.rhs_evals = static_cast<std::uint64_t>(ode.rhs_evals) + extra_rhs_;
    }
    if (recorder_ != nullptr) recorder_->flush();
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

  const FlatModel& model_;
  RunOptions options_;
  std::string name_;
  TraceWriter* trace_;
  Recorder* recorder_;
  std::vector<int> record_index_;        ///< per output port: its recorded column, or -1
  std::vector<Tag> recorded_token_tag_;  ///< per recorded signal: the tag of its last token
  std::optional<OdeSolver> solver_;
  std::vector<std::uint32_t> stateful_;  ///< depths of actors with continuous states
  std::vector<double> dense_;            ///< the interpolated state for output_interval rows
  std::vector<std::pair<std::uint32_t, std::vector<double>>> changed_;  ///< states reset at this time
  bool states_changed_ = false;
  bool continuous_changed_ = false;              ///< an actor with continuous outputs fired
  TimeResolution resolution_;
  Tick start_;
  Tick stop_;
  RunBuffers b_;
  EventQueue queue_;
  Tag now_;
  bool initialized_ = false;
  bool held_top_ = false;            ///< the queue's top is the event being served (discrete_phase)
  bool in_microstep_ = false;        ///< firing the actors of a microstep
  std::uint32_t current_depth_ = 0;  ///< the actor firing now
  bool stop_requested_ = false;
  std::uint32_t stop_actor_ = 0;
  RunStatistics stats_;
  // Per actor flags, in one byte.
  static constexpr std::uint8_t kFiring = 1;          ///< in firing_ at this microstep
  static constexpr std::uint8_t kScheduledNext = 4;   ///< in fire_next_
  static constexpr std::uint8_t kStatesChanging = 8;  ///< in changed_
  static constexpr std::uint8_t kStateEvent = 16;     ///< queued for a located crossing
  static constexpr std::uint8_t kDrivesContinuous = 32;  ///< has a continuous output (fixed)
  /// Models with this many actors look ahead in the queue (prefetch_ahead):
  /// their actors outgrow the caches (4096 actors of ~300 bytes: 1.2 MB).
  static constexpr std::size_t kPrefetchActors = 4096;
  bool prefetch_ahead_ = false;
  /// A step cut to less than this fraction of itself at a state event is
  /// integrated again to the event rather than cut on the dense output.
  static constexpr double kShortCut = 1e-6;
  /// Most redone steps for one state event before giving up.
  static constexpr int kMaxLocationRounds = 50;
  /// The step the solver planned after the step that was cut at the last
  /// located crossing: the first step after the event (restart_solver),
  /// where the cut step would plan a shorter one. Not after a step
  /// integrated again: there (a crossing very early in a long step) the
  /// short redone step's plan resolves the next crossings better.
  double planned_step_ = 0;
  /// check_step wrote the output_interval rows of the step it cut.
  bool interval_rows_done_ = false;
  /// Zeno behaviour: this many events of one guard in a row, each within
  /// kZenoTicks of the one before (see check_chattering).
  static constexpr int kZenoEvents = 8;
  static constexpr Tick kZenoTicks = 64;

  // State-event generators (see check_step); guards are numbered across
  // actors in depth order.
  std::vector<std::uint32_t> generators_;   ///< depths of actors with guards
  std::vector<std::uint32_t> guard_owner_;  ///< per guard: its actor's depth
  GuardSet guards_;
  double event_tolerance_ = 0;  ///< |g| at which a search may stop before one tick
  std::vector<double> g_start_;   ///< guards at the last accepted point
  std::vector<double> g_end_;     ///< guards at the end of the tentative step
  std::vector<double> g_a_, g_b_;  ///< at the ends of the search bracket
  std::vector<double> g_trial_;   ///< at a trial time (and slopes, in after_events)
  std::vector<double> g_mid_;     ///< at the midpoint probed for shifted levels
  std::vector<double> g_before_;  ///< per fired guard: its value at the event
  std::vector<Crossing> fired_;   ///< per guard: fired at the current time
  std::vector<Tick> last_fired_;  ///< per guard: its last event, or kNever
  std::vector<int> close_events_;    ///< per guard: events in a row within kZenoTicks
  std::vector<double> probe_x_, probe_dx_;  ///< for guard slopes after an event
  std::vector<double> cubic_f0_, cubic_f1_;  ///< derivatives at the ends of a searched step
  std::uint64_t extra_rhs_ = 0;  ///< RHS evaluations made by the director itself (searches, slopes)

  std::vector<std::uint32_t> by_depth_;    ///< depth -> index in the FlatModel
  std::vector<const Actor*> actors_;       ///< by depth
  std::vector<std::uint32_t> at_start_;     ///< depths: every continuous and constant actor
  std::vector<std::uint32_t> continuous_;   ///< depths: outputs that change with time
  std::vector<std::uint32_t> guard_inputs_; ///< depths: what the guards read
  std::vector<std::uint32_t> rhs_inputs_;   ///< depths: what the derivatives read
  RhsProgram outputs_;        ///< continuous_, compiled
  RhsProgram rhs_outputs_;    ///< rhs_inputs_, compiled
  RhsProgram guard_outputs_;  ///< guard_inputs_, compiled
  RhsProgram derivatives_;    ///< the derivatives of stateful_
  std::vector<std::uint32_t> firing_;
  std::vector<std::uint32_t> fire_next_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> present_now_list_;
  std::vector<std::uint32_t> present_next_list_;
};

Director::Director(const FlatModel& model, const RunOptions& options, std::string model_name,
                   TraceWriter* trace, Recorder* recorder)
    : impl_(std::make_unique<Impl>(model, options, std::move(model_name), trace, recorder)) {}

Director::~Director() = default;

void Director::set_progress(ProgressCallback callback) { impl_->progress_ = std::move(callback); }

RunResult Director::run() { return impl_->run(); }

}  // namespace ctde
