#include "actors/sources/ramp.hpp"

namespace ctde {

Ramp::Ramp(std::string name) : Actor(std::move(name), "Ramp", TimeMode::kContinuous) {
  declare_output("out", PortKind::kContinuous, 1);
  declare_parameter("slope", ParamKind::kScalar, 1.0);
  declare_parameter("start_time", ParamKind::kScalar, 0.0);
  set_feedthrough(false);
}

}  // namespace ctde
