#include "actors/discrete/counter.hpp"

namespace ctde {

Counter::Counter(std::string name) : Actor(std::move(name), "Counter", TimeMode::kDiscrete) {
  declare_input("in", PortKind::kDiscrete);
  declare_output("out", PortKind::kDiscrete, 1);
}

void Counter::check_widths(std::span<const int> /*input_widths*/,
                           std::span<const int> /*output_widths*/) const {}  // counts any width

}  // namespace ctde
