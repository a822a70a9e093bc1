#include "domains/ct/event_locator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/format.hpp"

namespace ctde {

EventLocator::EventLocator(std::vector<Crossing> directions, TimeResolution resolution, double tolerance,
                           std::size_t state_size, const std::vector<ZeroSide>& zero_sides)
    : guards_(std::move(directions), zero_sides), resolution_(resolution), tolerance_(tolerance) {
  const std::size_t n = guards_.size();
  for (auto* g : {&g_start_, &g_end_, &g_a_, &g_b_, &g_trial_, &g_mid_, &g_before_}) g->assign(n, 0.0);
  fired_.assign(n, Crossing::kNone);
  last_fired_.assign(n, kNever);
  close_events_.assign(n, 0);
  if (n > 0) {
    for (auto* x : {&cubic_x_, &cubic_f0_, &cubic_f1_}) x->assign(state_size, 0.0);
  }
}

void EventLocator::start() {
  std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
  guards_.start(g_start_);
}

void EventLocator::accept() {
  guards_.commit(g_end_);
  std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
}

void EventLocator::on_cubic(void* user, double t, std::span<double> g) {
  const auto& reader = *static_cast<Reader*>(user);
  reader.self->guards_on_cubic(*reader.trajectory, t, g);
}

void EventLocator::on_dense(void* user, double t, std::span<double> g) {
  static_cast<Reader*>(user)->trajectory->guards_on_dense_output(t, g);
}

void EventLocator::read_step(const StepTrajectory& trajectory) {
  step_x0_ = trajectory.start_state();
  if (step_x0_.empty()) return;
  step_x1_ = trajectory.end_state();
  step_t0_ = trajectory.start();
  step_h_ = trajectory.end() - step_t0_;
}

void EventLocator::guards_on_cubic(StepTrajectory& trajectory, double t, std::span<double> g) {
  const double h = step_h_;
  const double s = (t - step_t0_) / h;
  const double r = 1 - s;
  const double c0 = (1 + 2 * s) * r * r;
  const double d0 = h * s * r * r;
  const double c1 = s * s * (3 - 2 * s);
  const double d1 = -h * s * s * r;
  const double* x0 = step_x0_.data();
  const double* x1 = step_x1_.data();
  const double* f0 = cubic_f0_.data();
  const double* f1 = cubic_f1_.data();
  double* x = cubic_x_.data();
  for (std::size_t k = 0; k < step_x0_.size(); ++k) x[k] = c0 * x0[k] + d0 * f0[k] + c1 * x1[k] + d1 * f1[k];
  trajectory.guards(t, cubic_x_, g);
}

void EventLocator::prepare_cubic(StepTrajectory& trajectory) {
  trajectory.derivatives(step_t0_, step_x0_, cubic_f0_);
  trajectory.derivatives(step_t0_ + step_h_, step_x1_, cubic_f1_);
}

LocatedEvent EventLocator::locate(StepTrajectory& trajectory, double t0, double t1, Tick after) {
  read_step(trajectory);
  const bool states = !step_x0_.empty();
  // A guard crossing again in the step that starts at its own last event
  // is searched to one tick, so that chattering shows as such.
  double tolerance = tolerance_;
  for (std::size_t i = 0; i < g_end_.size(); ++i) {
    if (last_fired_[i] == after && guards_.event(i, g_end_[i]) != Crossing::kNone) tolerance = 0;
  }
  LocatedCrossing found = search(trajectory, t0, t1, g_start_, tolerance);
  // A guard armed at a shifted level (resting just past zero after its
  // event) whose first crossing in this step is of that level: if it was
  // beyond zero halfway there (a bounce, not a rest: with long steps no
  // step end in between saw it), its level is 0 again, and the search
  // goes on from that point. No other guard crosses before it.
  double ts = t0;
  std::span<const double> gs = g_start_;
  if (states && rearm_shifted_guards(trajectory, t0, found)) {
    ts = 0.5 * (t0 + found.tb);
    gs = g_mid_;
    const LocatedCrossing again = search(trajectory, ts, t1, gs, tolerance);
    found = {again.ta, again.tb, found.iterations + again.iterations};
  }
  if (states) found = polish(trajectory, found, ts, t1, gs, tolerance);
  return {found, event_tick(trajectory, found, after)};
}

LocatedCrossing EventLocator::search(StepTrajectory& trajectory, double t0, double t1,
                                     std::span<const double> g0, double tolerance) {
  const double tick = resolution_.seconds_per_tick();
  std::copy(g0.begin(), g0.end(), g_a_.begin());
  std::copy(g_end_.begin(), g_end_.end(), g_b_.begin());
  Reader reader{this, &trajectory};
  if (step_x0_.empty())
    return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &EventLocator::on_dense, &reader);
  if (t0 == step_t0_) prepare_cubic(trajectory);
  return guards_.locate(t0, t1, g_a_, g_b_, g_trial_, tick, tolerance, &EventLocator::on_cubic, &reader);
}

LocatedCrossing EventLocator::polish(StepTrajectory& trajectory, LocatedCrossing found, double t0, double t1,
                                     std::span<const double> g0, double tolerance) {
  const double tick = resolution_.seconds_per_tick();
  // The bracket on the dense output (its ends at t0 and t1 are exact).
  if (found.ta > t0)
    trajectory.guards_on_dense_output(found.ta, g_a_);
  else
    std::copy(g0.begin(), g0.end(), g_a_.begin());
  if (found.tb < t1)
    trajectory.guards_on_dense_output(found.tb, g_b_);
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
  double far = 0;  // set by the walk's first step
  for (double step = tick;; step *= 2) {
    far = later ? std::min(near + step, t1) : std::max(near - step, t0);
    if (far == (later ? t1 : t0)) {
      const std::span<const double> exact = later ? std::span<const double>(g_end_) : g0;
      std::copy(exact.begin(), exact.end(), g_near.begin());
    } else {
      trajectory.guards_on_dense_output(far, g_near);
      ++found.iterations;
    }
    if (guards_.any_event(g_near) == later) break;  // the crossing is between near and far
    near = far;
    std::copy(g_near.begin(), g_near.end(), g_far.begin());
  }
  const double ta = later ? near : far;  // g_a_ holds the values at ta, g_b_ at tb
  const double tb = later ? far : near;
  Reader reader{this, &trajectory};
  const LocatedCrossing again =
      guards_.locate(ta, tb, g_a_, g_b_, g_trial_, tick, tolerance, &EventLocator::on_dense, &reader);
  return {again.ta, again.tb, found.iterations + again.iterations};
}

bool EventLocator::rearm_shifted_guards(StepTrajectory& trajectory, double t0, const LocatedCrossing& found) {
  bool probed = false;
  bool rearmed = false;
  for (std::size_t i = 0; i < g_b_.size(); ++i) {
    if (guards_.level(i) == 0.0 || guards_.event(i, g_b_[i]) == Crossing::kNone) continue;
    if (!probed) {
      guards_on_cubic(trajectory, 0.5 * (t0 + found.tb), g_mid_);
      probed = true;
    }
    if (guards_.rearm(i, g_mid_[i])) rearmed = true;
  }
  return rearmed;
}

Tick EventLocator::event_tick(StepTrajectory& trajectory, const LocatedCrossing& found, Tick after) {
  // The bracket (ta, tb] is at most a tick wide (unless a tolerance ended
  // the search): the tick below tb may lie inside it, before or after the
  // crossing; the nearest tick to tb may be above tb.
  Tick te = resolution_.to_ticks(found.tb);
  const double at = resolution_.to_seconds(te);
  const Tick inside = at < found.tb ? te : te - 1;  // the tick below tb
  const double inside_s = resolution_.to_seconds(inside);
  bool crossed = false;
  if (inside_s > found.ta && inside_s < found.tb) {
    trajectory.guards_on_dense_output(inside_s, g_trial_);
    crossed = guards_.any_event(g_trial_);
  }
  if (crossed)
    te = inside;
  else if (at < found.tb)
    ++te;
  return std::max(te, after + 1);
}

GuardId EventLocator::first_located() const {
  for (std::size_t i = 0; i < g_b_.size(); ++i) {
    if (guards_.event(i, g_b_[i]) != Crossing::kNone) return GuardId::at(i);
  }
  return GuardId{0};
}

void EventLocator::take_located() { std::copy(g_b_.begin(), g_b_.end(), g_end_.begin()); }

namespace {

/// Where a double's spacing at time t is wider than a tick, the solver's time
/// cannot move by one tick: a guard crossed at an event is found crossed
/// again at once. Says so, or nothing where ticks are fine.
std::string precision_hint(const TimeResolution& resolution, double t) {
  const double spacing = std::nextafter(std::abs(t), std::numeric_limits<double>::infinity()) - std::abs(t);
  if (spacing <= resolution.seconds_per_tick()) return {};
  constexpr const char* kAdvice =
      " s), so the solver cannot resolve single ticks there: a coarser director time_resolution (such as "
      "1e-9) "
      "resolves it";
  return concat({"; at t = ", format_double(t), " s a double's spacing (", format_double(spacing),
                 " s) is wider than the time resolution (", format_double(resolution.seconds_per_tick()),
                 kAdvice});
}

}  // namespace

std::string EventLocator::unresolved_message(const EventRhythm& rhythm, std::string_view who,
                                             const TimeResolution& resolution, Tick te,
                                             std::string_view zeno_advice) {
  const std::string when = "t = " + format_double(resolution.to_seconds(rhythm.previous)) + " s";
  if (rhythm.kind == EventRhythm::Kind::kChattering) {
    return concat(
        {"chattering: ", who, " crossed again at once after its event at ", when,
         " (the event does not move the guard away from zero, so it would fire forever at this time)",
         precision_hint(resolution, resolution.to_seconds(rhythm.previous))});
  }
  return concat({"Zeno behaviour: ", who, " fired ", std::to_string(kZenoEvents + 1),
                 " times in a row at most ", std::to_string(kZenoTicks), " ticks apart, the last two at ",
                 when, " and t = ", format_double(resolution.to_seconds(te)),
                 " s; its events accumulate here, and ", zeno_advice,
                 precision_hint(resolution, resolution.to_seconds(te))});
}

EventRhythm EventLocator::fire(GuardId guard, Tick te) {
  const std::size_t i = guard.index();
  fired_[i] = guards_.event(i, g_end_[i]);
  g_before_[i] = g_end_[i];
  const Tick last = last_fired_[i];
  last_fired_[i] = te;
  if (last == kNever) return {};
  const Tick interval = te - last;
  close_events_[i] = interval <= kZenoTicks ? close_events_[i] + 1 : 0;
  if (interval <= 1) return {EventRhythm::Kind::kChattering, last};
  if (close_events_[i] >= kZenoEvents) return {EventRhythm::Kind::kZeno, last};
  return {EventRhythm::Kind::kNormal, last};
}

Crossing EventLocator::microstep_crossing(GuardId guard, Tick now) {
  const std::size_t i = guard.index();
  // A guard that fired at a located crossing at this time settles after
  // the phase (settle()): its event may take several microsteps.
  if (fired_[i] != Crossing::kNone) return Crossing::kNone;
  const Crossing c = guards_.event(i, g_end_[i]);
  guards_.commit(i, g_end_[i]);  // the side it is on after this microstep
  if (c != Crossing::kNone) last_fired_[i] = now;
  return c;
}

bool EventLocator::needs_slopes() const {
  for (std::size_t i = 0; i < g_end_.size(); ++i) {
    if (fired_[i] != Crossing::kNone && guards_.needs_slope(i, fired_[i], g_end_[i])) return true;
  }
  return false;
}

bool EventLocator::settle(std::span<const double> slopes) {
  bool again = false;
  for (std::size_t i = 0; i < g_end_.size(); ++i) {
    if (fired_[i] != Crossing::kNone) {
      guards_.after_event(i, fired_[i], g_before_[i], g_end_[i], slopes.empty() ? 0.0 : slopes[i],
                          tolerance_);
      fired_[i] = Crossing::kNone;
    } else if (guards_.event(i, g_end_[i]) != Crossing::kNone) {
      again = true;
    } else {
      guards_.commit(i, g_end_[i]);
    }
  }
  if (!again) std::copy(g_end_.begin(), g_end_.end(), g_start_.begin());
  return again;
}

}  // namespace ctde

namespace ctde {

void EventLocator::save(StateWriter& out) const {
  guards_.save(out);
  out.values(g_start_);
  out.values(g_end_);
  out.values(g_before_);
  out.values(fired_);
  out.values(last_fired_);
  out.values(close_events_);
}

void EventLocator::restore(StateReader& in) {
  guards_.restore(in);
  in.values_into(std::span<double>(g_start_));
  in.values_into(std::span<double>(g_end_));
  in.values_into(std::span<double>(g_before_));
  in.values_into(std::span<Crossing>(fired_));
  in.values_into(std::span<Tick>(last_fired_));
  in.values_into(std::span<int>(close_events_));
}

}  // namespace ctde
