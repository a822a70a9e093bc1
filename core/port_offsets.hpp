#pragma once
/// Where each actor's runs of a FlatModel's port arrays begin, in one
/// compact array: a pass that follows connections (width inference, time
/// modes) goes from a PortRef to its element of FlatPortArrays without
/// reading the actor's FlatActor, which in a large model is a cache miss
/// away from the one before.

#include <cstdint>
#include <vector>

#include "flat_model.hpp"

namespace ctde {

/// Per actor of one FlatModel, the index of its first input and of its
/// first output in the FlatPortArrays (8 bytes an actor). Valid while that
/// model's actors and port arrays keep their layout. Copyable value type.
class PortOffsets {
 public:
  /// Reads every actor's runs. Precondition: the actors' spans view
  /// `model.ports` (as validation lays them out).
  explicit PortOffsets(const FlatModel& model);

  /// The index in the input arrays (input_kinds, input_widths, drivers,
  /// driver_locations) of input `ref`. Precondition: ref names an input of
  /// the model.
  [[nodiscard]] std::size_t input(const PortRef& ref) const {
    return first_[ref.actor.index()].input + ref.port;
  }
  /// The index in the output arrays (output_kinds, output_widths,
  /// receivers_begin) of output `ref`. Precondition: ref names an output.
  [[nodiscard]] std::size_t output(const PortRef& ref) const {
    return first_[ref.actor.index()].output + ref.port;
  }
  /// The number of actors.
  [[nodiscard]] std::size_t size() const { return first_.size(); }

 private:
  struct First {
    std::uint32_t input = 0;
    std::uint32_t output = 0;
  };
  std::vector<First> first_;
};

}  // namespace ctde
