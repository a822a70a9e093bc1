#pragma once
/// The exception family for user mistakes, found before any run.

#include <stdexcept>
#include <string>

#include "source_location.hpp"

namespace ctde {

/// A mistake in a model (bad parameter, unconnected input, type or width
/// mismatch, loop, bad model file...), raised before the run.
///
/// The message names the actor/port path (`plant.spring.k`) and, for model
/// files, the file and the JSON location (`model.json:12:5` for syntax
/// errors, `model.json at /actors/3/params/k` for the rest). `what()` gives
/// the full message: `[file location: ]message`. Copyable.
class ModelError : public std::runtime_error {
 public:
  explicit ModelError(const std::string& message);

  /// The message without the file location.
  [[nodiscard]] const std::string& message() const { return message_; }
  /// The file location, or empty for models built in C++.
  [[nodiscard]] const std::string& location() const { return location_; }

  /// A copy of this error with `location` prepended to the message (none
  /// when `location` is empty).
  [[nodiscard]] ModelError located(const SourceLocation& location) const;

 private:
  ModelError(std::string message, std::string location);
  std::string message_;
  std::string location_;
};

/// A failure during a run (NaN in a derivative, Zeno, chattering, solver
/// failure...). Actors throw it from their run-time calls; the director turns
/// it into a run status naming time, tag and actor. Copyable.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ctde
