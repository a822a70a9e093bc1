#include "run/interrupt.hpp"

#include <unistd.h>

#include <array>
#include <csignal>
#include <cstring>
#include <ctime>

#include "run/command_error.hpp"

namespace ctde {

namespace {

volatile std::sig_atomic_t g_signal = 0;
/// When the first signal came (CLOCK_MONOTONIC, whole seconds and nanoseconds).
volatile std::sig_atomic_t g_first_seconds = 0;
volatile std::sig_atomic_t g_first_nanoseconds = 0;

/// A second signal this soon after the first is the same request again (a
/// signal sent to the process and to its group, as GNU timeout does).
constexpr double kGraceSeconds = 2.0;

/// The files being written under temporary names (register_emergency_rename).
struct EmergencyRename {
  volatile std::sig_atomic_t used = 0;
  std::array<char, kMaxEmergencyPath> from{};
  std::array<char, kMaxEmergencyPath> to{};
};
std::array<EmergencyRename, kMaxEmergencyRenames> g_renames;

double seconds_since_first() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return static_cast<double>(now.tv_sec - g_first_seconds) +
         1e-9 * static_cast<double>(now.tv_nsec - g_first_nanoseconds);
}

/// The first SIGINT or SIGTERM is noted, and the command stops at its next
/// safe point. A later one is ignored when it was sent by a process (kill,
/// timeout, a batch system: they send it again, or to the process group
/// too) or came within the grace time; a Ctrl-C pressed again later ends
/// the process at once, its files renamed onto their names first (rename
/// and _exit are async-signal-safe).
void on_signal(int signal, siginfo_t* info, void* /*context*/) {
  if (g_signal == 0) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    g_first_seconds = static_cast<std::sig_atomic_t>(now.tv_sec);
    g_first_nanoseconds = static_cast<std::sig_atomic_t>(now.tv_nsec);
    g_signal = signal;
    return;
  }
  const bool from_terminal = info != nullptr && info->si_code == SI_KERNEL;
  if (!from_terminal || seconds_since_first() < kGraceSeconds) return;
  for (const EmergencyRename& r : g_renames) {
    if (r.used != 0) (void)::rename(r.from.data(), r.to.data());
  }
  _exit(interrupted_status(signal));
}

void handle(int signal) {
  struct sigaction current {};
  if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time
  sigaddset(&action.sa_mask, SIGTERM);
  // SA_RESTART: writes and waits resume after the handler, the flag is polled anyway.
  action.sa_flags = SA_RESTART | SA_SIGINFO;
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

int register_emergency_rename(const char* from, const char* to) {
  if (std::strlen(from) >= kMaxEmergencyPath || std::strlen(to) >= kMaxEmergencyPath) return -1;
  for (std::size_t k = 0; k < g_renames.size(); ++k) {
    EmergencyRename& r = g_renames[k];
    if (r.used != 0) continue;
    std::strcpy(r.from.data(), from);  // NOLINT: lengths checked above
    std::strcpy(r.to.data(), to);      // NOLINT
    r.used = 1;                        // after the paths: the handler reads whole ones
    return static_cast<int>(k);
  }
  return -1;
}

void unregister_emergency_rename(int slot) {
  if (slot >= 0 && static_cast<std::size_t>(slot) < g_renames.size())
    g_renames[static_cast<std::size_t>(slot)].used = 0;
}

}  // namespace ctde
