// The director's state events: the guards read from the model, the step
// the locator searches (domains/ct/event_locator.hpp) and what the director
// does with the crossing it finds: ending the step there, firing the
// generators (docs/semantics.md, "State events").
#include "domains/ctde/director_impl.hpp"
#include "domains/ctde/director_parts_impl.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/format.hpp"

namespace ctde {

void Director::Impl::evaluate_guards(double t, std::span<double> g) {
  for (const ActorId d : guards_.generators) {
    const GuardSlice slice = b_.actors[d.index()].guards;
    const std::span<double> out = g.subspan(slice.offset.index(), slice.width);
    const ReadContext context(b_, this, d, now_, t);
    guarded(d, [&] { actors_[d.index()]->guards(context, out); });
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (!std::isfinite(out[i])) {
        throw Failure{flat(d).path + ": guard " + guard_label(slice.at(static_cast<std::uint32_t>(i))) +
                          " is " + format_double(out[i]) + " at t = " + format_double(t) + " s",
                      flat(d).path};
      }
    }
  }
}

class Director::Impl::Trajectory final : public StepTrajectory {
 public:
  explicit Trajectory(Impl& impl) : impl_(impl) {}

  [[nodiscard]] double start() const override { return impl_.solver_->last_step_start(); }
  [[nodiscard]] double end() const override { return impl_.solver_->last_step_end(); }
  [[nodiscard]] std::span<const double> start_state() const override {
    return impl_.solver_ ? impl_.solver_->last_step_start_state() : std::span<const double>();
  }
  [[nodiscard]] std::span<const double> end_state() const override {
    return impl_.solver_ ? impl_.solver_->state() : std::span<const double>();
  }
  void derivatives(double t, std::span<const double> x, std::span<double> dxdt) override {
    impl_.rhs_on_solution(t, x.data(), dxdt.data());
    ++impl_.extra_rhs_;
  }
  void guards(double t, std::span<const double> x, std::span<double> g) override {
    impl_.guards_at(t, x.data(), g);
  }
  void guards_on_dense_output(double t, std::span<double> g) override { impl_.guards_inside_step(t, g); }

 private:
  Impl& impl_;
};

void Director::Impl::guards_inside_step(double t, std::span<double> g) {
  if (!solver_) {
    guards_at(t, b_.x_storage.data(), g);
    return;
  }
  dense_state(t, dense_.data());
  guards_at(t, dense_.data(), g);
}

void Director::Impl::guards_at(double t, const double* x, std::span<double> g) {
  b_.x = const_cast<double*>(x);  // read only: actors get states() as const
  evaluate(guard_outputs_, t);
  evaluate_guards(t, g);
  b_.x = b_.x_storage.data();
}

std::string Director::Impl::guard_label(GuardId guard) const {
  const ActorId d = guards_.owner[guard.index()];
  const std::size_t index = guard.value() - b_.actors[d.index()].guards.offset.index();
  std::string name = actors_[d.index()]->guard_name(index);
  return name.empty() ? std::to_string(index) : "'" + name + "'";
}

std::optional<Tick> Director::Impl::check_step(double t0, double& t1) {
  evaluate_guards(t1, guards_.locator.end_values());
  if (!guards_.locator.crossed()) {
    guards_.locator.accept();
    return std::nullopt;
  }
  if (options_.events == EventMode::kNone) {  // checked at step ends only, no location
    const Tick te = std::max(resolution_.to_ticks(t1), now_.time + 1);
    fire_state_events(te, {t0, t1, 0}, t1);
    return te;
  }
  const double rejected_t1 = t1;
  const double planned = solver_ ? solver_->planned_step() : 0.0;
  int iterations = 0;
  Trajectory trajectory(*this);
  for (int round = 0;; ++round) {
    if (round > kMaxLocationRounds) {
      throw Failure{"the state-event search did not settle between t = " + format_double(t0) + " and " +
                        format_double(t1) + " s (the guards disagree with the solver's steps)",
                    ""};
    }
    const LocatedEvent located = guards_.locator.locate(trajectory, t0, t1, now_.time);
    const LocatedCrossing& found = located.bracket;
    iterations += found.iterations;
    if (trace_ != nullptr)
      trace_->step_reject(t0, t1, flat(guards_.owner[guards_.locator.first_located().index()]).path);
    const Tick te = located.tick;
    const double te_s = resolution_.to_seconds(te);
    if (te_s == t1) {
      evaluate_all(t1);  // the search left the outputs at its last trial time
      fire_state_events(te, found, rejected_t1, iterations);
      return te;
    }
    // The interpolant's roundoff is a few ulps of the states over the whole
    // step: a crossing very early in a long step (a ball coming to rest,
    // flights of 1e-8 s in steps of 0.5 s) is integrated again instead.
    const bool integrate =
        options_.event_state == EventState::kIntegrated || te_s - t0 < kShortCut * (t1 - t0);
    if (solver_ && te_s > t1) {
      // The step ended between two ticks and the guards crossed in its last
      // fraction of a tick: the first tick at which they have crossed is
      // after the step's end, so there is nothing to cut or to integrate
      // again. The solver goes on to that tick instead (less than a tick;
      // with a coarse time resolution and a fixed step, maybe several steps),
      // so that the state at the event is still the state at te.
      record_interval_points(t0, t1, /*dense=*/true);  // while the interpolant is there
      while (t1 < te_s) {
        const double t_end = t1;
        t1 = step_to_event(te_s);
        // (a step too short to integrate has no interpolant: the state did not change)
        record_interval_points(t_end, t1, /*dense=*/OdeSolver::resolves(t_end, t1));
        stop_if_asked();  // steps shorter than a tick: as many as fit in one
      }
      interval_rows_done_ = true;
      planned_step_ = std::min(planned, 4 * (te_s - t0));  // as after a cut, below
    } else if (solver_ && integrate) {                     // integrate [t0, te] again: x(te) is a step's end
      solver_->redo_to(t0);
      t1 = step_to_event(te_s);
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
    evaluate_guards(t1, guards_.locator.end_values());
    if (!guards_.locator.crossed()) {
      if (t1 == te_s && (te == now_.time + 1 || !OdeSolver::resolves(t0, te_s))) {
        // The crossing is within a tick of the step's start, or closer to
        // it than the solver can integrate (a tick is a few ulps of t late
        // in a long run): the states cannot be told apart, and it fires
        // here, as the search found it.
        guards_.locator.take_located();
        fire_state_events(te, found, rejected_t1, iterations);
        return te;
      }
      guards_.locator.accept();  // the crossing is later (by a few ulps of the interpolant): take [t0, t1]
      planned_step_ = 0;         // no event: no restart
      return std::nullopt;
    }
    if (t1 != te_s) continue;  // a shorter redone step that crossed already: search it
    fire_state_events(te, found, rejected_t1, iterations);
    return te;
  }
}

double Director::Impl::step_to_event(double te) {
  const StepResult r = step_solver(te);
  if (!r.ok()) {
    throw Failure{std::string("the ODE solver failed stepping to a state event (") +
                      ctde::to_string(r.status) + "): " + r.message,
                  ""};
  }
  return r.t_reached;
}

void Director::Impl::fire_state_events(Tick te, const LocatedCrossing& found, double rejected_t1,
                                       int iterations) {
  const Tag tag = te == now_.time ? Tag{te, now_.microstep + 1} : Tag{te, 0};
  for (GuardId guard{0}; guard.index() < guards_.locator.size(); ++guard) {
    const Crossing c = guards_.locator.event(guard);
    if (c == Crossing::kNone) continue;
    const EventRhythm rhythm = guards_.locator.fire(guard, te);
    if (rhythm.kind != EventRhythm::Kind::kNormal) unresolved_events(guard, rhythm, te);
    queue_crossing(guard, c, tag, found.tb - found.ta, guards_.locator.residual(guard), iterations,
                   rejected_t1);
  }
}

void Director::Impl::queue_crossing(GuardId guard, Crossing c, const Tag& tag, double bracket,
                                    double residual, int iterations, double rejected_t1) {
  const ActorId d = guards_.owner[guard.index()];
  b_.crossed[guard.index()] = static_cast<std::uint8_t>(c);
  ++stats_.state_events;
  if (trace_ != nullptr) {
    const std::size_t index = guard.value() - b_.actors[d.index()].guards.offset.index();
    const std::string name = actors_[d.index()]->guard_name(index);
    trace_->state_event(
        tag, {flat(d).path, name, index, to_string(c), bracket, residual, iterations, rejected_t1});
  }
  if ((flags_[d.index()] & kStateEvent) == 0) {
    flags_[d.index()] |= kStateEvent;
    scheduler_.queue(tag, d);
  }
}

void Director::Impl::unresolved_events(GuardId guard, const EventRhythm& rhythm, Tick te) const {
  const ActorId d = guards_.owner[guard.index()];
  const std::string who = flat(d).path + " (" + actors_[d.index()]->type() + "), guard " + guard_label(guard);
  const std::string when = "t = " + format_double(resolution_.to_seconds(rhythm.previous)) + " s";
  if (rhythm.kind == EventRhythm::Kind::kChattering) {
    throw Failure{"chattering: " + who + " crossed again at once after its event at " + when +
                      " (the event does not move the guard away from zero, so it would fire "
                      "forever at this time)",
                  flat(d).path};
  }
  throw Failure{"Zeno behaviour: " + who + " fired " + std::to_string(EventLocator::kZenoEvents + 1) +
                    " times in a row at most " + std::to_string(EventLocator::kZenoTicks) +
                    " ticks apart, the last two at " + when +
                    " and t = " + format_double(resolution_.to_seconds(te)) + " s" +
                    "; its events accumulate here, and the model does not say what happens after "
                    "(stop the run before this time, or model the resting state, e.g. with a mode)",
                flat(d).path};
}

void Director::Impl::start_guards() {
  if (parts_) {
    const double t = resolution_.to_seconds(now_.time);
    for (SolverPart& p : parts_->list) {
      evaluate_part_guards(p, t, p.locator.end_values());
      p.locator.start();
    }
    return;
  }
  if (guards_.generators.empty()) return;
  evaluate_guards(resolution_.to_seconds(now_.time), guards_.locator.end_values());
  guards_.locator.start();
}

void Director::Impl::microstep_crossings() {
  if (parts_) {
    parts_microstep_crossings();
    return;
  }
  const double t = resolution_.to_seconds(now_.time);
  const Tag tag{now_.time, now_.microstep + 1};
  const std::span<double> g = guards_.locator.end_values();
  if (guards_.moved) {
    evaluate_guards(t, g);
    guards_.current = true;  // after_events reads them
    for (GuardId i{0}; i.index() < g.size(); ++i) microstep_crossing(i, tag, t);
  } else {  // only generators fired: their own guards (a detector firing at its crossing moves nothing)
    for (const ActorId d : guards_.fired_generators) {
      const GuardSlice slice = b_.actors[d.index()].guards;
      const ReadContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d.index()]->guards(context, g.subspan(slice.offset.index(), slice.width)); });
      for (GuardId i = slice.offset; i.index() < slice.past_end(); ++i) microstep_crossing(i, tag, t);
    }
  }
  guards_.moved = false;
  guards_.fired_generators.clear();
}

void Director::Impl::microstep_crossing(GuardId guard, const Tag& tag, double t) {
  // A guard that fired at a located crossing in this phase settles after
  // the phase (after_events): its event may take several microsteps.
  if (guards_.locator.fired(guard)) return;
  const std::size_t i = guard.index();
  const double value = guards_.locator.end_values()[i];
  if (!std::isfinite(value)) {
    const ActorId d = guards_.owner[i];
    throw Failure{flat(d).path + ": guard " + guard_label(guard) + " is " + format_double(value) +
                      " at t = " + format_double(t) + " s",
                  flat(d).path};
  }
  // Crossed by values that jumped at this microstep: an event of superdense
  // time, one per crossing (a level crossed and crossed back in two
  // microsteps is two events). The bound on microsteps ends a loop.
  const Crossing c = guards_.locator.microstep_crossing(guard, now_.time);  // it takes its new side
  if (c == Crossing::kNone) return;
  queue_crossing(guard, c, tag, 0.0, guards_.locator.residual(guard), 0, t);
}

bool Director::Impl::settle_guards() {
  if (parts_) return parts_after_events();
  const double t = resolution_.to_seconds(now_.time);
  if (!std::exchange(guards_.current, false)) evaluate_guards(t, guards_.locator.end_values());
  const bool slope_needed = guards_.locator.needs_slopes();
  if (slope_needed) guard_slopes(t);
  if (guards_.locator.settle(slope_needed ? std::span<const double>(guards_.slopes)
                                          : std::span<const double>())) {
    fire_state_events(now_.time, {t, t, 0}, t);
    ++now_.microstep;
    return true;
  }
  return false;
}

void Director::Impl::guard_slopes(double t) {
  const double h = 1e-7 * std::max(1.0, std::abs(t));
  if (!b_.x_storage.empty()) {
    rhs_on_solution(t, b_.x_storage.data(), guards_.probe_dx.data());
    ++extra_rhs_;
    for (std::size_t k = 0; k < guards_.probe_x.size(); ++k)
      guards_.probe_x[k] = b_.x_storage[k] + h * guards_.probe_dx[k];
    b_.x = guards_.probe_x.data();
  }
  evaluate_all(t + h);
  evaluate_guards(t + h, guards_.slopes);
  b_.x = b_.x_storage.data();
  evaluate_all(t);
  const std::span<const double> g = guards_.locator.end_values();
  for (std::size_t i = 0; i < guards_.slopes.size(); ++i) guards_.slopes[i] = (guards_.slopes[i] - g[i]) / h;
}

}  // namespace ctde
