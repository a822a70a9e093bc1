// The parts of the director's continuous side (docs/semantics.md,
// "Independent subsystems"): one whole part in a joined run; in a split run,
// one part per set of states that shares no guard and no continuous
// connection with another, each with its own integrator and event locator,
// its states packed in its solver's vector. Here: the partition, each
// part's right-hand side and the packing, and a part touched by an event.
// The stepping, the location and the firing are the same for every part
// (continuous_phase.cpp, continuous_phase_events.cpp).
#include <algorithm>
#include <cmath>
#include <utility>

#include "domains/ct/first_nonfinite.hpp"
#include "domains/ct/linear_solver.hpp"
#include "domains/ctde/continuous_part_impl.hpp"
#include "domains/ctde/continuous_parts.hpp"

namespace ctde {

namespace {

/// The elements of `list` marked in `mine` (per depth), in their order.
std::vector<ActorId> in_part(const std::vector<ActorId>& list, const std::vector<std::uint8_t>& mine) {
  std::vector<ActorId> out;
  for (const ActorId d : list) {
    if (mine[d.index()] != 0) out.push_back(d);
  }
  return out;
}

}  // namespace

ContinuousPhase::ContinuousPhase(RunState& run) : run_(run) {}

ContinuousPhase::~ContinuousPhase() = default;

void ContinuousPhase::lay_out_parts() {
  parts_.row_x.assign(run_.b_.x_storage.size(), 0.0);
  ahead_.signals.assign(run_.b_.signals.size(), 0.0);
  guards_.fired_generators.reserve(guards_.generators.size());  // nothing allocates while firing
  const std::size_t n = run_.layout_.actors.size();
  guards_.local.assign(guards_.owner.size(), GuardId{});
  const std::vector<PartId> split = split_parts();
  if (split.empty()) {  // one whole part: every actor is in it
    parts_.of.assign(n, PartId{0});
    parts_.all.reserve(1);
    make_part(PartId{0}, /*whole=*/true, std::vector<std::uint8_t>(n, 1));
    parts_.all.front().touched = true;  // at every event time: it is always at now_
    parts_.touched.push_back(PartId{0});
    return;
  }
  parts_.of = split;
  parts_.split = true;
  PartId count{0};
  for (const PartId p : parts_.of) {
    if (p != ContinuousParts::kNoPart) count = std::max(count, PartId{p.value() + 1});
  }
  parts_.x.assign(run_.b_.x_storage.size(), 0.0);
  parts_.dx.assign(run_.b_.x_storage.size(), 0.0);
  parts_.all.reserve(count.index());
  parts_.touched.reserve(count.index());
  for (PartId k{0}; k < count; ++k) {
    std::vector<std::uint8_t> mine(n, 0);
    for (ActorId d{0}; d.index() < n; ++d) mine[d.index()] = parts_.of[d.index()] == k ? 1 : 0;
    make_part(k, /*whole=*/false, mine);
  }
  for (ActorId d{0}; d.index() < n; ++d) {
    if (parts_.of[d.index()] != ContinuousParts::kNoPart) run_.layout_.flags[d.index()] |= RunState::kInPart;
  }
}

std::vector<PartId> ContinuousPhase::split_parts() const {
  // Only plain parts split: an explicit adaptive method, located events cut
  // on the dense output, no actor that watches or bounds every step, no
  // step bound. (A row takes each part's state at its time from the part's
  // dense output: row_state.)
  const bool plain_method =
      run_.options_.solver == SolverKind::kErk45 || run_.options_.solver == SolverKind::kErk23 ||
      run_.options_.solver == SolverKind::kRkf45 || run_.options_.solver == SolverKind::kBdf ||
      run_.options_.solver == SolverKind::kAuto;
  if (run_.options_.subsystems != Subsystems::kSplit || !plain_method ||
      run_.options_.events != EventMode::kNormal || run_.options_.event_state != EventState::kInterpolated ||
      !run_.layout_.step_watchers.empty() || std::isfinite(run_.layout_.step_bound) ||
      run_.layout_.stateful.size() < 2) {
    return {};
  }
  const std::size_t n = run_.layout_.actors.size();
  for (const auto& actor : run_.layout_.actors) {
    if (actor->bounds_every_step()) return {};
  }
  ContinuousParts graph(n);
  for (ActorId d{0}; d.index() < n; ++d) {
    const FlatActor& actor = run_.flat(d);
    for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
      if (!actor.drivers[i]) continue;
      const FlatActor& driver = run_.model_[actor.drivers[i]->actor];
      if (driver.mode == TimeMode::kConstant) continue;  // the same value for every part
      if (actor.input_kinds[i] == PortKind::kContinuous || run_.layout_.timed[driver.depth.index()] != 0)
        graph.join(d, driver.depth);
    }
  }
  std::vector<std::uint8_t> has_states(n, 0);
  for (const ActorId d : run_.layout_.stateful) has_states[d.index()] = 1;
  std::vector<PartId> part_of = graph.number(has_states);
  std::uint32_t count = 0;
  for (const PartId p : part_of) {
    if (p != ContinuousParts::kNoPart) count = std::max(count, p.value() + 1);
  }
  if (count < 2) return {};
  // Every guard in a part with states (a guard of time alone is searched
  // with the whole part's steps).
  for (const ActorId g : guards_.generators) {
    if (part_of[g.index()] == ContinuousParts::kNoPart) return {};
  }
  return part_of;
}

void ContinuousPhase::make_part(PartId id, bool whole, const std::vector<std::uint8_t>& mine) {
  Part& p = parts_.all.emplace_back();
  p.phase = this;
  p.id = id;
  p.whole = whole;
  const std::vector<ActorId> stateful = in_part(run_.layout_.stateful, mine);
  if (!whole) {
    for (const ActorId d : stateful) {
      const StateSlice slice = run_.b_.actors[d.index()].states;
      for (std::uint32_t i = 0; i < slice.width; ++i) p.states.push_back(slice.at(i));
    }
  }
  const std::size_t size = whole ? run_.b_.x_storage.size() : p.states.size();
  std::vector<Crossing> directions;
  std::vector<ZeroSide> zero_sides;
  for (const ActorId d : in_part(guards_.generators, mine)) {
    const GuardSlice slice = run_.b_.actors[d.index()].guards;
    p.generators.push_back({d, GuardId::at(p.guard_ids.size())});
    for (std::uint32_t i = 0; i < slice.width; ++i) {
      guards_.local[slice.at(i).index()] = GuardId::at(p.guard_ids.size());
      p.guard_ids.push_back(slice.at(i));
      directions.push_back(run_.layout_.actors[d.index()]->guard_direction(i));
      zero_sides.push_back(run_.layout_.actors[d.index()]->guard_zero_side(i));
    }
  }
  p.locator = EventLocator(std::move(directions), run_.resolution_,
                           run_.options_.event_tolerance.value_or(0.0), size, zero_sides);
  p.outputs = RhsProgram(RhsProgram::Part::kOutputs, in_part(run_.layout_.continuous, mine),
                         run_.layout_.actors, run_.b_);
  const std::vector<ActorId> rhs_inputs = in_part(run_.layout_.rhs_inputs, mine);
  p.rhs_outputs = RhsProgram(RhsProgram::Part::kOutputs, rhs_inputs, run_.layout_.actors, run_.b_);
  p.reads_outputs = !rhs_inputs.empty();
  p.guard_outputs = RhsProgram(RhsProgram::Part::kOutputs, in_part(run_.layout_.guard_inputs, mine),
                               run_.layout_.actors, run_.b_);
  p.derivatives = RhsProgram(RhsProgram::Part::kDerivatives, stateful, run_.layout_.actors, run_.b_);
  p.x.assign(size, 0.0);
  p.dx.assign(size, 0.0);
  p.slopes.assign(p.guard_ids.size(), 0.0);
  p.time = p.step_start = p.frontier = run_.resolution_.to_seconds(run_.start_);
}

void ContinuousPhase::update_frontier(Part& p) {
  if (p.pending) {
    p.frontier = run_.resolution_.to_seconds(p.pending->te);
  } else {
    p.frontier = p.solver ? p.solver->current_time() : p.time;
  }
}

void ContinuousPhase::start_parts(const OdeOptions& ode, double t) {
  for (Part& p : parts_.all) {
    if (p.x.empty()) continue;  // no states: time only advances
    OdeProblem problem;
    problem.size = p.x.size();
    problem.rhs = &ContinuousPhase::part_rhs;
    problem.state_name = &ContinuousPhase::part_state_name;
    problem.user = &p;
    if (is_implicit(ode.method)) {
      p.pattern.emplace(part_pattern(p));
      if (p.pattern->values_at_point()) problem.values_at_point = &ContinuousPhase::part_values_at_point;
      problem.pattern = &*p.pattern;
    }
    if (p.whole) {
      p.solver.emplace(problem, ode, t, run_.b_.x_storage);
      continue;
    }
    OdeOptions mine = ode;
    if (!ode.atol_per_state.empty()) {
      mine.atol_per_state.clear();
      for (const StateIndex k : p.states) mine.atol_per_state.push_back(ode.atol_per_state[k.index()]);
    }
    for (std::size_t k = 0; k < p.states.size(); ++k) p.x[k] = run_.b_.x_storage[p.states[k].index()];
    p.solver.emplace(problem, mine, t, p.x);
  }
  for (Part& p : parts_.all) {
    update_frontier(p);
    if (run_.trace_ != nullptr && p.pattern) {
      const JacobianPattern& j = *p.pattern;
      const LinearSolverChoice choice = choose_linear_solver(ode.linear_solver, j);
      std::string reason = "linear solver ";
      reason += to_string(choice.kind);
      reason += " (" + choice.reason + "); Jacobian ";
      reason += std::to_string(j.nonzeros()) + " nonzeros, ";
      reason += std::to_string(j.group_count()) + " evaluations of f per Jacobian, ";
      reason +=
          std::to_string(j.size() - j.unknown_rows()) + " of " + std::to_string(j.size()) + " rows known";
      run_.trace_->solver(run_.now_, p.id.value(), p.solver->method_now(), to_string(choice.kind), reason);
    }
  }
}

std::string ContinuousPhase::state_label(StateIndex state) const {
  ActorId owner = run_.layout_.stateful.front();
  for (const ActorId d : run_.layout_.stateful) {
    if (run_.b_.actors[d.index()].states.offset.index() <= state.index()) owner = d;
  }
  const StateSlice slice = run_.b_.actors[owner.index()].states;
  const std::size_t index = state.index() - slice.offset.index();
  std::string label = run_.flat(owner).path;
  if (slice.width > 1) {
    label += '[';
    label += std::to_string(index);
    label += ']';
  }
  return label;
}

std::string ContinuousPhase::part_state_name(std::size_t k, void* user) {
  const auto& p = *static_cast<const Part*>(user);
  return p.phase->state_label(p.whole ? StateIndex::at(k) : p.states[k]);
}

int ContinuousPhase::part_rhs(double t, const double* x, double* dxdt, void* user) {
  auto& p = *static_cast<Part*>(user);
  ContinuousPhase& self = *p.phase;
  const std::size_t n = p.whole ? p.x.size() : p.states.size();
  const StatesView view(self.run_.b_, self.placed_states(p, x));
  if (p.whole) {
    if (!self.compute_derivatives(p, t, dxdt, x)) return 1;
  } else {
    if (!self.compute_derivatives(p, t, self.parts_.dx.data(), x)) return 1;
    const double* dx = self.parts_.dx.data();
    for (std::size_t k = 0; k < n; ++k) dxdt[k] = dx[p.states[k].index()];
  }
  const std::size_t k = first_nonfinite({dxdt, n});
  if (k == n) return 0;
  // Not an error yet: at a trial stage of a long step the state may have
  // left the derivative's domain (a level overshot: sqrt of a depth a
  // little below 0) where the solution never goes. The solver tries a
  // shorter step; step_solver() reports it if that does not help.
  self.note_nonfinite_derivative(p, t, x, p.whole ? StateIndex::at(k) : p.states[k], dxdt[k], x[k]);
  return 1;
}

int ContinuousPhase::part_values_at_point(double t, const double* x, double* values, void* user) {
  auto& p = *static_cast<Part*>(user);
  ContinuousPhase& self = *p.phase;
  RunState& run = self.run_;
  const StatesView view(run.b_, self.placed_states(p, x));
  // Every output and derivative at (t, x) first: the actors read that point.
  if (!self.compute_derivatives(p, t, p.whole ? p.dx.data() : self.parts_.dx.data(), x)) return 1;
  try {
    for (const JacobianProgram::PointActor& a : p.program->point_actors()) {
      const ReadContext context(run.b_, run.services_, a.actor, run.now_, t);
      run.guarded(a.actor, [&] {
        run.layout_.actors[a.actor.index()]->jacobian_values(context, p.program->entries_of(a),
                                                             p.program->values_of(a));
      });
    }
  } catch (RunState::Failure& failure) {
    self.note_rhs_failure(p, t, x);
    self.rhs_failure_.actor_error = std::move(failure);
    return 1;
  }
  p.program->compose(values);
  return 0;
}

void ContinuousPhase::load_part(Part& p, double t) {
  if (p.solver) {
    const std::span<const double> x = p.solver->state();
    if (p.whole) {
      std::copy(x.begin(), x.end(), run_.b_.x_storage.begin());
    } else {
      for (std::size_t k = 0; k < x.size(); ++k) run_.b_.x_storage[p.states[k].index()] = x[k];
    }
    run_.b_.x = run_.b_.x_storage.data();
  }
  run_.evaluate(p.outputs, t);
}

const double* ContinuousPhase::part_state(Part& p) {
  if (p.whole) return run_.b_.x_storage.data();
  for (std::size_t k = 0; k < p.states.size(); ++k) p.x[k] = run_.b_.x_storage[p.states[k].index()];
  return p.x.data();
}

void ContinuousPhase::touch_part(ActorId a) {
  const PartId k = parts_.of[a.index()];
  if (k == ContinuousParts::kNoPart) return;
  Part& p = parts_.all[k.index()];
  if (p.touched) return;
  p.touched = true;
  parts_.touched.push_back(k);
  // Its state at now_ (its last step covers it): it restarts here.
  take_state_at(p, run_.resolution_.to_seconds(run_.now_.time));
  p.behind = true;
}

void ContinuousPhase::take_state_at(Part& p, double t) {
  // A located crossing later than t is forgotten (the part restarts at t
  // and finds it again).
  p.pending.reset();
  if (p.whole) {
    dense_state(p, t, run_.b_.x_storage.data());
  } else {
    dense_state(p, t, p.x.data());
    for (std::size_t j = 0; j < p.x.size(); ++j) run_.b_.x_storage[p.states[j].index()] = p.x[j];
  }
  run_.evaluate(p.outputs, t);
  update_frontier(p);
  if (p.generators.empty()) return;
  evaluate_guards(p, t, p.locator.end_values());
  p.locator.accept();
}

void ContinuousPhase::restart_part(Part& p, double t) {
  p.behind = false;
  if (!p.solver) return;
  p.solver->reset(t, part_state(p), std::exchange(p.planned, 0.0));
  p.restarted_at = t;
  update_frontier(p);
}

}  // namespace ctde
