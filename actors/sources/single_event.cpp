#include "actors/sources/single_event.hpp"
#include "core/actor_context.hpp"

namespace ctde {

SingleEvent::SingleEvent(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  out_ = declare_output("out", PortKind::kDiscrete);
  time_ = declare_parameter("time", ParamKind::kScalar);
  value_ = declare_parameter("value", ParamKind::kVector, 1.0);
}

void SingleEvent::configure(const ParameterScope& /*scope*/) {
  set_width(out_, static_cast<int>(vector(value_).size()));
}

void SingleEvent::initialize(FireContext& context) const {
  const Tick at = context.resolution().to_ticks(scalar(time_));
  if (at >= context.start_tick()) context.fire_at(at);
}

void SingleEvent::fire(FireContext& context) const { context.emit(out_, vector(value_)); }

}  // namespace ctde
