#pragma once
// Running the `ctde` command from tests.

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace ctde::test {

/// What a command printed (stdout and stderr) and its exit status.
struct CommandResult {
  int status = -1;
  std::string output;
};

/// Runs `command` through the shell and waits for it: its exit status and
/// what it wrote to stdout (redirect stderr in the command to keep it too).
inline CommandResult run_shell(const std::string& command) {
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

/// Runs `ENVIRONMENT ctde ARGUMENTS` (the binary under test) through the
/// shell and waits for it; `environment` is a list of NAME=VALUE, or empty.
inline CommandResult run_cli_env(const std::string& environment, const std::string& arguments) {
  std::string command = environment;
  if (!command.empty()) command += ' ';
  command += CTDE_CLI;
  command += ' ';
  command += arguments;
  command += " 2>&1";
  return run_shell(command);
}

/// Runs `ctde ARGUMENTS` (the binary under test) and waits for it.
inline CommandResult run_cli(const std::string& arguments) { return run_cli_env("", arguments); }

/// The whole content of file `path` (empty if it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// This test process's own scratch folder, `ctde-tests-PID` under the
/// temporary folder as it was when the process started (a test that points
/// TMPDIR elsewhere for a while does not move it): ctest runs several test
/// processes at once, and two of them writing the same file would fail each
/// other. Removed when the process that made it exits.
class ScratchRoot {
 public:
  ScratchRoot()
      : pid_(getpid()),
        path_(std::filesystem::temp_directory_path() / ("ctde-tests-" + std::to_string(getpid()))) {}
  ScratchRoot(const ScratchRoot&) = delete;
  ScratchRoot& operator=(const ScratchRoot&) = delete;
  ~ScratchRoot() {
    std::error_code ignored;
    if (getpid() == pid_) std::filesystem::remove_all(path_, ignored);  // not from a forked child
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  pid_t pid_;
  std::filesystem::path path_;
};
/// Made before main(), so before any test changes TMPDIR.
inline const ScratchRoot kScratchRoot;

/// This process's scratch folder (created).
inline const std::filesystem::path& scratch_root() {
  std::filesystem::create_directories(kScratchRoot.path());
  return kScratchRoot.path();
}

/// `name` in a scratch folder `folder` of this process's own (created).
inline std::filesystem::path scratch_file(const std::string& folder, const std::string& name) {
  const auto dir = kScratchRoot.path() / folder;
  std::filesystem::create_directories(dir);
  return dir / name;
}

/// Whether `text` contains `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Checks that `text` contains each of `parts`: one check per part, which
/// names the part when it fails.
inline void check_contains(const std::string& text, std::initializer_list<std::string> parts) {
  for (const std::string& part : parts) CHECK_MESSAGE(contains(text, part), "missing: " << part);
}

/// The DOT text of subgraph `name` in `dot`, from its header to the first
/// closing line "  }" after it (not included), or "" when there is none.
inline std::string dot_subgraph(const std::string& dot, const std::string& name) {
  const auto start = dot.find("subgraph \"" + name + "\"");
  if (start == std::string::npos) return "";
  const auto end = dot.find("\n  }\n", start);
  return dot.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
}

/// The folder of the bundled example models, with a trailing slash.
inline std::string example_models() { return std::string(CTDE_SOURCE_DIR) + "/examples/models/"; }

/// The text of the bundled example model `name` ("hard_stop.json"); the
/// test fails when it cannot be read.
inline std::string read_example(const std::string& name) {
  std::ifstream in(example_models() + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read examples/models/" << name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The cells of one CSV line (no quoting: ctde writes none).
inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

}  // namespace ctde::test
