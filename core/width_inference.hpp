#pragma once
/// Width inference and checking for vector signals.
///
/// Fixed widths come from the declarations (and from parameters, in
/// configure()); an inferred input takes its driver's width; an inferred
/// output asks its actor (Actor::infer_output_width). Widths still unknown
/// when nothing changes (a loop of inferred widths without a source) become 1.

#include "flat_model.hpp"

namespace ctde {

/// Fills `input_widths` and `output_widths` of every actor.
/// @throws ModelError for a connection whose two ends differ (naming both
///         ports and both widths) or an actor whose own check fails.
void infer_widths(FlatModel& model);

}  // namespace ctde
