// Inputs found by fuzzing the model loader (scripts/fuzz.sh), kept in
// tests/cli/data/fuzz/: each must give a clear error (exit status 2), never an
// internal error (4) or a crash.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

// number_overflow*.json: a number beyond the range of a double used to escape
// the loader as nlohmann::out_of_range (exit 4) instead of a ModelError.
TEST_CASE("ctde validate answers every fuzzer finding with a model error") {
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(CTDE_SOURCE_DIR) + "/tests/cli/data/fuzz")) {
    inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  REQUIRE_FALSE(inputs.empty());
  for (const auto& input : inputs) {
    CAPTURE(input);
    const ctde::test::CommandResult r = ctde::test::run_cli("validate " + input.string());
    CHECK(r.status == 2);
    CHECK(r.output.find("ctde: error: ") != std::string::npos);
    CHECK(r.output.find(input.filename().string()) != std::string::npos);  // names the file
  }
}
