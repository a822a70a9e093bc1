#pragma once
/// Ctrl-C (SIGINT) and SIGTERM: the command stops at its next safe point
/// instead of dying mid-line. The handler only notes the signal; `ctde run`
/// polls it through the director's stop check (after every solver step and
/// DE phase), the other commands between lines or steps. A second signal
/// sent by a process (kill, GNU timeout, which signals the process and its
/// group) or within 2 s of the first changes nothing; a Ctrl-C pressed again
/// later ends the process at once, with the files it was writing renamed
/// onto their names first (docs/cli.md, "Signals").

#include <cstddef>

namespace ctde {

/// How many files, and how long their paths, the emergency renames hold.
inline constexpr std::size_t kMaxEmergencyRenames = 8;
inline constexpr std::size_t kMaxEmergencyPath = 4096;

/// Installs the handlers. A signal that was ignored when ctde started (a
/// background job started by a shell) stays ignored. SIGPIPE is ignored too,
/// so that a closed pipe is a write error the command reports and cleans up
/// after, not a sudden end. Call once, before anything is written.
void install_interrupt_handlers();

/// The signal that asked the command to stop (SIGINT or SIGTERM), or 0.
[[nodiscard]] int interrupt_signal();

/// The exit status of a command stopped by `signal`: 128 + signal (130 for
/// SIGINT, 143 for SIGTERM), as a shell reports a process the signal killed.
[[nodiscard]] constexpr int interrupted_status(int signal) { return 128 + signal; }

/// @throws CommandError (interrupted_status()) when a signal asked to stop.
void throw_if_interrupted();

/// A file written under the temporary name `from`, to be renamed onto `to`
/// if a second Ctrl-C ends the process at once. Returns its slot, or -1 when
/// the table is full or a path too long (the file is then left as it is).
int register_emergency_rename(const char* from, const char* to);
/// The file of `slot` was renamed (or removed) the usual way. -1: nothing.
void unregister_emergency_rename(int slot);

}  // namespace ctde
