#include "actors/sources/step.hpp"

namespace ctde {

Step::Step(std::string name) : Actor(std::move(name), "Step", TimeMode::kContinuous) {
  declare_output("out", PortKind::kContinuous, 1);
  declare_parameter("time", ParamKind::kScalar);
  declare_parameter("before", ParamKind::kScalar, 0.0);
  declare_parameter("after", ParamKind::kScalar, 1.0);
  set_feedthrough(false);
}

}  // namespace ctde
