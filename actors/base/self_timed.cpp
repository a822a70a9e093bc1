#include "actors/base/self_timed.hpp"

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

SelfTimed::SelfTimed(std::string name, const ActorInfo& info, TimeMode mode, int width)
    : Actor(std::move(name), info, mode) {
  out_ = declare_output("out", PortKind::kDiscrete, width);
}

Tick SelfTimed::last_tick(const ReadContext& context) const { return context.stop_tick(); }

Tick SelfTimed::periodic_tick(const ReadContext& context, double period, Tick offset, std::uint64_t k) {
  const TimeResolution& r = context.resolution();
  const Tick period_ticks = r.to_ticks(period);
  if (period_ticks <= 0) {
    throw RunError("the period " + format_double(period) + " s is shorter than one tick (" +
                   format_double(r.seconds_per_tick()) + " s)");
  }
  Tick product = 0;
  Tick time = 0;
  if (__builtin_mul_overflow(static_cast<Tick>(k), period_ticks, &product) ||
      __builtin_add_overflow(context.start_tick(), offset, &time) ||
      __builtin_add_overflow(time, product, &time)) {
    return kNever;
  }
  return time;
}

void SelfTimed::request(FireContext& context, Tick tick) const {
  if (tick != kNever && tick <= last_tick(context)) context.fire_at(tick);
}

void SelfTimed::State::save(StateWriter& out) const { out.u64(sent); }

void SelfTimed::State::restore(StateReader& in) { sent = in.u64(); }

std::unique_ptr<ActorState> SelfTimed::make_state() const { return std::make_unique<State>(); }

void SelfTimed::initialize(FireContext& context) const {
  context.state<State>().sent = 0;
  request(context, time_of(context, 0));
}

void SelfTimed::fire(FireContext& context) const {
  if (!context.time_event()) return;
  auto& state = context.state<State>();
  send(context, state.sent);
  ++state.sent;
  request(context, time_of(context, state.sent));
}

}  // namespace ctde
