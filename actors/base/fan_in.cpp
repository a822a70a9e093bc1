#include "actors/base/fan_in.hpp"

#include <cassert>

namespace ctde {

namespace {
PortKind port_kind(TimeMode mode) {
  assert(mode == TimeMode::kUnresolved || mode == TimeMode::kDiscrete);
  return mode == TimeMode::kDiscrete ? PortKind::kDiscrete : PortKind::kPolymorphic;
}
}  // namespace

FanIn::FanIn(std::string name, const ActorInfo& info, TimeMode mode) : Actor(std::move(name), info, mode) {
  out_ = declare_output("out", port_kind(mode));
  inputs_ = declare_parameter("inputs", ParamKind::kScalar, 2.0);
}

void FanIn::configure(const ParameterScope& /*scope*/) {
  declare_numbered_inputs(port_count(inputs_), port_kind(declared_mode()));
}

}  // namespace ctde
