#pragma once
/// Ctrl-C (SIGINT) and SIGTERM: the command stops at its next safe point
/// instead of dying mid-line. The handler only notes the signal; `ctde run`
/// polls it through the director's stop check (after every solver step and
/// DE phase), the other commands between lines or steps. A second signal
/// ends the process at once (the handler is reset after the first).

namespace ctde {

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

}  // namespace ctde
