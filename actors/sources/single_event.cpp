#include "actors/sources/single_event.hpp"

namespace ctde {

SingleEvent::SingleEvent(std::string name) : Actor(std::move(name), "SingleEvent", TimeMode::kDiscrete) {
  out_ = declare_output("out", PortKind::kDiscrete);
  declare_parameter("time", ParamKind::kScalar);
  value_ = declare_parameter("value", ParamKind::kVector, 1.0);
}

void SingleEvent::configure(const ParameterScope& scope) {
  (void)scope;
  set_width(out_, static_cast<int>(vector(value_).size()));
}

}  // namespace ctde
