#pragma once
// The whole path of `ctde validate` and `ctde run` for one fuzzer input, in
// memory: shared by the libFuzzer target bench/fuzz/command_fuzzer.cpp and
// its regression test (tests/cli/test_cli_fuzz_findings.cpp), so that the
// findings are replayed through the same code in the normal build.
//
// An input is text: up to kMaxSets lines `--set NAME=VALUE` at its start
// (each ended by '\n'; what follows "--set " is the command-line argument,
// parsed as the command parses it), then the model file's JSON text (all
// the rest). An input without such lines is a model file as it is, so the
// loader fuzzer's inputs (tests/cli/data/fuzz/*.json) are inputs here too.
//
// The path: the model loaded with the overrides (load_model_text; relative
// `file` parameters resolve in a folder that does not exist, so that inputs
// never read the machine's files), everything validate and run check before
// a run (set_up_run, which also constructs a Director), then a run with
// a budget into a results CSV and a trace on std::ostringstream. The budget:
// the director's stop check ends the run (RunStatus::kInterrupted) after
// Budget::polls calls or once Budget::wall has passed, whichever comes first.
//
// The contract: bad input gives a ModelError (what `ctde` reports with exit
// status 2) or a RunResult (ok, stopped, error, interrupted); nothing else
// escapes, and nothing crashes, hangs, leaks or runs into undefined behaviour.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/csv_results.hpp"
#include "core/error.hpp"
#include "core/model_file.hpp"
#include "core/trace.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"

namespace ctde::fuzz {

/// Most `--set` lines read at the start of an input.
inline constexpr std::size_t kMaxSets = 4;

/// Relative `file` parameters (TimeTable) resolve here: a folder that does not exist.
inline constexpr const char* kNoFolder = "/nonexistent/ctde-fuzz";

/// An input split into its parts. Copyable value type.
struct CommandInput {
  std::vector<std::string> sets;  ///< the `--set` arguments (NAME=VALUE), in order
  std::string model;              ///< the model file's text
};

/// Splits `bytes` as the header comment says.
inline CommandInput split_command_input(std::string_view bytes) {
  constexpr std::string_view kSet = "--set ";
  CommandInput input;
  while (input.sets.size() < kMaxSets && bytes.starts_with(kSet)) {
    const std::size_t end = bytes.find('\n');
    if (end == std::string_view::npos) break;
    input.sets.emplace_back(bytes.substr(kSet.size(), end - kSet.size()));
    bytes.remove_prefix(end + 1);
  }
  input.model = std::string(bytes);
  return input;
}

/// How long a run may go on. Copyable value type.
struct Budget {
  std::uint64_t polls = 2000;           ///< stop-check calls (steps, DE phases, rows...)
  std::chrono::milliseconds wall{200};  ///< wall-clock time from the start of the run
};

/// What the path gave. Copyable value type.
struct CommandOutcome {
  std::optional<std::string> model_error;  ///< the ModelError's message: `ctde` exits with 2
  RunResult result;                        ///< the run's, when there is no model error
  std::string results;                     ///< the results CSV written
  std::string trace;                       ///< the trace written (JSON Lines)
};

/// Runs `bytes` through the whole path. Throws nothing but what breaks the
/// contract (which the fuzzer then reports).
inline CommandOutcome run_command_path(std::string_view bytes, const Budget& budget = {}) {
  CommandOutcome outcome;
  try {
    const CommandInput input = split_command_input(bytes);
    Model model =
        load_model_text(input.model, "fuzz.json", builtin_actors(), parse_overrides(input.sets), kNoFolder);
    RunSetup setup = set_up_run(model, std::nullopt);
    std::ostringstream results;
    std::ostringstream trace;
    {
      CsvResults recorder(results, std::move(setup.signals));
      TraceWriter writer(trace);
      Director director(setup.flat, setup.options, model.name(), &writer, &recorder);
      std::uint64_t polls = 0;
      const auto deadline = std::chrono::steady_clock::now() + budget.wall;
      director.set_stop_check([&polls, &budget, deadline] {
        return ++polls > budget.polls || std::chrono::steady_clock::now() >= deadline;
      });
      director.set_progress([](double, const RunStatistics&) {});  // as the progress bar is called
      outcome.result = director.run();
    }  // the trace writer flushes
    outcome.results = results.str();
    outcome.trace = trace.str();
  } catch (const ModelError& e) {
    outcome.model_error = e.what();
  }
  return outcome;
}

}  // namespace ctde::fuzz
