#include "run/interrupt.hpp"

#include <csignal>

#include "run/command_error.hpp"

namespace ctde {

namespace {

volatile std::sig_atomic_t g_signal = 0;

/// Only notes the signal: anything more is not async-signal-safe.
void note_signal(int signal) { g_signal = signal; }

void handle(int signal) {
  struct sigaction current {};
  if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: writes and waits resume after the handler, the flag is
  // polled anyway. SA_RESETHAND: a second Ctrl-C ends a command that does not stop.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(signal, &action, nullptr);
}

}  // namespace

void install_interrupt_handlers() {
  handle(SIGINT);
  handle(SIGTERM);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

int interrupt_signal() { return g_signal; }

void throw_if_interrupted() {
  if (const int signal = g_signal; signal != 0) throw CommandError(interrupted_status(signal), "interrupted");
}

}  // namespace ctde
