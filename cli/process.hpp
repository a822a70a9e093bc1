#pragma once
/// Running helper programs (Graphviz `dot`, Python for plots) and making
/// temporary files for them.

#include <filesystem>
#include <string>
#include <vector>

namespace ctde::cli {

/// How a helper program ended. Copyable value type.
struct ProcessResult {
  bool started = false;  ///< false: it could not be started (see `error`)
  int error = 0;         ///< errno when it could not be started (ENOENT: not found)
  int exit_status = -1;  ///< its exit status when it exited normally, else -1
  int signal = 0;        ///< the signal that ended it, or 0
};

/// Runs `arguments[0]` with `arguments` (a name without '/' is looked up on
/// PATH) and waits for it. It inherits stdin, stdout, stderr and the
/// environment; no shell is involved, so no quoting is needed.
/// @pre `arguments` is not empty.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& arguments);

/// "exit status 1", "killed by signal 9" or "could not be started: <reason>".
[[nodiscard]] std::string describe(const ProcessResult& result);

/// Creates an empty file with a unique name in the temporary folder, named
/// `ctde-<stem>-XXXXXX<suffix>`, and returns its path. The caller removes it.
/// @throws CommandError (kExitUsage) when it cannot be created.
[[nodiscard]] std::filesystem::path make_temporary_file(const std::string& stem, const std::string& suffix);

}  // namespace ctde::cli
