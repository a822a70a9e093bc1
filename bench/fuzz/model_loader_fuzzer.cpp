// libFuzzer target: the JSON model loader and validation (core/model_file.hpp,
// core/validate.hpp, domains/ctde/run_options.hpp), given arbitrary bytes.
//
// The contract under test: bad input gives a ModelError, never a crash, a
// hang, undefined behaviour or any other exception. Anything else escaping
// ends the process (std::terminate), which libFuzzer reports with the input.
// Built and run by scripts/fuzz.sh (clang, -fsanitize=fuzzer,address,undefined).

#include <cstddef>
#include <cstdint>
#include <string>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"
#include "core/model_file.hpp"
#include "core/validate.hpp"
#include "domains/ctde/run_options.hpp"

namespace {

/// Relative `file` parameters (TimeTable) resolve here: a folder that does
/// not exist, so that inputs never read the machine's files.
constexpr const char* kNoFolder = "/nonexistent/ctde-fuzz";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ctde::Model model = ctde::load_model_text(text, "fuzz.json", ctde::builtin_actors(), {}, kNoFolder);
    const ctde::FlatModel flat = ctde::validate(model);
    const ctde::RunOptions options = ctde::make_run_options(model.director(), model.parameters());
    static_cast<void>(flat);
    static_cast<void>(options);
  } catch (const ctde::ModelError&) {
    // the expected answer to bad input
  }
  return 0;
}
