#include "actors/sources/step.hpp"

#include <cmath>
#include <limits>

#include "core/actor_context.hpp"

namespace ctde {

Step::Step(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous, 1);
  time_ = declare_parameter("time", ParamKind::kScalar);
  before_ = declare_parameter("before", ParamKind::kScalar, 0.0);
  after_ = declare_parameter("after", ParamKind::kScalar, 1.0);
  set_feedthrough(false);
}

namespace {
/// Whether the jump has happened. Set in fire(), so that the solver's
/// evaluations at the jump time still see `before` until the event.
struct StepState final : ActorState {
  bool switched = false;
};

}  // namespace

std::unique_ptr<ActorState> Step::make_state() const { return std::make_unique<StepState>(); }

void Step::initialize(FireContext& context) const {
  auto& state = context.state<StepState>();
  const Tick jump = context.resolution().to_ticks_clamped(scalar(time_));
  state.switched = jump < context.start_tick();
  if (!state.switched && jump != kNever && jump <= context.stop_tick()) context.fire_at(jump);
}

void Step::evaluate(EvalContext& context) const {
  context.output(out_)[0] = context.state<StepState>().switched ? scalar(after_) : scalar(before_);
}

void Step::fire(FireContext& context) const {
  if (!context.time_event()) return;
  context.state<StepState>().switched = true;
}

}  // namespace ctde
