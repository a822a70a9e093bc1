#include "actors/base/initial_value_actor.hpp"

#include <string>

namespace ctde {

InitialValueActor::InitialValueActor(std::string name, const ActorInfo& info, TimeMode mode,
                                     PortKind output_kind)
    : UnaryActor(std::move(name), info, mode, PortKind::kDiscrete, output_kind) {
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void InitialValueActor::check_widths(std::span<const int> input_widths,
                                     std::span<const int> /*output_widths*/) const {
  const std::size_t count = vector(initial_).size();
  const int width = input_widths[in_.index];
  if (count != 1 && static_cast<int>(count) != width) {
    fail(initial_, "has " + std::to_string(count) + " values but the input has width " +
                       std::to_string(width) + "; give one value or " + std::to_string(width));
  }
}

void InitialValueActor::fill_initial(std::span<double> values) const { broadcast(vector(initial_), values); }

}  // namespace ctde
