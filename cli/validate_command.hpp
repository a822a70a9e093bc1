#pragma once
/// `ctde validate MODEL.json`: check a model and print what validation resolved.

#include <ostream>
#include <string>

#include "core/model_file.hpp"

namespace ctde::cli {

/// Loads and validates `path`, then writes one line per actor in evaluation
/// order (time mode, port widths and kinds, depth) to `out`.
/// @throws ModelError on the first mistake.
void validate_command(const std::string& path, const ParameterOverrides& overrides, std::ostream& out);

}  // namespace ctde::cli
