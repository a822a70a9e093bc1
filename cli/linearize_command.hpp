#pragma once
/// `ctde linearize MODEL.json --at T`: A, B, C, D of the model's continuous
/// side at time T, with the names of its states, inputs and outputs and the
/// eigenvalues of A (docs/cli.md, "linearize"; docs/semantics.md, "Linearization").

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/model_file.hpp"

namespace ctde::cli {

/// What `ctde linearize` was asked for.
struct LinearizeRequest {
  std::string model;
  ParameterOverrides overrides;
  std::optional<double> at;  ///< empty: at the start time
  std::string resume;        ///< a snapshot file to start from instead of running from the start
  std::optional<std::vector<std::string>> inputs;  ///< "actor.port"; empty: the model's declared inputs
  std::optional<std::vector<std::string>>
      outputs;         ///< empty: its declared outputs, else its recorded continuous ones
  std::string output;  ///< "": print only; .json, .mat or .npz
};

/// Runs the model to `at` (its events there included; from the snapshot
/// `resume` when given, which may stand at `at` already), linearizes it there
/// and prints the matrices with their names and the eigenvalues of A to
/// `out`; writes them to request.output when given.
/// @throws ModelError for a bad model, port or file name (exit 2); a
///         std::runtime_error when the run fails before `at` or a value is
///         not finite (exit 3).
void linearize_command(const LinearizeRequest& request, std::ostream& out);

}  // namespace ctde::cli
