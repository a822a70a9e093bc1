// The continuous phase's state events: the guards read from the model, the
// step the locator searches (domains/ct/event_locator.hpp) and what the
// phase does with the crossing it finds: ending the step there, firing the
// generators (docs/semantics.md, "State events").
#include "domains/ctde/continuous_part_impl.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/format.hpp"

namespace ctde {

void ContinuousPhase::evaluate_guards(const Part& p, double t, std::span<double> g) {
  for (const Part::Generator& generator : p.generators) {
    const ActorId d = generator.actor;
    const GuardId base = generator.base;
    const GuardSlice slice = run_.b_.actors[d.index()].guards;
    const std::span<double> out = g.subspan(base.index(), slice.width);
    const ReadContext context(run_.b_, run_.services_, d, run_.now_, t);
    run_.guarded(d, [&] { run_.layout_.actors[d.index()]->guards(context, out); });
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (!std::isfinite(out[i])) {
        throw RunState::Failure{run_.flat(d).path + ": guard " +
                                    guard_label(slice.at(static_cast<std::uint32_t>(i))) + " is " +
                                    format_double(out[i]) + " at t = " + format_double(t) + " s",
                                run_.flat(d).path};
      }
    }
  }
}

class ContinuousPhase::Trajectory final : public StepTrajectory {
 public:
  Trajectory(ContinuousPhase& impl, Part& part) : impl_(impl), part_(part) {}

  [[nodiscard]] double start() const override { return part_.last_step_start(); }
  [[nodiscard]] double end() const override { return part_.last_step_end(); }
  [[nodiscard]] std::span<const double> start_state() const override {
    return part_.solver ? part_.solver->last_step_start_state() : std::span<const double>();
  }
  [[nodiscard]] std::span<const double> end_state() const override {
    return part_.solver ? part_.solver->state() : std::span<const double>();
  }
  void derivatives(double t, std::span<const double> x, std::span<double> dxdt) override {
    impl_.rhs_on_solution(part_, t, x.data(), dxdt.data());
    ++impl_.extra_rhs_;
  }
  void guards(double t, std::span<const double> x, std::span<double> g) override {
    impl_.guards_at(part_, t, x.data(), g);
  }
  void guards_on_dense_output(double t, std::span<double> g) override {
    impl_.guards_inside_step(part_, t, g);
  }

 private:
  ContinuousPhase& impl_;
  Part& part_;
};

void ContinuousPhase::guards_inside_step(Part& p, double t, std::span<double> g) {
  if (!p.solver) {
    guards_at(p, t, run_.b_.x_storage.data(), g);
    return;
  }
  dense_state(p, t, p.x.data());
  guards_at(p, t, p.x.data(), g);
}

void ContinuousPhase::guards_at(Part& p, double t, const double* x, std::span<double> g) {
  const StatesView view(run_.b_, placed_states(p, x));
  run_.evaluate(p.guard_outputs, t);
  evaluate_guards(p, t, g);
}

std::string ContinuousPhase::guard_label(GuardId guard) const {
  const ActorId d = guards_.owner[guard.index()];
  const std::size_t index = guard.value() - run_.b_.actors[d.index()].guards.offset.index();
  std::string name = run_.layout_.actors[d.index()]->guard_name(index);
  return name.empty() ? std::to_string(index) : "'" + name + "'";
}

double ContinuousPhase::advance_part(Part& p, double t_next) {
  const double t0 = p.frontier;
  if (!p.solver) {
    // Without states time just advances: by at most the step bound, and to
    // each output_interval row, so that the model is evaluated in time order
    // (a failure is met at its first row, the rows before it kept).
    const double limit = std::min(t0 + run_.layout_.step_bound, next_row_time(t0));
    const double t1 = limit < t_next - run_.resolution_.seconds_per_tick() ? limit : t_next;
    p.step_start = t0;
    p.time = t1;
    return t1;
  }
  const StepResult r = step_solver(p, t_next);
  if (!r.ok()) {
    throw RunState::Failure{std::string("the ODE solver failed (") + ctde::to_string(r.status) +
                                "): " + r.message + fastest_state(p),
                            ""};
  }
  if (r.switches_method && run_.trace_ != nullptr) {
    const std::string& why = p.solver->method_switch();
    run_.trace_->solver(Tag{run_.resolution_.to_ticks(r.t_reached), 0}, p.id.value(),
                        why.substr(0, why.find(':')), p.solver->linear_solver(), why);
  }
  return r.t_reached;
}

std::string ContinuousPhase::fastest_state(Part& p) {
  const double t = p.solver->current_time();
  const std::span<const double> x = p.solver->state();
  if (part_rhs(t, x.data(), p.dx.data(), &p) != 0) return "";  // (a failing derivative says so itself)
  // Scaled by its tolerance, the state that changes fastest where the solver
  // stands is what its steps shrink for.
  std::size_t fastest = 0;
  double rate = -1;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double scaled = std::abs(p.dx[k]) / (run_.options_.atol + run_.options_.rtol * std::abs(x[k]));
    if (scaled > rate) {
      rate = scaled;
      fastest = k;
    }
  }
  const StateIndex state = p.whole ? StateIndex::at(fastest) : p.states[fastest];
  constexpr std::string_view kWhy =
      " per second: a derivative that grows without bound (a singularity or a finite-time blow-up of the "
      "model's equations) stops every method; if the states change slowly instead, the problem may be "
      "stiff (try solver \"bdf\")";
  return concat({"; at t = ", format_double(t), " s its fastest state is ", state_label(state), " = ",
                 format_double(x[fastest]), ", changing at ", format_double(p.dx[fastest]), kWhy});
}

void ContinuousPhase::trace_step(Part& p, double t0, double t1) {
  const OdeStatistics ode = p.solver->statistics();
  const RunStatistics& stats = run_.stats_;
  TraceWriter::StepInfo info;
  info.t0 = t0;
  info.t1 = t1;
  info.part = p.id.value();
  // A count since the last line (all of it when the solver counts from 0 again).
  const auto since = [](long now, long before) {
    return static_cast<std::uint64_t>(now >= before ? now - before : now);
  };
  info.rhs_evals = since(ode.rhs_evals, p.traced.rhs_evals);
  info.rejected = since(ode.error_test_failures, p.traced.rejected);
  info.newton_iterations = since(ode.nonlinear_iterations, p.traced.newton_iterations);
  info.loop_solves = stats.loop_solves - traced_loop_solves_;
  info.loop_iterations = stats.loop_iterations - traced_loop_iterations_;
  run_.trace_->step(info);
  p.traced = {ode.rhs_evals, ode.error_test_failures, ode.nonlinear_iterations};
  traced_loop_solves_ = stats.loop_solves;
  traced_loop_iterations_ = stats.loop_iterations;
}

void ContinuousPhase::step_part(Part& p, double t_next) {
  const double t0 = p.frontier;
  double t1 = advance_part(p, t_next);
  if (p.solver && run_.trace_ != nullptr && run_.trace_->writes(TraceKind::kStep)) trace_step(p, t0, t1);
  try {
    load_part(p, t1);
  } catch (const RunState::Failure&) {
    run_.now_ = {run_.resolution_.to_ticks(t1), 0};  // the run failed at the step's end
    throw;
  }
  if (p.generators.empty()) return;
  EventLocator& locator = p.locator;
  evaluate_guards(p, t1, locator.end_values());
  if (!locator.crossed()) {
    locator.accept();
    return;
  }
  const Tick after = run_.resolution_.to_ticks(t0);
  if (run_.options_.events == EventMode::kNone) {  // checked at step ends only, no location: t1's tick
    const Tick te = std::max(run_.resolution_.to_ticks(t1), after + 1);
    p.pending = Part::Pending{te, {t0, t1, 0}, t0, t1, after, 0, 0.0, /*located=*/false};
    return;
  }
  const double rejected_t1 = t1;
  const double planned = p.solver ? p.solver->planned_step() : 0.0;
  int iterations = 0;
  Trajectory trajectory(*this, p);
  for (int round = 0;; ++round) {
    if (round > EventLocator::kMaxLocationRounds) {
      throw RunState::Failure{"the state-event search did not settle between t = " + format_double(t0) +
                                  " and " + format_double(t1) +
                                  " s (the guards disagree with the solver's steps)",
                              ""};
    }
    const LocatedEvent located = locator.locate(trajectory, t0, t1, after);
    iterations += located.bracket.iterations;
    if (run_.trace_ != nullptr) {
      run_.trace_->step_reject(
          t0, t1, run_.flat(guards_.owner[p.guard_ids[locator.first_located().index()].index()]).path);
    }
    const double te_s = run_.resolution_.to_seconds(located.tick);
    p.pending = Part::Pending{located.tick, located.bracket, t0, rejected_t1, after, iterations, planned};
    // The interpolant's roundoff is a few ulps of the states over the whole
    // step: a crossing very early in a long step (a ball coming to rest,
    // flights of 1e-8 s in steps of 0.5 s) is integrated again instead, now,
    // while this part's step starts at the earliest frontier (later, another
    // part's event could fall inside the redone step's start).
    const bool integrate = run_.options_.event_state == EventState::kIntegrated ||
                           te_s - t0 < EventLocator::kShortCut * (t1 - t0);
    if (!p.solver || te_s >= t1 || !integrate) return;  // fire_pending ends the step at te
    p.solver->redo_to(t0);
    t1 = step_to_event(p, te_s);
    ++iterations;
    p.pending->iterations = iterations;
    load_part(p, t1);
    evaluate_guards(p, t1, locator.end_values());
    if (!locator.crossed()) {
      if (t1 == te_s && (located.tick == after + 1 || !OdeSolver::resolves(t0, te_s))) {
        // The crossing is within a tick of the step's start, or closer to
        // it than the solver can integrate (a tick is a few ulps of t late
        // in a long run): the states cannot be told apart, and it fires
        // there, as the search found it.
        locator.take_located();
        p.pending->evaluated = true;
        return;
      }
      locator.accept();  // the crossing is later (by a few ulps of the interpolant): take [t0, t1]
      p.pending.reset();
      return;
    }
    if (t1 == te_s) {  // crossed at the redone step's end: fires there
      p.pending->evaluated = true;
      return;
    }
    // a shorter redone step that crossed already: search it
  }
}

bool ContinuousPhase::fire_pending(Part& p) {
  const Part::Pending pending = *p.pending;
  p.pending.reset();
  EventLocator& locator = p.locator;
  const double te_s = run_.resolution_.to_seconds(pending.te);
  double t1 = p.last_step_end();
  if (pending.located && te_s != t1) {
    if (p.solver && te_s > t1) {
      // The step ended between two ticks and the guards crossed in its last
      // fraction of a tick: the first tick at which they have crossed is
      // after the step's end, so there is nothing to cut. The solver goes on
      // to that tick instead (less than a tick; with a coarse time
      // resolution and a fixed step, maybe several steps), so that the
      // state at the event is still the state at te.
      rows_to(p, t1, /*dense=*/true);  // while the interpolant is there
      while (t1 < te_s) {
        const double t_end = t1;
        t1 = step_to_event(p, te_s);
        // (a step too short to integrate has no interpolant: the state did not change)
        rows_to(p, t1, /*dense=*/OdeSolver::resolves(t_end, t1));
        run_.stop_if_asked();  // steps shorter than a tick: as many as fit in one
      }
    } else if (p.solver) {               // cut the step at te: x(te) from the dense output
      rows_to(p, te_s, /*dense=*/true);  // while the interpolant is there
      p.solver->redo_to(te_s);
      t1 = te_s;
    } else {
      p.time = t1 = te_s;
    }
    // The step after the event: as planned before the cut, but at most four
    // times the part of the step before the event (how far apart the events
    // are): the interpolant's roundoff grows with the step's span, and a
    // step much longer than the events' spacing would only be cut again.
    if (p.solver) p.planned = std::min(pending.planned, 4 * (te_s - pending.t0));
    load_part(p, t1);
    evaluate_guards(p, t1, locator.end_values());
    if (!locator.crossed()) {
      if (pending.te == pending.after + 1 || !OdeSolver::resolves(pending.t0, te_s)) {
        locator.take_located();  // within a tick of the step's start: fires as the search found it
      } else {
        locator.accept();  // the crossing is later (by a few ulps of the interpolant): take [t0, te]
        p.planned = 0;     // no event: no restart
        return false;
      }
    }
  } else if (pending.located && (!pending.evaluated || parts_.split)) {
    // The search left the outputs at its last trial time (split: other
    // parts' events or rows since then, at their times).
    run_.evaluate(p.outputs, t1);
  }
  fire_part_events(p, Tag{pending.te, 0}, pending.found, pending.rejected_t1, pending.iterations);
  rows_to(p, t1, /*dense=*/p.solver.has_value());
  if (!p.touched) {
    p.touched = true;
    parts_.touched.push_back(p.id);
  }
  return true;
}

double ContinuousPhase::step_to_event(Part& p, double te) {
  const StepResult r = step_solver(p, te);
  if (!r.ok()) {
    throw RunState::Failure{std::string("the ODE solver failed stepping to a state event (") +
                                ctde::to_string(r.status) + "): " + r.message,
                            ""};
  }
  return r.t_reached;
}

void ContinuousPhase::fire_part_events(Part& p, Tag tag, const LocatedCrossing& found, double rejected_t1,
                                       int iterations) {
  const Tick te = tag.time;
  EventLocator& locator = p.locator;
  for (GuardId local{0}; local.index() < locator.size(); ++local) {
    const Crossing c = locator.event(local);
    if (c == Crossing::kNone) continue;
    const GuardId guard = p.guard_ids[local.index()];
    const EventRhythm rhythm = locator.fire(local, te);
    if (rhythm.kind != EventRhythm::Kind::kNormal) unresolved_events(guard, rhythm, te);
    queue_crossing(guard, c, tag, found.tb - found.ta, locator.residual(local), iterations, rejected_t1);
  }
}

void ContinuousPhase::queue_crossing(GuardId guard, Crossing c, const Tag& tag, double bracket,
                                     double residual, int iterations, double rejected_t1) {
  const ActorId d = guards_.owner[guard.index()];
  run_.b_.crossed[guard.index()] = static_cast<std::uint8_t>(c);
  ++run_.stats_.state_events;
  if (run_.trace_ != nullptr) {
    const std::size_t index = guard.value() - run_.b_.actors[d.index()].guards.offset.index();
    const std::string name = run_.layout_.actors[d.index()]->guard_name(index);
    run_.trace_->state_event(
        tag, {run_.flat(d).path, name, index, to_string(c), bracket, residual, iterations, rejected_t1});
  }
  if ((run_.layout_.flags[d.index()] & RunState::kStateEvent) == 0) {
    run_.layout_.flags[d.index()] |= RunState::kStateEvent;
    run_.scheduler_.queue(tag, d);
  }
}

void ContinuousPhase::unresolved_events(GuardId guard, const EventRhythm& rhythm, Tick te) const {
  const ActorId d = guards_.owner[guard.index()];
  const std::string who =
      run_.flat(d).path + " (" + run_.layout_.actors[d.index()]->type() + "), guard " + guard_label(guard);
  throw RunState::Failure{
      EventLocator::unresolved_message(rhythm, who, run_.resolution_, te,
                                       "the model does not say what happens after (stop the run before this "
                                       "time, or model the resting state, e.g. with a mode)"),
      run_.flat(d).path};
}

void ContinuousPhase::start_guards() {
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  for (Part& p : parts_.all) {
    if (p.generators.empty()) continue;
    evaluate_guards(p, t, p.locator.end_values());
    p.locator.start();
  }
}

void ContinuousPhase::microstep_crossings() {
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  const Tag tag{run_.now_.time, run_.now_.microstep + 1};
  if (guards_.moved) {
    for (const PartId k : parts_.touched) {
      Part& p = parts_.all[k.index()];
      evaluate_guards(p, t, p.locator.end_values());
      for (GuardId i{0}; i.index() < p.locator.size(); ++i) microstep_crossing(p, i, tag, t);
    }
    guards_.current = true;  // after_events reads them
  } else {  // only generators fired: their own guards (a detector firing at its crossing moves nothing)
    for (const ActorId d : guards_.fired_generators) {
      Part& p = parts_.all[parts_.of[d.index()].index()];
      const GuardSlice slice = run_.b_.actors[d.index()].guards;
      const GuardId base = guards_.local[slice.offset.index()];
      const ReadContext context(run_.b_, run_.services_, d, run_.now_, t);
      run_.guarded(d, [&] {
        run_.layout_.actors[d.index()]->guards(context,
                                               p.locator.end_values().subspan(base.index(), slice.width));
      });
      for (GuardId i = base; i.value() < base.value() + slice.width; ++i) microstep_crossing(p, i, tag, t);
    }
  }
  guards_.moved = false;
  guards_.fired_generators.clear();
}

void ContinuousPhase::microstep_crossing(Part& p, GuardId local, const Tag& tag, double t) {
  // A guard that fired at a located crossing in this phase settles after
  // the phase (after_events): its event may take several microsteps.
  EventLocator& locator = p.locator;
  if (locator.fired(local)) return;
  const GuardId guard = p.guard_ids[local.index()];
  const double value = locator.end_values()[local.index()];
  if (!std::isfinite(value)) {
    const ActorId d = guards_.owner[guard.index()];
    throw RunState::Failure{run_.flat(d).path + ": guard " + guard_label(guard) + " is " +
                                format_double(value) + " at t = " + format_double(t) + " s",
                            run_.flat(d).path};
  }
  // Crossed by values that jumped at this microstep: an event of superdense
  // time, one per crossing (a level crossed and crossed back in two
  // microsteps is two events). The bound on microsteps ends a loop.
  const Crossing c = locator.microstep_crossing(local, run_.now_.time);  // it takes its new side
  if (c == Crossing::kNone) return;
  queue_crossing(guard, c, tag, 0.0, locator.residual(local), 0, t);
}

bool ContinuousPhase::settle_guards() {
  const double t = run_.resolution_.to_seconds(run_.now_.time);
  const bool current = std::exchange(guards_.current, false);
  bool again = false;
  for (const PartId k : parts_.touched) {
    Part& p = parts_.all[k.index()];
    // A part that took its state at now_ from its dense output goes on from
    // there (reset or not): its step ends here.
    if (p.behind) restart_part(p, t);
    if (p.generators.empty()) continue;
    EventLocator& locator = p.locator;
    if (!current) evaluate_guards(p, t, locator.end_values());
    const bool slope_needed = locator.needs_slopes();
    if (slope_needed) guard_slopes(p, t);
    if (locator.settle(slope_needed ? std::span<const double>(p.slopes) : std::span<const double>())) {
      fire_part_events(p, Tag{run_.now_.time, run_.now_.microstep + 1}, {t, t, 0}, t, 0);
      again = true;
    }
  }
  if (again) {
    ++run_.now_.microstep;
    return true;
  }
  // The plan of a step cut at an event that did not restart its part is
  // stale; the next phase starts with the solver's own.
  for (const PartId k : parts_.touched) parts_.all[k.index()].planned = 0;
  if (parts_.split) {  // (the whole part is always at now_)
    for (const PartId k : parts_.touched) parts_.all[k.index()].touched = false;
    parts_.touched.clear();
  }
  return false;
}

void ContinuousPhase::guard_slopes(Part& p, double t) {
  const double h = EventLocator::slope_step(t);
  if (p.solver) {
    const double* x = part_state(p);
    rhs_on_solution(p, t, x, p.dx.data());
    ++extra_rhs_;
    for (std::size_t k = 0; k < p.dx.size(); ++k) p.dx[k] = x[k] + h * p.dx[k];
    guards_at(p, t + h, p.dx.data(), p.slopes);
  } else {
    guards_at(p, t + h, run_.b_.x_storage.data(), p.slopes);
  }
  run_.evaluate(p.guard_outputs, t);
  const std::span<const double> g = p.locator.end_values();
  for (std::size_t i = 0; i < p.slopes.size(); ++i) p.slopes[i] = (p.slopes[i] - g[i]) / h;
}

}  // namespace ctde
