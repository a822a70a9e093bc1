#pragma once
/// `ctde run MODEL.json`: run a model, writing results and a trace.

#include <optional>
#include <ostream>
#include <string>

#include "core/model_file.hpp"
#include "domains/ctde/run_result.hpp"

namespace ctde::cli {

/// What `ctde run` was asked to do. Copyable value type.
struct RunRequest {
  std::string model;
  std::string results;  ///< CSV path, or empty for none
  std::string trace;    ///< JSON Lines path, or empty for none
  ParameterOverrides overrides;
  std::optional<double> stop_time;
};

/// Loads, validates and runs; writes results and trace as it goes (kept up
/// to a failure).
/// @throws ModelError for a bad model or command line (nothing is run);
///         std::runtime_error when an output file cannot be written.
[[nodiscard]] RunResult run_command(const RunRequest& request);

}  // namespace ctde::cli
