#pragma once
/// The independent parts of a model's continuous side (docs/semantics.md,
/// "Independent subsystems"): the connected components of a graph whose
/// nodes are actors and whose edges are the connections that tie two
/// actors' continuous behaviour together (a continuous input and its
/// driver, a reader of an output that changes with time and that output's
/// actor). Plain union-find over the actors; the director builds the graph
/// and gives each part with states its own integrator.

#include <cstdint>
#include <span>
#include <vector>

#include "../../core/ids.hpp"

namespace ctde {

/// A partition of actors 0..n-1 (by depth) into connected components.
/// Copyable value type.
class ContinuousParts {
 public:
  /// No part: an actor outside every kept component.
  static constexpr PartId kNoPart{0xffffffffU};

  /// n actors, each its own component.
  explicit ContinuousParts(std::size_t n);

  /// Actors a and b (< n) are in the same component.
  void join(ActorId a, ActorId b);

  /// Per actor: its component's number, or kNoPart for components with no
  /// actor marked in `keep` (size n). Kept components are numbered 0, 1, ...
  /// in the order of their first actor.
  [[nodiscard]] std::vector<PartId> number(std::span<const std::uint8_t> keep);

 private:
  [[nodiscard]] ActorId root(ActorId a);

  std::vector<ActorId> parent_;  ///< per actor: its parent in the union-find forest
};

}  // namespace ctde
