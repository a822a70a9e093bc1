#include "actors/sinks/stop.hpp"
#include "core/actor_context.hpp"

namespace ctde {

Stop::Stop(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  in_ = declare_input("in", PortKind::kDiscrete);
  set_feedthrough(false);
}

void Stop::check_widths(std::span<const int> /*input_widths*/, std::span<const int> /*output_widths*/) const {
}  // any width

void Stop::fire(FireContext& context) const {
  if (context.has_token(in_)) context.request_stop();
}

}  // namespace ctde
