#include "actors/discrete/current_time.hpp"

#include "core/actor_context.hpp"

namespace ctde {

CurrentTime::CurrentTime(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete, 1);
}

void CurrentTime::fire(FireContext& context) const {
  // The tag's time in seconds: the double nearest to the tick's exact time.
  if (context.has_token(trigger_)) context.emit(out_, context.resolution().to_seconds(context.tag().time));
}

}  // namespace ctde
