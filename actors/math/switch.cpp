#include "actors/math/switch.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

Switch::Switch(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  in0_ = declare_input("in0", PortKind::kPolymorphic);
  in1_ = declare_input("in1", PortKind::kPolymorphic);
  control_ = declare_input("control", PortKind::kPolymorphic, 1);
  out_ = declare_output("out", PortKind::kPolymorphic);
  threshold_ = declare_parameter("threshold", ParamKind::kScalar, 0.0);
}

int Switch::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  return std::max(input_widths[in0_.index], input_widths[in1_.index]);  // the data inputs', not control's
}

void Switch::evaluate(EvalContext& context) const {
  const bool first = context.input(control_)[0] >= scalar(threshold_);
  const auto u = context.input(first ? in0_ : in1_);
  std::copy(u.begin(), u.end(), context.output(out_).begin());
}

}  // namespace ctde
