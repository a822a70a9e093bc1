// What the two phases of a run share (run_state_impl.hpp): the actors
// initialized, the solver options at the start, the outputs' evaluation,
// the algebraic loops solved and the step watchers.
#include "domains/ctde/run_state_impl.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "core/format.hpp"

namespace ctde {

RunState::RunState(const FlatModel& model, const RunOptions& options, TraceWriter* trace,
                   ResultsSink* results, DirectorServices& services)
    : services_(&services),
      model_(model),
      options_(options),
      trace_(trace),
      resolution_(options.time_resolution),
      start_(resolution_.to_ticks(options.start_time)),
      stop_(resolution_.to_ticks(options.stop_time)),
      rows_(results) {}

void RunState::initialize_actors() {
  now_ = {start_, 0};
  const double t = resolution_.to_seconds(start_);
  std::vector<ActorId> from_inputs;  // initialized last, in schedule (depth) order
  const auto initialize_one = [&](ActorId d) {
    FireContext context(b_, services_, d, now_, t);
    guarded(d, [&] { layout_.actors[d.index()]->initialize(context); });
  };
  for (ActorId d{0}; d.index() < layout_.actors.size(); ++d) {
    guarded(d, [&] { b_.states[d.index()] = layout_.actors[d.index()]->make_state(); });
    if (layout_.actors[d.index()]->initializes_from_inputs()) {
      from_inputs.push_back(d);
    } else {
      initialize_one(d);
    }
  }
  const RhsProgram outputs(RhsProgram::Part::kOutputs, layout_.at_start, layout_.actors, b_);
  evaluate(outputs, t);
  // A constant's value is present on its discrete readers at every tag;
  // they fire once, at the start tag, when it appears (as for any input
  // that changes), and never again because of it.
  for (const auto& [input, value] : layout_.constant_inputs) {
    scheduler_.present_always(input,
                              std::span<const double>(b_.signals.data() + value.offset.index(), value.width));
  }
  for (const ActorId d : from_inputs) {
    initialize_one(d);
    evaluate(outputs, t);  // its outputs, for the next one's inputs
  }
}

OdeOptions RunState::ode_options() {
  OdeOptions ode = make_ode_options(options_);
  if (ode.atol_per_state.empty()) {  // the actors may know their states' scales
    std::vector<double> atol(b_.x_storage.size(), options_.atol);
    bool changed = false;
    for (const ActorId d : layout_.stateful) {
      const StateSlice slice = b_.actors[d.index()].states;
      const std::span<double> mine(atol.data() + slice.offset.index(), slice.width);
      guarded(d, [&] { layout_.actors[d.index()]->state_tolerances(mine); });
      changed =
          changed || std::any_of(mine.begin(), mine.end(), [&](double v) { return v != options_.atol; });
    }
    for (const double v : atol) {
      if (!(v > 0) || !std::isfinite(v))
        throw Failure{"an actor gave a state tolerance of " + format_double(v), ""};
    }
    if (changed) ode.atol_per_state = std::move(atol);
  }
  if (std::isfinite(layout_.step_bound))
    ode.max_step = std::min(ode.max_step.value_or(layout_.step_bound), layout_.step_bound);
  return ode;
}

void RunState::evaluate(const RhsProgram& program, double t) {
  program.run_outputs(b_, [&](ActorId d) { evaluate_actor(d, t); });
}

void RunState::solve_loop(ActorId head, double t) {
  struct At {
    RunState* run;
    double t;
  } at{this, t};
  const LoopSolver::Evaluator evaluator{&at, [](void* where, ActorId d) {
                                          const At& a = *static_cast<At*>(where);
                                          a.run->evaluate_own(d, a.t);
                                        }};
  const std::uint32_t k = b_.loop_of[head.index()] - 1;
  const LoopSolver::Result result = loops_[k]->solve(evaluator, options_.rtol, options_.atol);
  ++stats_.loop_solves;
  stats_.loop_iterations += static_cast<std::uint64_t>(result.iterations);
  if (result.converged) return;
  const AlgebraicLoop& loop = model_.algebraic_loops[k];
  throw Failure{concat({"algebraic loop ", loop.cycle, ": no solution found at t = ", format_double(t),
                        " s: ", result.reason, " (largest residual ", format_double(result.residual_norm),
                        " after ", std::to_string(result.iterations), " Newton iterations)"}),
                flat(head).path};
}

bool RunState::steps_completed(double t1) {
  bool asked = false;
  for (const ActorId d : layout_.step_watchers) {
    StepContext context(b_, services_, d, now_, t1);
    bool wants = false;
    guarded(d, [&] { wants = layout_.actors[d.index()]->step_completed(context); });
    if (wants) {
      scheduler_.queue(Tag{now_.time, 0}, d);
      asked = true;
    }
  }
  return asked;
}

void RunState::tell_step_watchers(EventSide side) {
  const double t = resolution_.to_seconds(now_.time);
  for (const ActorId d : layout_.step_watchers) {
    FireContext context(b_, services_, d, now_, t);
    guarded(d, [&] { layout_.actors[d.index()]->at_events(context, side); });
  }
}

}  // namespace ctde
