// What the two phases of a run share (run_state_impl.hpp): the outputs'
// evaluation and the step watchers.
#include "domains/ctde/run_state_impl.hpp"

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
