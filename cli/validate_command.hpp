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
void validate_command(const std::string& path, const ParameterOverrides& overrides,
                      std::optional<double> stop_time, std::ostream& out);

}  // namespace ctde::cli
