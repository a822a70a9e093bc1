#pragma once
/// The validated, flattened model that the director runs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actor.hpp"
#include "ids.hpp"
#include "port.hpp"

namespace ctde {

/// An output or input of a leaf actor in the flattened model. Copyable value type.
struct PortRef {
  FlatIndex actor;         ///< its actor, in FlatModel::actors
  std::uint32_t port = 0;  ///< index into that actor's inputs or outputs

  friend bool operator==(const PortRef&, const PortRef&) = default;
};

/// A leaf actor with everything validation resolved. Copyable value type
/// (refers to the actor, which the Model owns).
struct FlatActor {
  Actor* actor = nullptr;
  std::string path;
  TimeMode mode = TimeMode::kUnresolved;  ///< resolved: never kUnresolved
  std::vector<PortKind> input_kinds;      ///< resolved: continuous, discrete or constant
  std::vector<PortKind> output_kinds;
  std::vector<int> input_widths;
  std::vector<int> output_widths;
  std::vector<std::optional<PortRef>> drivers;  ///< per input: the output driving it
  /// Per input: where its connection was written (views the Connection's
  /// location in the Model: valid while the Model's connections are unchanged).
  std::vector<std::string_view> driver_locations;
  std::vector<std::vector<PortRef>> receivers;  ///< per output: the inputs it drives
  ActorId depth;  ///< its position in the topological order of all zero-delay edges
};

/// The flattened, validated model. Indices are stable for one validation.
/// Copyable value type (refers to actors owned by the Model, which must outlive it).
struct FlatModel {
  std::vector<FlatActor> actors;  ///< in definition order (depth-first through composites)
  /// Continuous actors in evaluation order (topological order of direct feedthrough).
  std::vector<FlatIndex> continuous_schedule;
  /// Discrete actors in firing-depth order.
  std::vector<FlatIndex> discrete_schedule;

  /// The index of the actor with full path `path`, if any.
  [[nodiscard]] std::optional<FlatIndex> find(const std::string& path) const;
  /// The actor at `index`. Precondition: index < actors.size().
  [[nodiscard]] const FlatActor& operator[](FlatIndex index) const { return actors[index.index()]; }
};

}  // namespace ctde
