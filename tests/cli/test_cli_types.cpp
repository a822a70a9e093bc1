// `ctde types` and `ctde describe TYPE` (docs/cli.md).

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "actors/builtin_actors.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde;
using ctde::test::run_cli;

TEST_CASE("ctde types prints one aligned line per type: name, family, summary") {
  const auto result = run_cli("types");
  CHECK(result.status == 0);
  const auto& entries = builtin_actors().entries();
  std::size_t lines = 0;
  std::size_t at = 0;
  while ((at = result.output.find('\n', at)) != std::string::npos) {
    ++lines;
    ++at;
  }
  CHECK(lines == entries.size());
  CHECK(result.output.find(entries.front().type + " ") == 0);
  CHECK(result.output.find(std::string(entries.front().summary)) != std::string::npos);
}

TEST_CASE("ctde types --json and ctde describe print the registry's JSON") {
  const auto types = run_cli("types --json");
  CHECK(types.status == 0);
  CHECK(nlohmann::json::parse(types.output).size() == builtin_actors().entries().size());
  const auto gain = run_cli("describe Gain");
  CHECK(gain.status == 0);
  CHECK(nlohmann::json::parse(gain.output)["family"] == "math");
}

TEST_CASE("ctde describe of an unknown type is a model error naming the closest type") {
  const auto result = run_cli("describe Gan 2>&1");
  CHECK(result.status == 2);
  CHECK(result.output == "ctde: error: unknown actor type 'Gan' (did you mean 'Gain'?)\n");
}
