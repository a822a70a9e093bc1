#include "actors/continuous/integrator.hpp"

namespace ctde {

Integrator::Integrator(std::string name) : Actor(std::move(name), "Integrator", TimeMode::kContinuous) {
  in_ = declare_input("in", PortKind::kContinuous);
  reset_ = declare_input("reset", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  impulse_ = declare_input("impulse", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  out_ = declare_output("out", PortKind::kContinuous);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
  set_feedthrough(false);
}

void Integrator::configure(const ParameterScope& scope) {
  (void)scope;
  const int width = static_cast<int>(vector(initial_).size());
  set_width(in_, width);
  set_width(reset_, width);
  set_width(impulse_, width);
  set_width(out_, width);
}

}  // namespace ctde
