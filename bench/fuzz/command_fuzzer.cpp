// libFuzzer target: the whole command path of `ctde validate` and `ctde run`
// (bench/fuzz/command_path.hpp): `--set` overrides and a model file, what
// validate and run check before a run (set_up_run), then a short run
// with a budget (2000 stop-check polls or 200 ms) into an in-memory results
// CSV and trace.
//
// Input format (command_path.hpp): up to 4 lines `--set NAME=VALUE` at the
// start, each ended by '\n', then the model's JSON text:
//
//   --set g=3.7
//   --set e=[1,2]
//   {"ctde": 1, "name": "ball", ...}
//
// The contract under test: bad input gives a ModelError (exit status 2) or
// a RunResult (ok, stopped, error, interrupted); never a crash, a hang (the
// run's budget is 0.2 s: libFuzzer's -timeout catches what goes past it),
// undefined behaviour, a leak or any other exception. Anything else
// escaping ends the process (std::terminate), which libFuzzer reports with
// the input. Built and run by `scripts/fuzz.sh command`.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bench/fuzz/command_path.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ctde::fuzz::CommandOutcome outcome =
      ctde::fuzz::run_command_path(std::string_view(reinterpret_cast<const char*>(data), size));
  static_cast<void>(outcome);
  return 0;
}
