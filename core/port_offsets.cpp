#include "core/port_offsets.hpp"

namespace ctde {

PortOffsets::PortOffsets(const FlatModel& model) : first_(model.actors.size()) {
  const FlatPortArrays& ports = model.ports;
  for (std::size_t i = 0; i < model.actors.size(); ++i) {
    const FlatActor& actor = model.actors[i];
    first_[i].input = static_cast<std::uint32_t>(actor.input_widths.data() - ports.input_widths.data());
    first_[i].output = static_cast<std::uint32_t>(actor.output_widths.data() - ports.output_widths.data());
  }
}

}  // namespace ctde
