// The director's state events: guards, the search for the earliest crossing
// in a step (docs/semantics.md), firing the generators there.
#include "domains/ctde/director_impl.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/format.hpp"

namespace ctde {

void Director::Impl::evaluate_guards(double t, std::span<double> g) {
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

void Director::Impl::guards_inside_step(void* user, double t, std::span<double> g) {
  auto& self = *static_cast<Impl*>(user);
  if (!self.solver_) {
    self.guards_at(t, self.b_.x_storage.data(), g);
    return;
  }
  self.dense_state(t, self.dense_.data());
  self.guards_at(t, self.dense_.data(), g);
}

void Director::Impl::guards_at(double t, const double* x, std::span<double> g) {
  b_.x = const_cast<double*>(x);  // read only: actors get states() as const
  evaluate(guard_outputs_, t);
  evaluate_guards(t, g);
  b_.x = b_.x_storage.data();
}

void Director::Impl::guards_on_cubic(void* user, double t, std::span<double> g) {
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

void Director::Impl::prepare_cubic() {
  const std::span<const double> x0 = solver_->last_step_start_state();
  rhs_on_solution(solver_->last_step_start(), x0.data(), cubic_f0_.data());
  rhs_on_solution(solver_->last_step_end(), solver_->state().data(), cubic_f1_.data());
  extra_rhs_ += 2;
}

LocatedCrossing Director::Impl::search(double t0, double t1, std::span<const double> g0, double tolerance) {
  const double tick = resolution_.seconds_per_tick();
  std::copy(g0.begin(), g0.end(), g_a_.begin());
  std::copy(g_end_.begin(), g_end_.end(), g_b_.begin());
  if (!solver_)
    return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &Impl::guards_inside_step, this);
  if (t0 == solver_->last_step_start()) prepare_cubic();
  return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &Impl::guards_on_cubic, this);
}

LocatedCrossing Director::Impl::polish(LocatedCrossing found, double t0, double t1,
                                       std::span<const double> g0, double tolerance) {
  const double tick = resolution_.seconds_per_tick();
  // The bracket on the dense output (its ends at t0 and t1 are exact).
  if (found.ta > t0)
    guards_inside_step(this, found.ta, g_a_);
  else
    std::copy(g0.begin(), g0.end(), g_a_.begin());
  if (found.tb < t1)
    guards_inside_step(this, found.tb, g_b_);
  else
    std::copy(g_end_.begin(), g_end_.end(), g_b_.begin());
  found.iterations += (found.ta > t0 ? 1 : 0) + (found.tb < t1 ? 1 : 0);
  const bool before = !guards_.any_event(g_a_);
  const bool after = guards_.any_event(g_b_);
  if (before && after) return found;
  // The interpolants disagree near the crossing (by the cubic's error, or
  // by roundoff at a one-tick bracket): walk from the failed end away from
  // it, 1, 2, 4, ... ticks, to a bracket on the dense output, and search it.
  const bool later = before;  // else crossed already at ta: look earlier (the earliest crossing wins)
  double near = later ? found.tb : found.ta;  // the end on the wrong side
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

bool Director::Impl::rearm_shifted_guards(double t0, const LocatedCrossing& found) {
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

std::string Director::Impl::guard_label(std::uint32_t guard) const {
  const std::uint32_t d = guard_owner_[guard];
  const std::size_t index = guard - b_.actors[d].guards.offset;
  std::string name = actors_[d]->guard_name(index);
  return name.empty() ? std::to_string(index) : "'" + name + "'";
}

std::optional<Tick> Director::Impl::check_step(double t0, double& t1) {
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
    } else if (solver_ && integrate) {  // integrate [t0, te] again: x(te) is a step's end
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
      accept_guards();    // the crossing is later (by a few ulps of the interpolant): take [t0, t1]
      planned_step_ = 0;  // no event: no restart
      return std::nullopt;
    }
    if (t1 != te_s) continue;  // a shorter redone step that crossed already: search it
    fire_state_events(te, te_s, found, rejected_t1, iterations);
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

Tick Director::Impl::event_tick(const LocatedCrossing& found) {
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

std::uint32_t Director::Impl::first_event_owner(std::span<const double> g) const {
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (guards_.event(i, g[i]) != Crossing::kNone) return guard_owner_[i];
  }
  return guard_owner_.front();
}

void Director::Impl::accept_guards() {
  guards_.commit(g_end_);
  std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
}

void Director::Impl::fire_state_events(Tick te, double te_s, const LocatedCrossing& found, double rejected_t1,
                                       int iterations) {
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

void Director::Impl::check_chattering(std::uint32_t guard, Tick te) {
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
                    " ticks apart, the last two at " + when +
                    " and t = " + format_double(resolution_.to_seconds(te)) + " s" +
                    "; its events accumulate here, and the model does not say what happens after "
                    "(stop the run before this time, or model the resting state, e.g. with a mode)",
                flat(d).path};
}

void Director::Impl::start_guards() {
  if (generators_.empty()) return;
  evaluate_guards(resolution_.to_seconds(now_.time), g_start_);
  guards_.start(g_start_);
}

void Director::Impl::microstep_crossings() {
  const double t = resolution_.to_seconds(now_.time);
  const Tag tag{now_.time, now_.microstep + 1};
  if (guards_moved_) {
    evaluate_guards(t, g_end_);
    guards_current_ = true;  // after_events reads them
    for (std::size_t i = 0; i < g_end_.size(); ++i) microstep_crossing(i, tag, t);
  } else {  // only generators fired: their own guards (a detector firing at its crossing moves nothing)
    for (const std::uint32_t d : fired_generators_) {
      const Slice slice = b_.actors[d].guards;
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->guards(context, std::span<double>(g_end_).subspan(slice.offset, slice.width)); });
      for (std::uint32_t i = slice.offset; i < slice.offset + slice.width; ++i) microstep_crossing(i, tag, t);
    }
  }
  guards_moved_ = false;
  fired_generators_.clear();
}

void Director::Impl::microstep_crossing(std::size_t i, const Tag& tag, double t) {
  // A guard that fired at a located crossing in this phase settles after
  // the phase (after_events): its event may take several microsteps.
  if (fired_[i] != Crossing::kNone) return;
  if (!std::isfinite(g_end_[i])) {
    const std::uint32_t d = guard_owner_[i];
    throw Failure{flat(d).path + ": guard " + guard_label(static_cast<std::uint32_t>(i)) + " is " +
                      format_double(g_end_[i]) + " at t = " + format_double(t) + " s",
                  flat(d).path};
  }
  const Crossing c = guards_.event(i, g_end_[i]);
  guards_.commit(i, g_end_[i]);  // the side it is on after this microstep
  if (c == Crossing::kNone) return;
  // Crossed by values that jumped at this microstep: an event of superdense
  // time, one per crossing (a level crossed and crossed back in two
  // microsteps is two events). The bound on microsteps ends a loop.
  const std::uint32_t d = guard_owner_[i];
  last_fired_[i] = now_.time;
  b_.crossed[i] = static_cast<std::uint8_t>(c);
  ++stats_.state_events;
  if (trace_ != nullptr) {
    const std::size_t index = i - b_.actors[d].guards.offset;
    trace_->state_event(tag, t, {flat(d).path, actors_[d]->guard_name(index), index, to_string(c), 0.0,
                                 g_end_[i] - guards_.level(i), 0, t});
  }
  if ((flags_[d] & kStateEvent) == 0) {
    flags_[d] |= kStateEvent;
    queue_.insert(Event::at(tag, d));
  }
}

bool Director::Impl::after_events() {
  if (generators_.empty()) return false;
  const double t = resolution_.to_seconds(now_.time);
  if (!std::exchange(guards_current_, false)) evaluate_guards(t, g_end_);
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

void Director::Impl::guard_slopes(double t) {
  const double h = 1e-7 * std::max(1.0, std::abs(t));
  if (!b_.x_storage.empty()) {
    rhs_on_solution(t, b_.x_storage.data(), probe_dx_.data());
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

}  // namespace ctde
