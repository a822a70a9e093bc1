#include "cli/process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "run/command_error.hpp"

extern char** environ;  // NOLINT: POSIX

namespace ctde::cli {

ProcessResult run_process(const std::vector<std::string>& arguments) {
  assert(!arguments.empty());
  std::vector<std::string> copies = arguments;  // posix_spawn wants char*, not const char*
  std::vector<char*> argv;
  argv.reserve(copies.size() + 1);
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);

  // ctde ignores SIGPIPE (run/interrupt.hpp), and an ignored signal stays
  // ignored across exec: the helper gets the default back.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

  ProcessResult result;
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], nullptr, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    result.error = spawned;
    return result;
  }
  result.started = true;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = errno;
      return result;
    }
  }
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string describe(const ProcessResult& result) {
  std::string text;
  if (!result.started) {
    text = "could not be started: ";
    text += std::strerror(result.error);
  } else if (result.signal != 0) {
    text = "was killed by signal ";
    text += std::to_string(result.signal);
  } else {
    text = "ended with exit status ";
    text += std::to_string(result.exit_status);
  }
  return text;
}

std::filesystem::path make_temporary_file(const std::string& stem, const std::string& suffix) {
  std::string pattern = (std::filesystem::temp_directory_path() / "ctde-").string();
  pattern += stem;
  pattern += "-XXXXXX";
  pattern += suffix;
  const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
  if (fd < 0) {
    std::string message = "cannot create a temporary file ";
    message += pattern;
    message += ": ";
    message += std::strerror(errno);
    throw CommandError(kExitUsage, message);
  }
  close(fd);
  return pattern;
}

}  // namespace ctde::cli
