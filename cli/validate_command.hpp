#pragma once
/// `ctde validate MODEL.json`: check a model and print what validation resolved.

#include <optional>
#include <ostream>
#include <string>

#include "core/model_file.hpp"

namespace ctde::cli {

/// Loads `path` and checks everything `ctde run` checks before it runs
/// (set_up_run: `stop_time` overrides the director's), then writes one line
/// per actor in evaluation order (time mode, port widths and kinds, depth) to `out`.
/// @throws ModelError on the first mistake.
/// With `json`, the same as one JSON document for scripts (docs/cli.md,
/// "validate --json"): the model's parameters and each actor's with their
/// values, time modes, ports with widths and kinds, the schedules and the
/// continuous states in the state vector's order.
void validate_command(const std::string& path, const ParameterOverrides& overrides,
                      std::optional<double> stop_time, std::ostream& out, bool json = false);

}  // namespace ctde::cli
