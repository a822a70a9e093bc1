#pragma once
/// The model graph on Boost.Graph (an adjacency_list built in model_graph.cpp):
/// actors are vertices, zero-delay connections edges.
///
/// Loops and orders come from the graph algorithms: strong components of the
/// direct-feedthrough graph are loops (an algebraic loop when every edge of
/// the cycle is continuous, a causality loop otherwise), and a topological
/// sort of it gives the continuous evaluation schedule and the DE firing depth
/// (the order is refined level by level, grouping actors of one type).

#include "flat_model.hpp"

namespace ctde {

/// Checks for algebraic and causality loops, then fills the schedules and depths.
/// @throws ModelError listing the actors on the cycle in order ("a -> b -> a").
void schedule(FlatModel& model);

}  // namespace ctde
