#include "actors/converters/first_order_hold.hpp"

namespace ctde {

FirstOrderHold::FirstOrderHold(std::string name) : Actor(std::move(name), "FirstOrderHold", TimeMode::kHybrid) {
  declare_input("in", PortKind::kDiscrete);
  declare_output("out", PortKind::kContinuous);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void FirstOrderHold::check_widths(std::span<const int> input_widths,
                         std::span<const int> /*output_widths*/) const {
  const auto initial = vector(initial_).size();
  if (initial != 1 && static_cast<int>(initial) != input_widths[0]) {
    fail(initial_, "has " + std::to_string(initial) + " entries but the input has width " +
                       std::to_string(input_widths[0]) + "; give 1 or " + std::to_string(input_widths[0]));
  }
}

}  // namespace ctde
