#pragma once
/// Discrete loops through a delay (docs/semantics.md, "Discrete loops
/// through a delay"): a discrete loop that closes through the input of an
/// actor without direct feedthrough that samples its loop
/// (Actor::samples_its_loop(): a UnitDelay, a strictly proper
/// DiscreteTransferFunction, a DiscreteStateSpace with D = 0) is no
/// causality loop. Each token that enters the loop from outside samples it:
/// the breaker fires first, sending its output from its state, then the
/// loop's actors, and the breaker takes its input at the next microstep.

#include <vector>

#include "flat_model.hpp"
#include "run_buffers.hpp"

namespace ctde {

/// True when some actor of `model` may break a discrete loop by sampling
/// it (a discrete input without feedthrough, driven, of an actor that
/// samples its loop): then the schedule is made on the graphs, which order it.
[[nodiscard]] bool may_sample_loops(const FlatModel& model);

/// Finds the actors that break a discrete loop by sampling it and the
/// inputs through which tokens enter their loops, into
/// model.loop_breakers and model.loop_wakes. `component`: each actor's
/// strong component of the graph of all connections.
void find_loop_sampling(FlatModel& model, const std::vector<int>& component);

/// Lays out what the scheduler and the breakers read of model.loop_wakes
/// and model.loop_breakers (RunBuffers::wakes_begin, wakes, sampling), in
/// `b`, whose actors and inputs are laid out already (by depth).
void lay_out_loop_sampling(const FlatModel& model, RunBuffers& b);

}  // namespace ctde
