// Inputs found by fuzzing (scripts/fuzz.sh), kept in tests/cli/data/fuzz/:
// the model loader's (*.json there, model files) must give a clear error
// (exit status 2), never an internal error (4) or a crash; the command
// path's (command/, `--set` lines then a model: bench/fuzz/command_path.hpp)
// must give a model error or a clean run, as every input of both does when
// replayed through the command path (validate's checks and a short run).
#include <doctest/doctest.h>

#include "bench/fuzz/command_path.hpp"
#include "support/cli_helpers.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace {

/// The regular files in tests/cli/data/fuzz/`folder` (if it exists), sorted.
std::vector<std::filesystem::path> fuzz_inputs(const std::string& folder) {
  const std::filesystem::path path = std::string(CTDE_SOURCE_DIR) + "/tests/cli/data/fuzz/" + folder;
  std::vector<std::filesystem::path> inputs;
  if (!std::filesystem::is_directory(path)) return inputs;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

/// `text` quoted for the shell.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The last line of `text` (which ends with '\n').
std::string last_line(const std::string& text) {
  const std::size_t start = text.rfind('\n', text.size() - 2);
  return text.substr(start == std::string::npos ? 0 : start + 1);
}

}  // namespace

// number_overflow*.json: a number beyond the range of a double used to escape
// the loader as nlohmann::out_of_range (exit 4) instead of a ModelError.
TEST_CASE("ctde validate answers every loader fuzzer finding with a model error") {
  const std::vector<std::filesystem::path> inputs = fuzz_inputs("");
  REQUIRE_FALSE(inputs.empty());
  for (const auto& input : inputs) {
    CAPTURE(input);
    const ctde::test::CommandResult r = ctde::test::run_cli("validate " + input.string());
    CHECK(r.status == 2);
    CHECK(r.output.find("ctde: error: ") != std::string::npos);
    CHECK(r.output.find(input.filename().string()) != std::string::npos);  // names the file
  }
}

TEST_CASE("the command path answers every fuzzer finding with a model error or a clean run") {
  std::vector<std::filesystem::path> inputs = fuzz_inputs("");
  const std::vector<std::filesystem::path> command = fuzz_inputs("command");
  inputs.insert(inputs.end(), command.begin(), command.end());
  REQUIRE_FALSE(inputs.empty());
  for (const auto& input : inputs) {
    CAPTURE(input);
    const std::string text = ctde::test::read_text(input);
    // In memory, as the fuzzer runs it: nothing but a ModelError escapes,
    // and the run keeps to its budget (0.2 s) whatever the model asks for.
    // Only a hang guard, 100 times the budget: a busy machine under the
    // sanitizers may take seconds, a run that ignores its budget minutes.
    const auto start = std::chrono::steady_clock::now();
    const ctde::fuzz::CommandOutcome outcome = ctde::fuzz::run_command_path(text);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    if (outcome.model_error) {
      CHECK_FALSE(outcome.model_error->empty());
    } else {
      const ctde::RunResult& result = outcome.result;
      CAPTURE(result.message);
      CHECK((result.status != ctde::RunStatus::kError || !result.message.empty()));
      // Whole outputs, however the run ended: the header and whole rows, the trace up to run_end.
      CHECK(outcome.results.starts_with("time,microstep"));
      CHECK(outcome.results.ends_with("\n"));
      REQUIRE(outcome.trace.ends_with("\n"));
      CHECK(last_line(outcome.trace).starts_with("{\"kind\":\"run_end\""));
    }
    // The command on the same input: `ctde validate --set ... MODEL` exits
    // with 2 exactly when the path gave a model error, and with 0 otherwise.
    const ctde::fuzz::CommandInput parts = ctde::fuzz::split_command_input(text);
    const bool passable = std::none_of(parts.sets.begin(), parts.sets.end(), [](const std::string& s) {
      return s.find('\0') != std::string::npos;
    });
    if (!passable) continue;  // a NUL cannot be in a command-line argument
    const auto model = ctde::test::scratch_file("ctde-fuzz-findings", input.filename().string() + ".json");
    {
      std::ofstream out(model, std::ios::binary);
      out << parts.model;
    }
    std::string arguments = "validate";
    for (const auto& set : parts.sets) arguments += " " + quoted("--set=" + set);
    arguments += " " + quoted(model.string());
    const ctde::test::CommandResult r = ctde::test::run_cli(arguments);
    CAPTURE(r.output);
    CHECK(r.status == (outcome.model_error ? 2 : 0));
  }
}
