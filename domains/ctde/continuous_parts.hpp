#pragma once
/// The independent parts of a model's continuous side (docs/semantics.md,
/// "Independent subsystems"): the connected components of a graph whose
/// nodes are actors and whose edges are the connections that tie two
/// actors' continuous behaviour together (a continuous input and its
/// driver, a reader of an output that changes with time and that output's
/// actor). Plain union-find over node numbers; the director builds the
/// graph and gives each part with states its own integrator.

#include <cstdint>
#include <span>
#include <vector>

namespace ctde {

/// A partition of nodes 0..n-1 into connected components. Copyable value type.
class ContinuousParts {
 public:
  /// No part: a node outside every kept component.
  static constexpr std::uint32_t kNoPart = 0xffffffffU;

  /// n nodes, each its own component.
  explicit ContinuousParts(std::size_t n);

  /// Nodes a and b (< n) are in the same component.
  void join(std::uint32_t a, std::uint32_t b);

  /// Per node: its component's number, or kNoPart for components with no
  /// node marked in `keep` (size n). Kept components are numbered 0, 1, ...
  /// in the order of their first node.
  [[nodiscard]] std::vector<std::uint32_t> number(std::span<const std::uint8_t> keep);

 private:
  [[nodiscard]] std::uint32_t root(std::uint32_t a);

  std::vector<std::uint32_t> parent_;
};

}  // namespace ctde
