#include "actors/discrete/accumulator.hpp"

namespace ctde {

Accumulator::Accumulator(std::string name) : Actor(std::move(name), "Accumulator", TimeMode::kDiscrete) {
  declare_input("in", PortKind::kDiscrete);
  declare_output("out", PortKind::kDiscrete);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void Accumulator::check_widths(std::span<const int> input_widths,
                               std::span<const int> /*output_widths*/) const {
  const auto initial = vector(initial_).size();
  if (initial != 1 && static_cast<int>(initial) != input_widths[0]) {
    fail(initial_, "has " + std::to_string(initial) + " entries but the input has width " +
                       std::to_string(input_widths[0]));
  }
}

}  // namespace ctde
