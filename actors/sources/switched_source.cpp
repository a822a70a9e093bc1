#include "actors/sources/switched_source.hpp"

#include "core/actor_context.hpp"

namespace ctde {

SwitchedSource::SwitchedSource(std::string name, const ActorInfo& info, bool switched_at_start)
    : Actor(std::move(name), info, TimeMode::kContinuous), switched_at_start_(switched_at_start) {
  out_ = declare_output("out", PortKind::kContinuous, 1);
  set_feedthrough(false);
}

namespace {
/// Whether the switch has happened (set in fire(), at its time event), and
/// its time in seconds, rounded to its tick.
struct SwitchState final : ActorState {
  bool switched = false;
  double seconds = 0.0;

  void save(StateWriter& out) const override {
    out.boolean(switched);
    out.f64(seconds);
  }
  void restore(StateReader& in) override {
    switched = in.boolean();
    seconds = in.f64();
  }
};
}  // namespace

std::unique_ptr<ActorState> SwitchedSource::make_state() const { return std::make_unique<SwitchState>(); }

void SwitchedSource::initialize(FireContext& context) const {
  auto& state = context.state<SwitchState>();
  const double time = scalar(time_);
  const Tick tick = context.resolution().to_ticks_clamped(time);
  const bool finite_tick = tick != kNever && tick != kBeforeAll;
  state.seconds = finite_tick ? context.resolution().to_seconds(tick) : time;
  state.switched = tick < context.start_tick() || (switched_at_start_ && tick == context.start_tick());
  if (!state.switched && tick != kNever && tick <= context.stop_tick()) context.fire_at(tick);
}

void SwitchedSource::fire(FireContext& context) const {
  if (!context.time_event()) return;
  context.state<SwitchState>().switched = true;
}

bool SwitchedSource::switched(const ReadContext& context) const {
  return context.state<SwitchState>().switched;
}

double SwitchedSource::switch_seconds(const ReadContext& context) const {
  return context.state<SwitchState>().seconds;
}

}  // namespace ctde
