#pragma once
/// The schedule of a model without zero-delay loops, on flat arrays: the
/// common case of large models, where the Boost graphs of model_graph.cpp
/// cost most of validation's time and memory. Internal to schedule().

#include "flat_model.hpp"

namespace ctde {

/// When no connection into a feedthrough input closes a cycle (no
/// algebraic or causality loop, no loop to order by ports), fills the
/// schedules and depths exactly as schedule() does and returns true;
/// otherwise changes nothing and returns false (schedule() then takes the
/// general path, which reports or orders the loops).
[[nodiscard]] bool schedule_acyclic(FlatModel& model);

/// schedule() on Boost graphs, for any model: the path of models with
/// zero-delay cycles (model_graph.cpp). Tests compare it with schedule_acyclic().
/// @throws ModelError as schedule().
void schedule_on_graphs(FlatModel& model);

/// True when `actor` belongs in the continuous schedule.
[[nodiscard]] bool in_continuous_schedule(const FlatActor& actor);
/// True when `actor` belongs in the discrete schedule.
[[nodiscard]] bool in_discrete_schedule(const FlatActor& actor);

}  // namespace ctde
