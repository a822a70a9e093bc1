#pragma once
/// Errors of the `ctde` command itself (as opposed to the model's), and the
/// exit statuses the command returns.

#include <stdexcept>
#include <string>

namespace ctde {

/// Exit statuses of `ctde` (docs/cli.md).
inline constexpr int kExitOk = 0;
/// The model, the command line or an input file is wrong, or a helper
/// program that is needed before anything is produced is missing: nothing
/// is run or written.
inline constexpr int kExitUsage = 2;
/// The run failed part way, an output could not be written, or a step after
/// the run (the plot) failed; the results and trace written so far are kept.
/// (Interrupted commands return 128 + the signal: run/interrupt.hpp.)
inline constexpr int kExitRunFailed = 3;
/// A bug in ctde (an unexpected exception).
inline constexpr int kExitInternal = 4;

/// A failure of a command that is not a model mistake (a malformed trace, a
/// missing or failing helper program, an unwritable file), carrying the exit
/// status the command should return. Copyable.
class CommandError : public std::runtime_error {
 public:
  /// @param status the exit status (kExitUsage or kExitRunFailed).
  CommandError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}

  /// The exit status the command returns for this error.
  [[nodiscard]] int status() const { return status_; }

 private:
  int status_;
};

}  // namespace ctde
