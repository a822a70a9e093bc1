// The continuous phase (continuous_phase_impl.hpp): the derivatives and
// their failures, the phase itself (the part with the earliest frontier
// steps), rows inside steps, restarts after events.
#include "domains/ctde/continuous_part_impl.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "core/format.hpp"

namespace ctde {

bool ContinuousPhase::compute_derivatives(const Part& p, double t, double* dx, const double* x) {
  try {
    if (p.reads_outputs) run_.evaluate(p.rhs_outputs, t);
    p.derivatives.run_derivatives(run_.b_, dx, [&](ActorId d) {
      const StateSlice slice = run_.b_.actors[d.index()].states;
      const std::span<double> out(dx + slice.offset.index(), slice.width);
      const ReadContext context(run_.b_, run_.services_, d, run_.now_, t);
      run_.guarded(d, [&] { run_.layout_.actors[d.index()]->derivatives(context, out); });
    });
  } catch (RunState::Failure& failure) {
    // An actor's own check of what it computed (an Expression giving NaN):
    // as a non-finite derivative.
    note_rhs_failure(p, t, x);
    rhs_failure_.actor_error = std::move(failure);
    return false;
  }
  return true;
}

void ContinuousPhase::note_rhs_failure(const Part& p, double t, const double* x) {
  RhsFailure& failure = rhs_failure_;
  failure.seen = true;
  failure.t = t;
  failure.actor_error.message.clear();
  failure.actor_error.actor.clear();
  failure.at_solution = false;
  if (p.solver) {  // the part's own solution, in its own layout
    const std::span<const double> now = p.solver->state();
    failure.at_solution = t == p.solver->current_time() && std::equal(now.begin(), now.end(), x);
  }
}

void ContinuousPhase::note_nonfinite_derivative(const Part& p, double t, const double* x, StateIndex state,
                                                double value, double x_value) {
  note_rhs_failure(p, t, x);
  rhs_failure_.state = state;
  rhs_failure_.value = value;
  rhs_failure_.x = x_value;
}

void ContinuousPhase::rhs_on_solution(Part& p, double t, const double* x, double* dxdt) {
  if (part_rhs(t, x, dxdt, &p) != 0) rhs_failed("on the solution (at a step's end or after an event)");
}

void ContinuousPhase::rhs_failed(const std::string& where) const {
  const RhsFailure& failure = rhs_failure_;
  if (!failure.actor_error.message.empty()) {
    throw RunState::Failure{
        failure.actor_error.message + " (at t = " + format_double(failure.t) + " s, " + where + ")",
        failure.actor_error.actor};
  }
  ActorId owner = run_.layout_.stateful.front();
  for (const ActorId d : run_.layout_.stateful) {
    if (run_.b_.actors[d.index()].states.offset.index() <= failure.state.value()) owner = d;
  }
  const std::size_t index = failure.state.value() - run_.b_.actors[owner.index()].states.offset.index();
  throw RunState::Failure{run_.flat(owner).path + ": the derivative of its state " + std::to_string(index) +
                              " (= " + format_double(failure.x) + ") is " + format_double(failure.value) +
                              " at t = " + format_double(failure.t) + " s, " + where,
                          run_.flat(owner).path};
}

void ContinuousPhase::check_states(double t) {
  for (const ActorId d : run_.layout_.stateful) {
    const StateSlice slice = run_.b_.actors[d.index()].states;
    for (std::uint32_t i = 0; i < slice.width; ++i) {
      if (!std::isfinite(run_.b_.x[slice.offset.index() + i])) {
        throw RunState::Failure{run_.flat(d).path + ": a continuous state is " +
                                    format_double(run_.b_.x[slice.offset.index() + i]) +
                                    " at t = " + format_double(t) + " s",
                                run_.flat(d).path};
      }
    }
  }
}

void ContinuousPhase::add_statistics(RunStatistics& stats) const {
  std::int64_t steps = carried_.steps;
  std::int64_t rejected = carried_.rejected_steps;
  std::int64_t rhs = carried_.rhs_evals + static_cast<std::int64_t>(extra_rhs_);
  for (const Part& p : parts_.all) {
    if (!p.solver) continue;
    const OdeStatistics ode = p.solver->statistics();
    steps += ode.steps;
    rejected += ode.error_test_failures;
    rhs += ode.rhs_evals;
  }
  stats.steps = static_cast<std::uint64_t>(steps);
  stats.rejected_steps = static_cast<std::uint64_t>(rejected);
  stats.rhs_evals = static_cast<std::uint64_t>(rhs);
}

void ContinuousPhase::run_to(Tick next, Tick step_limit) {
  if (run_.layout_.pure_de) {
    run_.now_ = {next, 0};
    return;
  }
  const double t_next = run_.resolution_.to_seconds(next);
  const bool look_ahead = step_limit > next && may_look_ahead();
  // Nothing happened at the pause: on from the solver's state (a next pause
  // inside the same step is Director::advance_to's, through move_ahead).
  if (std::exchange(ahead_.on, false)) {
    std::copy(ahead_.signals.begin(), ahead_.signals.end(), run_.b_.signals.begin());
  }
  const double t_step = look_ahead ? run_.resolution_.to_seconds(step_limit) : t_next;
  // Without states time just advances from the event, by at most the step
  // bound where guards or recorded signals vary in time (docs/semantics.md).
  // (A part without states is the whole part.)
  if (Part& whole = parts_.all.front(); !whole.solver) {
    whole.time = run_.resolution_.to_seconds(run_.now_.time);
    update_frontier(whole);
  }
  double frontier = 0;
  if (run_.rows_.active()) run_.rows_.set_interval_until(earliest_part(frontier).frontier);
  bool stepped = false;
  for (;;) {
    Part& first = earliest_part(frontier);
    // Looking ahead, the last step ended (or found a crossing) after next.
    const bool beyond = look_ahead && frontier > t_next;
    if (first.pending && !beyond) {  // a located crossing is the earliest: its part's generators fire there
      const Tick te = first.pending->te;
      bool fired = false;
      for (Part& p : parts_.all) {
        if (!p.pending || p.pending->te != te) continue;
        fired = fire_pending(p) || fired;
        update_frontier(p);
      }
      if (fired) {
        run_.now_ = {te, 0};
        record(run_.now_);
        return;
      }
      continue;  // the crossings were a few ulps later: no event, the steps up to te accepted
    }
    if (beyond) {
      stand_ahead(first, next);
      if (run_.progress_) run_.progress_(first.last_step_end(), run_.stats_);
      run_.stop_if_asked();
      return;
    }
    // Every part has passed the frontier that the last step reached.
    if (std::exchange(stepped, false) && reached(first, frontier, next, t_next)) return;
    if (frontier >= t_next) break;
    step_part(first, t_step);
    update_frontier(first);
    stepped = true;
  }
  run_.now_ = {next, 0};
  record(run_.now_);
}

bool ContinuousPhase::may_look_ahead() const {
  return !parts_.split && parts_.all.front().solver && !run_.rows_.active() &&
         run_.layout_.step_watchers.empty() && checkpoint_due_ == nullptr;
}

void ContinuousPhase::stand_ahead(Part& p, Tick at) {
  std::copy(run_.b_.signals.begin(), run_.b_.signals.end(), ahead_.signals.begin());
  ahead_.on = true;
  at_ahead(p, at, run_.resolution_.to_seconds(at));
}

void ContinuousPhase::at_ahead(Part& p, Tick at, double t) {
  run_.now_ = {at, 0};
  dense_state(p, t, parts_.row_x.data());
  const StatesView view(run_.b_, parts_.row_x.data());
  run_.evaluate_all(t);
}

bool ContinuousPhase::move_ahead(Tick at) {
  Part& p = parts_.all.front();
  const double t = run_.resolution_.to_seconds(at);
  if (!(p.frontier > t)) return false;
  at_ahead(p, at, t);
  return true;
}

void ContinuousPhase::settle_ahead() {
  if (!std::exchange(ahead_.on, false)) return;
  Part& p = parts_.all.front();
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  take_state_at(p, t);
  p.planned = p.solver->planned_step();
  restart_part(p, t);
}

ContinuousPhase::Part& ContinuousPhase::earliest_part(double& frontier) {
  Part* first = &parts_.all.front();
  frontier = first->frontier;
  for (std::size_t k = 1; k < parts_.all.size(); ++k) {
    Part& p = parts_.all[k];
    const double f = p.frontier;
    if (f < frontier || (f == frontier && p.pending && !first->pending)) {
      frontier = f;
      first = &p;
    }
  }
  return *first;
}

bool ContinuousPhase::reached(Part& p, double t1, Tick next, double t_next) {
  rows_to(p, t1, /*dense=*/p.solver.has_value());
  if (t1 < t_next && run_.resolution_.to_ticks(t1) >= next) {
    // The step ended less than half a tick before t_next: its end is
    // t_next's tick. A restart at an event's tick with the step the solver
    // planned to reach t_next from the step's end before rounding lands
    // there, by the rounding. The next step, a sliver, ends at t_next: the
    // row and the step watchers' question are at its end.
    return false;
  }
  const Tick previous = run_.now_.time;
  run_.now_ = {t1 >= t_next ? next : run_.resolution_.to_ticks(t1), 0};
  // A row per step end, but one per tick: a step shorter than a tick
  // (the first after a restart may be) leaves no row of its own.
  if (t1 < t_next && run_.now_.time > previous) {
    if (parts_.split) {
      if (run_.rows_.active()) record_split(run_.now_, t1);
    } else {
      record(run_.now_);
    }
  }
  // Actors that watch the steps may ask for an event at this step's end.
  if (!run_.layout_.step_watchers.empty() && run_.now_.time > previous && run_.steps_completed(t1) &&
      t1 < t_next)
    return true;
  if (run_.progress_) run_.progress_(t1, run_.stats_);
  run_.stop_if_asked();
  // A checkpoint due here: the run goes on from this step's end as from an
  // event time with no event (the director takes it, then runs on to `next`).
  if (checkpoint_due_ != nullptr && t1 < t_next && run_.now_.time > previous && checkpoint_place() &&
      (*checkpoint_due_)()) {
    step_checkpoint_ = true;
    return true;
  }
  return false;
}

StepResult ContinuousPhase::step_solver(Part& p, double t_limit) {
  const double t0 = p.solver->current_time();
  rhs_failure_.seen = false;
  StepResult r;
  try {
    r = p.solver->step(t_limit);
  } catch (const RunState::Failure&) {
    throw;
  } catch (const std::exception& e) {
    throw RunState::Failure{std::string("the ODE solver failed: ") + e.what(), ""};
  }
  if (r.status == StepStatus::kRhsFailed && rhs_failure_.seen) {
    if (rhs_failure_.at_solution) rhs_failed("on the solution (at the step's start)");
    const int retries = r.recoverable_retries;
    rhs_failed("at a trial stage of a step from t = " + format_double(t0) + " s; " +
               (retries == 0 ? std::string("the step could not be made shorter")
                : retries == 1
                    ? std::string("a shorter step tried from there failed too")
                    : "the " + std::to_string(retries) + " shorter steps tried from there failed too"));
  }
  return r;
}

void ContinuousPhase::dense_state(Part& p, double t, double* out) {
  rhs_failure_.seen = false;
  try {
    p.solver->dense_output(t, out);
  } catch (const std::exception&) {
    if (rhs_failure_.seen) rhs_failed("inside the step's interpolant");
    throw;  // a misuse: the phase asked outside the step
  }
}

RowTime ContinuousPhase::interval_row(std::int64_t k) const {
  const double h = *run_.options_.output_interval;
  // The grid start + k h: in ticks when h is a whole number of them (each
  // row at an exact tick), else in seconds, between ticks.
  const std::optional<Tick> h_ticks = run_.resolution_.whole_ticks(h);
  Tick tick = 0;
  if (h_ticks && !__builtin_mul_overflow(k, *h_ticks, &tick) &&
      !__builtin_add_overflow(run_.start_, tick, &tick)) {
    return RowTime::at_tick(tick, run_.resolution_);
  }
  return RowTime::between_ticks(run_.options_.start_time + static_cast<double>(k) * h);
}

double ContinuousPhase::next_row_time(double t) const {
  if (!run_.rows_.active() || !run_.options_.output_interval) return std::numeric_limits<double>::infinity();
  const double h = *run_.options_.output_interval;
  // k from the previous grid point on (the division may round either way).
  for (auto k = static_cast<std::int64_t>(std::floor((t - run_.options_.start_time) / h));; ++k) {
    const double row = interval_row(k).seconds;
    if (row > t) return row;
  }
}

void ContinuousPhase::record_interval_points(Part& p, double t0, double t1, bool dense) {
  if (!run_.rows_.active() || !run_.options_.output_interval) return;
  const double h = *run_.options_.output_interval;
  // k from the previous grid point on (the division may round either way).
  auto k = static_cast<std::int64_t>(std::floor((t0 - run_.options_.start_time) / h));
  bool recorded = false;
  for (;; ++k) {
    const RowTime time = interval_row(k);
    const double t = time.seconds;
    if (t >= t1) break;
    if (t <= t0) continue;
    const double* x = run_.b_.x_storage.data();
    if (parts_.split) {  // every part at t
      row_state(t, dense ? nullptr : &p);
      x = parts_.row_x.data();
    } else if (dense && p.solver) {  // the whole part, in the run's layout
      dense_state(p, t, parts_.row_x.data());
      x = parts_.row_x.data();
    }
    {
      const StatesView view(run_.b_, x);
      run_.evaluate_all(t);
    }
    run_.record_values(time, 0);
    recorded = true;
    // A step may hold any number of rows (output_interval down to one
    // tick): the run may end after any of them, at the first tick from that row on.
    if (run_.stop_check_ && run_.stop_check_()) {
      Tick tick = time.resolution != nullptr ? time.tick : run_.resolution_.to_ticks(t);
      if (run_.resolution_.to_seconds(tick) < t) ++tick;
      run_.now_ = {tick, 0};
      throw RunState::Interrupted{};
    }
  }
  if (recorded) run_.evaluate_all(t1);  // the outputs at the step's end again
}

void ContinuousPhase::record_split(Tag tag, double t) {
  row_state(t, nullptr);
  {
    const StatesView view(run_.b_, parts_.row_x.data());
    run_.evaluate_all(t);
  }
  run_.record_values(RowTime::at_tick(tag.time, run_.resolution_), tag.microstep);
}

void ContinuousPhase::row_state(double t, const Part* still) {
  std::copy(run_.b_.x_storage.begin(), run_.b_.x_storage.end(), parts_.row_x.begin());
  for (Part& p : parts_.all) {
    if (p.touched || &p == still || (!p.pending && p.solver->current_time() == t)) continue;
    dense_state(p, t, p.x.data());
    for (std::size_t k = 0; k < p.x.size(); ++k) parts_.row_x[p.states[k].index()] = p.x[k];
  }
}

void ContinuousPhase::restart_solver() {
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  for (auto& [actor, before] : run_.changes_.reset) {
    run_.layout_.flags[actor.index()] &= static_cast<RunState::Flags>(~RunState::kStatesChanging);
    const StateSlice slice = run_.b_.actors[actor.index()].states;
    const std::span<const double> after(run_.b_.x + slice.offset.index(), slice.width);
    // An actor that asked for its states but wrote back what was there (a
    // reset to the current value) changed nothing: only real changes are traced.
    if (run_.trace_ != nullptr && !std::equal(before.begin(), before.end(), after.begin())) {
      run_.trace_->reset(run_.now_, run_.flat(actor).path, before, after);
    }
  }
  run_.changes_.reset.clear();
  run_.changes_.states = false;
  run_.changes_.continuous = false;
  check_states(t);
  // After a located crossing the first step is the one planned after the
  // step that held it (the step cut at te would plan a shorter one).
  for (const PartId k : parts_.touched) restart_part(parts_.all[k.index()], t);
}

}  // namespace ctde
