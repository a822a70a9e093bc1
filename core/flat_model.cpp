#include "core/flat_model.hpp"

namespace ctde {

namespace {
/// The run of `to` at the place `view` has in `from`.
template <class T>
std::span<T> rebased(std::span<T> view, const std::vector<T>& from, std::vector<T>& to) {
  return {to.data() + (view.data() - from.data()), view.size()};
}
}  // namespace

FlatModel::FlatModel(const FlatModel& other)
    : actors(other.actors),
      continuous_schedule(other.continuous_schedule),
      discrete_schedule(other.discrete_schedule),
      algebraic_loops(other.algebraic_loops),
      loop_breakers(other.loop_breakers),
      loop_wakes(other.loop_wakes),
      ports(other.ports) {
  const FlatPortArrays& from = other.ports;
  for (FlatActor& actor : actors) {
    const auto output = actor.output_kinds.data() - from.output_kinds.data();
    actor.input_kinds = rebased(actor.input_kinds, from.input_kinds, ports.input_kinds);
    actor.input_widths = rebased(actor.input_widths, from.input_widths, ports.input_widths);
    actor.drivers = rebased(actor.drivers, from.drivers, ports.drivers);
    actor.driver_locations = rebased(actor.driver_locations, from.driver_locations, ports.driver_locations);
    actor.output_kinds = rebased(actor.output_kinds, from.output_kinds, ports.output_kinds);
    actor.output_widths = rebased(actor.output_widths, from.output_widths, ports.output_widths);
    actor.receivers =
        ReceiverLists(ports.receivers_begin.data() + output, actor.receivers.size(), ports.receivers.data());
  }
}

FlatModel& FlatModel::operator=(const FlatModel& other) {
  if (this != &other) *this = FlatModel(other);
  return *this;
}

std::optional<FlatIndex> FlatModel::find(const std::string& path) const {
  for (FlatIndex i{0}; i.index() < actors.size(); ++i) {
    if (actors[i.index()].path == path) return i;
  }
  return std::nullopt;
}

}  // namespace ctde
