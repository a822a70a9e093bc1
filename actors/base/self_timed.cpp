#include "actors/base/self_timed.hpp"

#include "core/actor_context.hpp"

namespace ctde {

SelfTimed::SelfTimed(std::string name, const ActorInfo& info, TimeMode mode, int width)
    : Actor(std::move(name), info, mode) {
  out_ = declare_output("out", PortKind::kDiscrete, width);
}

Tick SelfTimed::last_tick(const ReadContext& context) const { return context.stop_tick(); }

void SelfTimed::request(FireContext& context, Tick tick) const {
  if (tick != kNever && tick <= last_tick(context)) context.fire_at(tick);
}

void SelfTimed::initialize(FireContext& context) const { request(context, first(context)); }

void SelfTimed::fire(FireContext& context) const {
  if (!context.time_event()) return;
  request(context, at_event(context));
}

}  // namespace ctde
