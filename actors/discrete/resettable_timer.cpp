#include "actors/discrete/resettable_timer.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

ResettableTimer::ResettableTimer(std::string name)
    : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete, 1) {
  value_ = declare_parameter("value", ParamKind::kScalar, 1.0);
  set_feedthrough(false);
}

namespace {
/// When the running timer expires, and at which microstep (kNever: stopped).
struct TimerState final : ActorState {
  Tag due{kNever, 0};

  void save(StateWriter& out) const override {
    out.i64(due.time);
    out.u32(due.microstep);
  }
  void restore(StateReader& in) override {
    due.time = in.i64();
    due.microstep = in.u32();
  }
};
}  // namespace

std::unique_ptr<ActorState> ResettableTimer::make_state() const { return std::make_unique<TimerState>(); }

void ResettableTimer::fire(FireContext& context) const {
  auto& state = context.state<TimerState>();
  const Tag now = context.tag();
  // Firings requested by a timer that a later token restarted find a
  // different due tag and do nothing.
  if (context.time_event() && state.due == now) {
    state.due = Tag{kNever, 0};
    context.emit(out_, scalar(value_));
  }
  if (!context.has_token(in_)) return;
  const double d = context.token(in_)[0];
  if (!(d >= 0) || !std::isfinite(d)) {
    throw RunError(describe() + ": input 'in' must be a finite duration >= 0, got " + format_double(d));
  }
  const Tick delay = context.resolution().to_ticks(d);
  if (now.time > context.stop_tick() - delay) {  // expires after the stop time
    state.due = Tag{kNever, 0};
    return;
  }
  state.due = delay == 0 ? Tag{now.time, now.microstep + 1} : Tag{now.time + delay, 0};
  context.fire_at(now.time + delay);
}

}  // namespace ctde
