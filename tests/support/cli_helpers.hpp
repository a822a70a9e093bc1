#pragma once
// Running the `ctde` command from tests.

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace ctde::test {

/// What a command printed (stdout and stderr) and its exit status.
struct CommandResult {
  int status = -1;
  std::string output;
};

/// Runs `ctde ARGUMENTS` (the binary under test) and waits for it.
inline CommandResult run_cli(const std::string& arguments) {
  const std::string command = std::string(CTDE_CLI) + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    result.output.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace ctde::test
