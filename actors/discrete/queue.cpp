#include "actors/discrete/queue.hpp"

#include <cmath>

#include "core/format.hpp"

namespace ctde {

Queue::Queue(std::string name) : Actor(std::move(name), "Queue", TimeMode::kDiscrete) {
  declare_input("in", PortKind::kDiscrete);
  declare_input("trigger", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  declare_output("out", PortKind::kDiscrete);
  capacity_ = declare_parameter("capacity", ParamKind::kScalar, HUGE_VAL);
  set_feedthrough(std::vector<std::pair<std::size_t, std::size_t>>{{1, 0}});
}

void Queue::configure(const ParameterScope& scope) {
  (void)scope;
  const double capacity = scalar(capacity_);
  if (!(capacity >= 1) || (std::isfinite(capacity) && capacity != std::floor(capacity))) {
    fail(capacity_, "must be a whole number >= 1 or \"inf\", got " + format_double(capacity));
  }
}

int Queue::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  return input_widths[0];
}

void Queue::check_widths(std::span<const int> /*input_widths*/,
                         std::span<const int> /*output_widths*/) const {}  // any trigger width

}  // namespace ctde
