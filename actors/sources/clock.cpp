#include "actors/sources/clock.hpp"

#include "core/actor_context.hpp"

namespace ctde {

Clock::Clock(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous, 1);
  set_feedthrough(false);
}

void Clock::evaluate(EvalContext& context) const { context.output(out_)[0] = context.time(); }

}  // namespace ctde
