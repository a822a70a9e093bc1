#pragma once
/// The model graph on Boost.Graph (an adjacency_list built in model_graph.cpp):
/// actors are vertices, zero-delay connections edges.
///
/// Loops and orders come from the graph algorithms: strong components of the
/// direct-feedthrough graph are loops (an algebraic loop, solved, when every
/// edge of the cycle is continuous; a causality loop, an error, otherwise), and a topological
/// sort of it gives the continuous evaluation schedule and the DE firing depth
/// (the order is refined level by level, grouping actors of one type).

#include "flat_model.hpp"

namespace ctde {

/// Checks for causality loops, finds the algebraic loops and their tears
/// (FlatModel::algebraic_loops), then fills the schedules and depths.
/// @throws ModelError listing the actors on the cycle in order ("a -> b -> a"):
///         a causality loop, or an algebraic loop that cannot be solved
///         (through a constant or discrete actor).
void schedule(FlatModel& model);

/// The error that refuses `loop` (director option `algebraic_loops: "error"`):
/// "algebraic loop among direct-feedthrough continuous actors: a -> b -> a
/// (break it with ...)", located at its first actor.
[[noreturn]] void throw_algebraic_loop(const FlatModel& model, const AlgebraicLoop& loop);

}  // namespace ctde
