#include "actors/sources/ramp.hpp"

#include <cmath>
#include <limits>

#include "core/actor_context.hpp"

namespace ctde {

Ramp::Ramp(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous, 1);
  slope_ = declare_parameter("slope", ParamKind::kScalar, 1.0);
  start_time_ = declare_parameter("start_time", ParamKind::kScalar, 0.0);
  set_feedthrough(false);
}

namespace {
/// Whether the ramp has started (set in fire(), at the kink's time event),
/// and the kink's time in seconds, rounded to a tick so that the output is
/// exactly 0 there.
struct RampState final : ActorState {
  bool started = false;
  double start_seconds = 0.0;
};

}  // namespace

std::unique_ptr<ActorState> Ramp::make_state() const { return std::make_unique<RampState>(); }

void Ramp::initialize(FireContext& context) const {
  auto& state = context.state<RampState>();
  const double start_time = scalar(start_time_);
  const Tick kink = context.resolution().to_ticks_clamped(start_time);
  const bool finite_tick = kink != kNever && kink != kBeforeAll;
  state.start_seconds = finite_tick ? context.resolution().to_seconds(kink) : start_time;
  // Started at (or before) the run's start: no kink inside the run.
  state.started = kink <= context.start_tick();
  if (!state.started && kink != kNever && kink <= context.stop_tick()) context.fire_at(kink);
}

void Ramp::evaluate(EvalContext& context) const {
  const auto& state = context.state<RampState>();
  context.output(out_)[0] = state.started ? scalar(slope_) * (context.time() - state.start_seconds) : 0.0;
}

void Ramp::fire(FireContext& context) const {
  if (!context.time_event()) return;
  context.state<RampState>().started = true;
}

}  // namespace ctde
