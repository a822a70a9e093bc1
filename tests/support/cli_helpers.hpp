#pragma once
// Running the `ctde` command from tests.

#include <doctest/doctest.h>

#include <sys/wait.h>
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

/// `name` in a scratch folder `folder` under the temporary folder (created).
inline std::filesystem::path scratch_file(const std::string& folder, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / folder;
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
