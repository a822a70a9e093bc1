#pragma once
/// Time-mode resolution for polymorphic actors (docs/validation.md, "Time-mode resolution").
///
/// Before the rules run, an actor's `time_mode` override is applied, and a
/// polymorphic actor whose inputs are all driven by constant outputs becomes
/// constant itself (a Constant fits either side, and so does a Gain of a
/// Constant). Then, with constant drivers neutral:
/// 1. an unassigned actor with at least one non-constant upstream, all of
///    whose non-constant upstreams are discrete, becomes discrete; each change
///    revisits its downstream actors, until nothing changes;
/// 2. every actor still unassigned becomes continuous.
/// A polymorphic input of an actor of a fixed mode (a co-simulation FMU's)
/// takes the kind of its driver. Then every connection is checked: a
/// continuous output never drives a discrete input, nor the reverse.

#include "flat_model.hpp"

namespace ctde {

/// Resolves `FlatActor::mode`, `input_kinds` and `output_kinds` of every actor.
/// Requires drivers and receivers to be bound.
/// @throws ModelError for a continuous↔discrete connection, naming both ports
///         and the converter to insert.
void resolve_time_modes(FlatModel& model);

}  // namespace ctde
