#pragma once
/// A linearization (Director::linearize) written for other tools, in the
/// format its file's extension names: JSON, a MAT file (MATLAB,
/// scipy.io.loadmat) or an .npz archive (numpy.load). Each holds A, B, C, D,
/// the names of the states, inputs and outputs, the eigenvalues of A and the
/// time (docs/cli.md, "linearize").

#include <cstddef>
#include <string>
#include <vector>

#include "domains/ctde/director.hpp"

namespace ctde::results {

/// One of A, B, C, D: its name, its size and its values, row by row.
struct LinearizationMatrix {
  const char* name;
  std::size_t rows;
  std::size_t columns;
  const std::vector<double>* values;
};

/// A, B, C and D of `lin`, in that order (pointing into it).
[[nodiscard]] std::vector<LinearizationMatrix> linearization_matrices(const Director::Linearization& lin);

/// True when the extension of `path` is a format write_linearization_file writes: .json, .mat, .npz.
[[nodiscard]] bool is_linearization_file(const std::string& path);

/// Writes `lin` to `path` (created or truncated) in the format of its extension.
/// @throws WriteError naming the file and what failed; std::invalid_argument
///         for an extension that is_linearization_file refuses.
void write_linearization_file(const std::string& path, const Director::Linearization& lin);

}  // namespace ctde::results
