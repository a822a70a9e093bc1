// SecondOrderSolver's guards: the step the event locator searches
// (event_locator.hpp), the event the step shown to check_step then ends at, and
// what a take answer does with it: the guards fire and settle, as the director's
// do (domains/ctde/continuous_phase_events.cpp; docs/second-order.md, "Guards").
#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/trace.hpp"
#include "domains/ct/second_order_impl.hpp"

namespace ctde {

class SecondOrderSolver::Impl::Trajectory final : public StepTrajectory {
 public:
  explicit Trajectory(Impl& s) : s_(s) {}

  [[nodiscard]] double start() const override { return s_.ode->last_step_start(); }
  [[nodiscard]] double end() const override { return s_.ode->last_step_end(); }
  [[nodiscard]] std::span<const double> start_state() const override {
    return s_.ode->last_step_start_state();
  }
  [[nodiscard]] std::span<const double> end_state() const override { return s_.ode->state(); }
  void derivatives(double t, std::span<const double> x, std::span<double> dxdt) override {
    std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(s_.m), s_.m, dxdt.begin());
    s_.evaluate_counted(t, x.data(), dxdt.data() + s_.m);
  }
  void guards(double t, std::span<const double> x, std::span<double> g) override {
    s_.guards_at(t, x.data(), g);
  }
  void guards_on_dense_output(double t, std::span<double> g) override {
    s_.ode->dense_output(t, s_.x_probe.data());
    s_.guards_at(t, s_.x_probe.data(), g);
  }

 private:
  Impl& s_;
};

void SecondOrderSolver::Impl::guards_at(double t, const double* x, std::span<double> g) {
  ++counters.guard_evals;
  problem.guard(t, x, x + m, g.data(), problem.guard_user);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!std::isfinite(g[i])) {
      throw RunError(concat({"SecondOrderSolver: the guard function gave the non-finite g[",
                             std::to_string(i), "] = ", format_double(g[i]), " at t = ", format_double(t)}));
    }
  }
}

void SecondOrderSolver::Impl::start_guards(double t0) {
  locator = EventLocator(problem.directions, options.resolution, options.guard_tolerance, 2 * m);
  crossings.assign(problem.guards, Crossing::kNone);
  slopes.assign(problem.guards, 0.0);
  x_probe.assign(2 * m, 0.0);
  guards_at(t0, x_now.data(), locator.end_values());
  locator.start();
}

double SecondOrderSolver::Impl::check_guards(double t0, double t1) {
  event.reset();
  std::fill(crossings.begin(), crossings.end(), Crossing::kNone);
  try {
    return locate_event(t0, t1);
  } catch (...) {
    if (ode->current_time() != t0) ode->redo_to(t0);
    throw;
  }
}

double SecondOrderSolver::Impl::locate_event(double t0, double t1) {
  guards_at(t1, x_end.data(), locator.end_values());
  if (!locator.crossed()) return t1;
  const TimeResolution& resolution = options.resolution;
  const Tick after = resolution.to_ticks(t0);  // the step's start: the event is later
  Event found{kNever, {}, 0, t1, ode->planned_step()};
  Trajectory trajectory(*this);
  for (int round = 0;; ++round) {
    if (round > EventLocator::kMaxLocationRounds) unsettled(t0, t1);
    const LocatedEvent located = locator.locate(trajectory, t0, t1, after);
    found.tick = located.tick;
    found.bracket = located.bracket;
    found.iterations += located.bracket.iterations;
    if (options.trace != nullptr) options.trace->step_reject(t0, t1, options.trace_name);
    const double te = resolution.to_seconds(located.tick);
    // The first tick at which the guards have crossed is after the step's end (the
    // crossing is in its last fraction of a tick): the event is shown at t1.
    if (te >= t1) return show_event(found, t1);
    if (te - t0 >= EventLocator::kShortCut * (t1 - t0)) {  // the step is cut at te, on its dense output
      ode->dense_output(te, x_end.data());
      guards_at(te, x_end.data(), locator.end_values());
      return confirm(found, t0, te, after);
    }
    // The interpolant's roundoff is a few ulps of the states over the whole step: a
    // crossing very early in a long step (a ball coming to rest) is integrated again.
    ode->redo_to(t0);
    const StepResult result = ode->step(te);
    if (!result.ok()) solver_failed(result);
    t1 = result.t_reached;
    ++found.iterations;
    const std::span<const double> x1 = ode->state();
    std::copy(x1.begin(), x1.end(), x_end.begin());
    guards_at(t1, x_end.data(), locator.end_values());
    if (t1 == te) return confirm(found, t0, te, after);
    if (!locator.crossed()) return t1;  // a shorter redone step, before the crossing: a step of its own
    // a shorter redone step that crossed already: search it
  }
}

double SecondOrderSolver::Impl::confirm(const Event& found, double t0, double te, Tick after) {
  if (!locator.crossed()) {
    // The crossing is later by a few ulps of the interpolant: the step ends at te
    // without an event, and the next one finds it.
    if (found.tick != after + 1 && OdeSolver::resolves(t0, te)) return te;
    // Within a tick of the step's start, or closer to it than the solver can
    // integrate: the states cannot be told apart, and it fires as the search found it.
    locator.take_located();
  }
  return show_event(found, te);
}

double SecondOrderSolver::Impl::show_event(const Event& found, double t1) {
  event = found;
  for (GuardId i{0}; i.index() < locator.size(); ++i) crossings[i.index()] = locator.event(i);
  return t1;
}

void SecondOrderSolver::Impl::unsettled(double t0, double t1) const {
  throw RunError(concat(
      {"SecondOrderSolver::run: the search for a guard's crossing did not settle between t = ",
       format_double(t0), " and ", format_double(t1), " s (the guards disagree with the solver's steps)"}));
}

void SecondOrderSolver::Impl::fire_events(double t0) {
  const Tick te = event->tick;
  for (GuardId i{0}; i.index() < locator.size(); ++i) {
    const Crossing c = locator.event(i);
    if (c == Crossing::kNone) continue;
    const EventRhythm rhythm = locator.fire(i, te);
    if (rhythm.kind != EventRhythm::Kind::kNormal) {
      ode->redo_to(t0);
      unresolved_events(i, rhythm, te);
    }
    ++counters.state_events;
    if (options.trace != nullptr) {
      const LocatedCrossing& bracket = event->bracket;
      options.trace->state_event(Tag{te, 0},
                                 {options.trace_name, "", i.index(), to_string(c), bracket.tb - bracket.ta,
                                  locator.residual(i), event->iterations, event->rejected_t1});
    }
  }
}

void SecondOrderSolver::Impl::unresolved_events(GuardId guard, const EventRhythm& rhythm, Tick te) const {
  throw RunError(
      concat({"SecondOrderSolver::run: ",
              EventLocator::unresolved_message(
                  rhythm, "guard " + std::to_string(guard.index()), options.resolution, te,
                  "the problem does not say what happens after (stop before this time, or model the "
                  "resting state)")}));
}

void SecondOrderSolver::Impl::settle_guards(double t, bool adjusted) {
  if (adjusted) guards_at(t, x_end.data(), locator.end_values());
  if (!event) {
    locator.accept();
    return;
  }
  event.reset();
  const bool slopes_needed = locator.needs_slopes();
  if (slopes_needed) guard_slopes(t);
  // A guard that the adjusted state put across zero, without crossing in the step
  // itself, takes its new side without an event: the adjustment is check_step's own
  // jump (the director would fire it at the next microstep; there are none here).
  if (locator.settle(slopes_needed ? std::span<const double>(slopes) : std::span<const double>())) {
    locator.accept();
  }
}

void SecondOrderSolver::Impl::guard_slopes(double t) {
  // The director's difference (guard_slopes there): one step of h along the flow.
  const double h = EventLocator::slope_step(t);
  const double* a = acceleration_now();
  for (std::size_t i = 0; i < m; ++i) {
    x_probe[i] = x_end[i] + h * x_end[m + i];
    x_probe[m + i] = x_end[m + i] + h * a[i];
  }
  guards_at(t + h, x_probe.data(), slopes);
  const std::span<const double> g = locator.end_values();
  for (std::size_t i = 0; i < slopes.size(); ++i) slopes[i] = (slopes[i] - g[i]) / h;
}

void SecondOrderSolver::Impl::trace_switch(double t1) const {
  if (options.trace == nullptr) return;
  const std::string& why = ode->method_switch();
  options.trace->solver(Tag{options.resolution.to_ticks_clamped(t1), 0}, 0, why.substr(0, why.find(':')),
                        ode->linear_solver(), why);
}

RunStatistics SecondOrderStatistics::run_statistics() const {
  RunStatistics out;
  out.steps = static_cast<std::uint64_t>(ode.steps);
  out.rejected_steps = static_cast<std::uint64_t>(ode.error_test_failures);
  out.rhs_evals = static_cast<std::uint64_t>(ode.rhs_evals + acceleration_evals);
  out.state_events = static_cast<std::uint64_t>(state_events);
  return out;
}

}  // namespace ctde
