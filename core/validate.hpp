#pragma once
/// Validation: everything checked before a run, in this order:
///
/// 1. model parameters, then every actor's parameters (bad or undefined
///    expressions name the actor and the parameter), then each actor's configure();
/// 2. flattening: connections bound to leaf ports through composites (unknown
///    actors and ports, wrong direction, two drivers on one input, unconnected inputs);
/// 3. time modes (time_mode_resolution.hpp), then the port type check
///    (a continuous port never meets a discrete one);
/// 4. widths (width_inference.hpp);
/// 5. loops and schedules (model_graph.hpp): algebraic and causality loops,
///    evaluation order, firing depth.
///
/// Each failure is a ModelError naming the full actor/port path (and the
/// JSON location when the model came from a file).

#include "flat_model.hpp"
#include "model.hpp"

namespace ctde {

/// Validates `model` and returns the flattened model the director runs.
/// @throws ModelError on the first mistake found.
[[nodiscard]] FlatModel validate(Model& model);

/// Step 1 and 2 only: parameters and flattening. @throws ModelError.
[[nodiscard]] FlatModel flatten(Model& model);

}  // namespace ctde
