// The director's independent parts (docs/semantics.md, "Independent
// subsystems"): when the continuous side falls into parts that share no
// state, no guard and no continuous connection, each part has its own
// integrator and event locator, and the parts step asynchronously in time
// order. The part with the earliest frontier (its solver's time, or its
// located crossing's) takes the next step, so every other part's last step
// covers that time, and its dense output gives its state there. At an event
// only the parts whose actors fire take their state at the event time and
// restart; the others keep their step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/format.hpp"
#include "domains/ctde/continuous_parts.hpp"
#include "domains/ctde/director_parts_impl.hpp"

namespace ctde {

namespace {

/// The elements of `list` (schedule order) in `part`.
std::vector<ActorId> in_part(const std::vector<ActorId>& list, const std::vector<std::uint32_t>& part_of,
                             std::uint32_t part) {
  std::vector<ActorId> mine;
  for (const ActorId d : list) {
    if (part_of[d.index()] == part) mine.push_back(d);
  }
  return mine;
}

}  // namespace

void Director::Impl::lay_out_parts() {
  // Only plain parts split: an explicit adaptive method, located events cut
  // on the dense output, no actor that watches or bounds every step, no
  // step bound, no rows (every row needs every part at its time).
  const bool plain_method = options_.solver == SolverKind::kErk45 || options_.solver == SolverKind::kErk23 ||
                            options_.solver == SolverKind::kRkf45;
  if (options_.subsystems != Subsystems::kSplit || !plain_method || options_.events != EventMode::kNormal ||
      options_.event_state != EventState::kInterpolated || !step_watchers_.empty() ||
      std::isfinite(step_bound_) || (results_ != nullptr && !results_->signals().empty()) ||
      stateful_.size() < 2) {
    return;
  }
  const auto n = static_cast<std::uint32_t>(actors_.size());
  for (const auto& actor : actors_) {
    if (actor->bounds_every_step()) return;
  }
  ContinuousParts graph(n);
  for (ActorId d{0}; d.value() < n; ++d) {
    const FlatActor& actor = flat(d);
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i]) continue;
      const FlatActor& driver = model_.actors[actor.drivers[i]->actor];
      if (driver.mode == TimeMode::kConstant) continue;  // the same value for every part
      if (actor.input_kinds[i] == PortKind::kContinuous || timed_[driver.depth.index()] != 0)
        graph.join(d.value(), driver.depth.value());
    }
  }
  std::vector<std::uint8_t> has_states(n, 0);
  for (const ActorId d : stateful_) has_states[d.index()] = 1;
  std::vector<std::uint32_t> part_of = graph.number(has_states);
  std::uint32_t count = 0;
  for (const std::uint32_t p : part_of) {
    if (p != ContinuousParts::kNoPart) count = std::max(count, p + 1);
  }
  if (count < 2) return;
  // Every guard in a part with states (a guard of time alone is searched
  // with the joined integrator).
  for (const ActorId g : guards_.generators) {
    if (part_of[g.index()] == ContinuousParts::kNoPart) return;
  }
  parts_ = std::make_unique<Parts>();
  Parts& parts = *parts_;
  parts.part_of = std::move(part_of);
  parts.x.assign(b_.x_storage.size(), 0.0);
  parts.dx.assign(b_.x_storage.size(), 0.0);
  parts.list.resize(count);
  parts.touched.reserve(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    SolverPart& p = parts.list[k];
    p.impl = this;
    p.id = k;
    const std::vector<ActorId> stateful = in_part(stateful_, parts.part_of, k);
    for (const ActorId d : stateful) {
      const StateSlice slice = b_.actors[d.index()].states;
      for (std::uint32_t i = 0; i < slice.width; ++i) p.states.push_back(slice.at(i).value());
    }
    p.generators = in_part(guards_.generators, parts.part_of, k);
    std::vector<Crossing> directions;
    std::vector<ZeroSide> zero_sides;
    for (const ActorId d : p.generators) {
      const GuardSlice slice = b_.actors[d.index()].guards;
      p.guard_base.push_back(static_cast<std::uint32_t>(p.guard_ids.size()));
      for (std::uint32_t i = 0; i < slice.width; ++i) {
        p.guard_ids.push_back(slice.at(i));
        directions.push_back(actors_[d.index()]->guard_direction(i));
        zero_sides.push_back(actors_[d.index()]->guard_zero_side(i));
      }
    }
    p.locator = EventLocator(std::move(directions), resolution_, options_.event_tolerance.value_or(0.0),
                             p.states.size(), zero_sides);
    p.outputs = RhsProgram(RhsProgram::Part::kOutputs, in_part(continuous_, parts.part_of, k), actors_, b_);
    p.rhs_outputs =
        RhsProgram(RhsProgram::Part::kOutputs, in_part(rhs_inputs_, parts.part_of, k), actors_, b_);
    p.guard_outputs =
        RhsProgram(RhsProgram::Part::kOutputs, in_part(guard_inputs_, parts.part_of, k), actors_, b_);
    p.derivatives = RhsProgram(RhsProgram::Part::kDerivatives, stateful, actors_, b_);
    p.x.assign(p.states.size(), 0.0);
    p.dx.assign(p.states.size(), 0.0);
    p.slopes.assign(p.guard_ids.size(), 0.0);
  }
}

void Director::Impl::start_parts(const OdeOptions& ode, double t) {
  for (SolverPart& p : parts_->list) {
    OdeProblem problem;
    problem.size = p.states.size();
    problem.rhs = &Impl::part_rhs;
    problem.user = &p;
    OdeOptions mine = ode;
    if (!ode.atol_per_state.empty()) {
      mine.atol_per_state.clear();
      for (const std::uint32_t k : p.states) mine.atol_per_state.push_back(ode.atol_per_state[k]);
    }
    for (std::size_t k = 0; k < p.states.size(); ++k) p.x[k] = b_.x_storage[p.states[k]];
    p.solver.emplace(problem, mine, t, p.x);
  }
}

int Director::Impl::part_rhs(double t, const double* x, double* dxdt, void* user) {
  auto& p = *static_cast<SolverPart*>(user);
  Impl& self = *p.impl;
  Parts& parts = *self.parts_;
  const std::size_t n = p.states.size();
  for (std::size_t k = 0; k < n; ++k) parts.x[p.states[k]] = x[k];
  self.b_.x = parts.x.data();
  const double* dx = parts.dx.data();
  if (!self.compute_derivatives(p.rhs_outputs, p.derivatives, t, parts.dx.data(), x)) return 1;
  for (std::size_t k = 0; k < n; ++k) {
    dxdt[k] = dx[p.states[k]];
    if (std::isfinite(dxdt[k])) continue;
    self.note_nonfinite_derivative(t, x, p.states[k], dxdt[k], x[k]);
    return 1;
  }
  return 0;
}

StepResult Director::Impl::step_part_solver(SolverPart& p, double t_limit) {
  const double t0 = p.solver->current_time();
  rhs_failure_.seen = false;
  StepResult r;
  try {
    r = p.solver->step(t_limit);
  } catch (const Failure&) {
    throw;
  } catch (const std::exception& e) {
    throw Failure{std::string("the ODE solver failed: ") + e.what(), ""};
  }
  if (r.status == StepStatus::kRhsFailed && rhs_failure_.seen) {
    rhs_failed("at a trial stage of a step from t = " + format_double(t0) + " s");
  }
  if (!r.ok()) {
    throw Failure{std::string("the ODE solver failed (") + ctde::to_string(r.status) + "): " + r.message, ""};
  }
  return r;
}

void Director::Impl::load_part(SolverPart& p, double t) {
  const std::span<const double> x = p.solver->state();
  for (std::size_t k = 0; k < x.size(); ++k) b_.x_storage[p.states[k]] = x[k];
  evaluate(p.outputs, t);
}

void Director::Impl::sync_part(SolverPart& p, double t) {
  rhs_failure_.seen = false;
  try {
    p.solver->dense_output(t, p.x.data());
  } catch (const std::exception&) {
    if (rhs_failure_.seen) rhs_failed("inside the step's interpolant");
    throw;
  }
  for (std::size_t k = 0; k < p.x.size(); ++k) b_.x_storage[p.states[k]] = p.x[k];
  evaluate(p.outputs, t);
}

void Director::Impl::evaluate_part_guards(SolverPart& p, double t, std::span<double> g) {
  for (std::size_t k = 0; k < p.generators.size(); ++k) {
    const ActorId d = p.generators[k];
    const GuardSlice slice = b_.actors[d.index()].guards;
    const std::span<double> out = g.subspan(p.guard_base[k], slice.width);
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

void Director::Impl::part_guards_at(SolverPart& p, double t, const double* x, std::span<double> g) {
  for (std::size_t k = 0; k < p.states.size(); ++k) parts_->x[p.states[k]] = x[k];
  b_.x = parts_->x.data();
  evaluate(p.guard_outputs, t);
  evaluate_part_guards(p, t, g);
  b_.x = b_.x_storage.data();
}

/// The step of one part, as its locator reads it.
class Director::Impl::PartTrajectory final : public StepTrajectory {
 public:
  PartTrajectory(Impl& impl, SolverPart& part) : impl_(impl), part_(part) {}

  [[nodiscard]] double start() const override { return part_.solver->last_step_start(); }
  [[nodiscard]] double end() const override { return part_.solver->last_step_end(); }
  [[nodiscard]] std::span<const double> start_state() const override {
    return part_.solver->last_step_start_state();
  }
  [[nodiscard]] std::span<const double> end_state() const override { return part_.solver->state(); }
  void derivatives(double t, std::span<const double> x, std::span<double> dxdt) override {
    if (part_rhs(t, x.data(), dxdt.data(), &part_) != 0)
      impl_.rhs_failed("on the solution (at a step's end or after an event)");
    ++impl_.extra_rhs_;
  }
  void guards(double t, std::span<const double> x, std::span<double> g) override {
    impl_.part_guards_at(part_, t, x.data(), g);
  }
  void guards_on_dense_output(double t, std::span<double> g) override {
    part_.solver->dense_output(t, part_.x.data());
    impl_.part_guards_at(part_, t, part_.x.data(), g);
  }

 private:
  Impl& impl_;
  SolverPart& part_;
};

void Director::Impl::parts_phase(Tick next) {
  const double t_next = resolution_.to_seconds(next);
  std::vector<SolverPart>& list = parts_->list;
  for (;;) {
    // The earliest frontier; a located crossing before a solver's time.
    SolverPart* first = nullptr;
    double earliest = std::numeric_limits<double>::infinity();
    for (SolverPart& p : list) {
      const double f = p.frontier(resolution_);
      if (first == nullptr || f < earliest || (f == earliest && p.pending && !first->pending)) {
        earliest = f;
        first = &p;
      }
    }
    if (first == nullptr) break;  // (lay_out_parts makes two parts at least)
    if (first->pending) {
      const Tick te = first->pending->te;
      now_ = {te, 0};
      bool fired = false;
      for (SolverPart& p : list) {
        if (p.pending && p.pending->te == te) fired = fire_pending(p) || fired;
      }
      if (fired) {
        record(now_);
        return;
      }
      continue;  // the crossings were a few ulps later: no event
    }
    if (earliest >= t_next) break;
    step_part(*first, t_next);
    if (progress_) progress_(earliest, stats_);
    stop_if_asked();
  }
  now_ = {next, 0};
  record(now_);
}

void Director::Impl::step_part(SolverPart& p, double t_next) {
  const double t0 = p.solver->current_time();
  const StepResult r = step_part_solver(p, t_next);
  double t1 = r.t_reached;
  load_part(p, t1);
  if (p.generators.empty()) return;
  EventLocator& locator = p.locator;
  evaluate_part_guards(p, t1, locator.end_values());
  if (!locator.crossed()) {
    locator.accept();
    return;
  }
  const double rejected_t1 = t1;
  const double planned = p.solver->planned_step();
  const Tick after = resolution_.to_ticks(t0);
  int iterations = 0;
  PartTrajectory trajectory(*this, p);
  for (int round = 0;; ++round) {
    if (round > kMaxLocationRounds) {
      throw Failure{"the state-event search did not settle between t = " + format_double(t0) + " and " +
                        format_double(t1) + " s (the guards disagree with the solver's steps)",
                    ""};
    }
    const LocatedEvent located = locator.locate(trajectory, t0, t1, after);
    iterations += located.bracket.iterations;
    if (trace_ != nullptr) {
      trace_->step_reject(t0, t1,
                          flat(guards_.owner[p.guard_ids[locator.first_located().index()].index()]).path);
    }
    const double te_s = resolution_.to_seconds(located.tick);
    p.pending =
        SolverPart::Pending{located.tick, located.bracket, t0, rejected_t1, after, iterations, planned};
    // A crossing very early in a long step is integrated again now, while
    // this part's step starts at the earliest frontier (later, another
    // part's event could fall inside the redone step's start).
    if (te_s >= t1 || te_s - t0 >= kShortCut * (t1 - t0)) return;
    p.solver->redo_to(t0);
    t1 = step_part_solver(p, te_s).t_reached;
    ++iterations;
    p.pending->iterations = iterations;
    load_part(p, t1);
    evaluate_part_guards(p, t1, locator.end_values());
    if (!locator.crossed()) {
      if (t1 == te_s && (located.tick == after + 1 || !OdeSolver::resolves(t0, te_s))) {
        locator.take_located();  // fires where the search found it
        return;
      }
      locator.accept();  // the crossing is later: take [t0, t1]
      p.pending.reset();
      return;
    }
    if (t1 == te_s) return;  // fires at the step's end
  }
}

bool Director::Impl::fire_pending(SolverPart& p) {
  const SolverPart::Pending pending = *p.pending;
  p.pending.reset();
  EventLocator& locator = p.locator;
  const double te_s = resolution_.to_seconds(pending.te);
  double t1 = p.solver->current_time();
  evaluate(p.outputs, te_s);  // (other events may have evaluated them at their time)
  if (te_s != t1) {
    if (te_s > t1) {  // crossed in the last fraction of a tick after the step's end
      while (t1 < te_s) t1 = step_part_solver(p, te_s).t_reached;
    } else {  // cut the step at te on its dense output
      p.solver->redo_to(te_s);
      t1 = te_s;
    }
    p.planned = std::min(pending.planned, 4 * (te_s - pending.t0));
    load_part(p, t1);
    evaluate_part_guards(p, t1, locator.end_values());
    if (!locator.crossed()) {
      if (pending.te == pending.after + 1 || !OdeSolver::resolves(pending.t0, te_s)) {
        locator.take_located();
      } else {
        locator.accept();  // later by a few ulps of the interpolant
        p.planned = 0;
        return false;
      }
    }
  }
  p.touched = true;  // at now_ already: its locator holds the event
  p.current = false;
  parts_->touched.push_back(p.id);
  fire_part_events(p, Tag{pending.te, 0}, pending.found, pending.rejected_t1, pending.iterations);
  return true;
}

void Director::Impl::fire_part_events(SolverPart& p, Tag tag, const LocatedCrossing& found,
                                      double rejected_t1, int iterations) {
  const Tick te = tag.time;
  EventLocator& locator = p.locator;
  for (std::uint32_t k = 0; k < locator.size(); ++k) {
    const GuardId local{k};
    const Crossing c = locator.event(local);
    if (c == Crossing::kNone) continue;
    const GuardId i = p.guard_ids[k];
    const EventRhythm rhythm = locator.fire(local, te);
    if (rhythm.kind != EventRhythm::Kind::kNormal) unresolved_events(i, rhythm, te);
    queue_crossing(i, c, tag, found.tb - found.ta, locator.residual(local), iterations, rejected_t1);
  }
}

void Director::Impl::touch_part(ActorId a) {
  const std::uint32_t k = parts_->part_of[a.index()];
  if (k == ContinuousParts::kNoPart) return;
  SolverPart& p = parts_->list[k];
  if (p.touched) return;
  p.touched = true;
  parts_->touched.push_back(k);
  const double t = resolution_.to_seconds(now_.time);
  // Its state at now_ (its last step covers it), and its guards' sides
  // there: a located crossing later than now_ is forgotten (the part
  // restarts here and finds it again).
  p.pending.reset();
  sync_part(p, t);
  if (p.generators.empty()) return;
  evaluate_part_guards(p, t, p.locator.end_values());
  p.locator.accept();
}

void Director::Impl::parts_microstep_crossings() {
  const double t = resolution_.to_seconds(now_.time);
  const Tag tag{now_.time, now_.microstep + 1};
  for (const std::uint32_t k : parts_->touched) {
    SolverPart& p = parts_->list[k];
    EventLocator& locator = p.locator;
    evaluate_part_guards(p, t, locator.end_values());
    p.current = true;
    for (std::uint32_t j = 0; j < locator.size(); ++j) {
      const GuardId local{j};
      if (locator.fired(local)) continue;  // settles after the phase
      const Crossing c = locator.microstep_crossing(local, now_.time);
      if (c == Crossing::kNone) continue;
      queue_crossing(p.guard_ids[j], c, tag, 0.0, locator.residual(local), 0, t);
    }
  }
  guards_.moved = false;
  guards_.fired_generators.clear();
}

bool Director::Impl::parts_after_events() {
  const double t = resolution_.to_seconds(now_.time);
  bool again = false;
  for (const std::uint32_t k : parts_->touched) {
    SolverPart& p = parts_->list[k];
    // The part goes on from its state at now_ (reset or not): its step ends here.
    for (std::size_t j = 0; j < p.states.size(); ++j) p.x[j] = b_.x_storage[p.states[j]];
    p.solver->reset(t, p.x.data(), std::exchange(p.planned, 0.0));
    evaluate(p.outputs, t);
    if (p.generators.empty()) continue;
    EventLocator& locator = p.locator;
    if (!std::exchange(p.current, false)) evaluate_part_guards(p, t, locator.end_values());
    const bool slope_needed = locator.needs_slopes();
    if (slope_needed) {  // dg/dt along the new flow: an Euler probe
      const double h = 1e-7 * std::max(1.0, std::abs(t));
      if (part_rhs(t, p.x.data(), p.dx.data(), &p) != 0)
        rhs_failed("on the solution (at a step's end or after an event)");
      ++extra_rhs_;
      for (std::size_t j = 0; j < p.x.size(); ++j) p.dx[j] = p.x[j] + h * p.dx[j];
      part_guards_at(p, t + h, p.dx.data(), p.slopes);
      evaluate(p.outputs, t);
      const std::span<const double> g = locator.end_values();
      for (std::size_t j = 0; j < p.slopes.size(); ++j) p.slopes[j] = (p.slopes[j] - g[j]) / h;
    }
    if (locator.settle(slope_needed ? std::span<const double>(p.slopes) : std::span<const double>())) {
      fire_part_events(p, Tag{now_.time, now_.microstep + 1}, {t, t, 0}, t, 0);
      again = true;
    }
  }
  if (again) {
    ++now_.microstep;
    return true;
  }
  for (const std::uint32_t k : parts_->touched) parts_->list[k].touched = false;
  parts_->touched.clear();
  return false;
}

}  // namespace ctde
