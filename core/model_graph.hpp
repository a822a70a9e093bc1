#pragma once
/// The model graph on Boost.Graph: actors are vertices, connections edges.
///
/// Loops and orders come from the graph algorithms: strong components of the
/// direct-feedthrough graph are loops (an algebraic loop when every edge of
/// the cycle is continuous, a causality loop otherwise), and a topological
/// sort of it gives the continuous evaluation schedule and the DE firing depth
/// (the order is refined level by level, grouping actors of one type).

#include <cstdint>

#include <boost/graph/adjacency_list.hpp>

#include "core/flat_model.hpp"

namespace ctde {

/// Edge data: which output drives which input, and whether the input feeds
/// its actor's outputs directly.
struct ConnectionEdge {
  std::uint32_t from_port = 0;
  std::uint32_t to_port = 0;
  bool continuous = false;   ///< both ends resolved continuous
  bool feedthrough = false;  ///< the input feeds an output of its actor directly
};

/// Vertex i is FlatModel::actors[i].
using ModelGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property,
                                         ConnectionEdge>;

/// The graph of all connections of `model` (port kinds must be resolved).
[[nodiscard]] ModelGraph build_model_graph(const FlatModel& model);

/// Checks for algebraic and causality loops, then fills the schedules and depths.
/// @throws ModelError listing the actors on the cycle in order ("a -> b -> a").
void schedule(FlatModel& model);

}  // namespace ctde
