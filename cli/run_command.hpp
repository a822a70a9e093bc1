#pragma once
/// `ctde run MODEL.json`: run a model, writing results and a trace.

#include <optional>
#include <string>
#include <vector>

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
  /// Draw a progress bar on `progress_fd` if it is a terminal (ProgressBar).
  bool progress = false;
  int progress_fd = 2;
};

/// What a run gave. Copyable value type.
struct RunOutcome {
  RunResult result;
  std::string model_name;
  /// The results columns that hold discrete signals (empty except at events).
  std::vector<std::string> discrete_columns;
};

/// Loads, validates and runs; writes results and trace as it goes (kept up
/// to a failure).
/// @throws ModelError for a bad model or command line, or an output file
///         that cannot be written (nothing is run).
[[nodiscard]] RunOutcome run_command(const RunRequest& request);

}  // namespace ctde::cli
