#pragma once
/// The error of a results file that cannot be written (HDF5, MAT).

#include <stdexcept>
#include <string>

namespace ctde::results {

/// A results file could not be created or written; the message names the
/// file and what failed. Copyable.
class WriteError : public std::runtime_error {
 public:
  explicit WriteError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace ctde::results
