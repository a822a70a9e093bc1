#include "actors/discrete/current_microstep.hpp"

#include "core/actor_context.hpp"

namespace ctde {

CurrentMicrostep::CurrentMicrostep(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete, 1);
}

void CurrentMicrostep::fire(FireContext& context) const {
  if (context.has_token(trigger_)) context.emit(out_, static_cast<double>(context.tag().microstep));
}

}  // namespace ctde
