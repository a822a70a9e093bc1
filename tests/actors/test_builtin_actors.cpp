// The registry of built-in actors (actors/builtin_actors.hpp) and what each
// type declares about itself in its kInfo (core/actor.hpp, ActorInfo): the
// name it is made under, the folder it lives in, and sample parameters that
// make a working actor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/actor_samples.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;

namespace {

/// "LevelCrossingDetector" → "level_crossing_detector" (header names follow the class).
std::string snake_case(const std::string& type) {
  std::string out;
  for (std::size_t i = 0; i < type.size(); ++i) {
    const auto c = static_cast<unsigned char>(type[i]);
    if (std::isupper(c) != 0 && i > 0 && std::islower(static_cast<unsigned char>(type[i - 1])) != 0)
      out += '_';
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

/// in0, in1, ...: the inputs declare_numbered_inputs() makes.
bool is_numbered(const std::string& name) {
  return name.size() > 2 && name.compare(0, 2, "in") == 0 &&
         std::all_of(name.begin() + 2, name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("every built-in type makes actors of its registered name") {
  for (const auto& entry : builtin_actors().entries()) {
    CAPTURE(entry.type);
    CHECK(builtin_actors().make(entry.type, "a")->type() == entry.type);
  }
}

TEST_CASE("every built-in type declares its identity in its header, in the folder of its family") {
  for (const auto& entry : builtin_actors().entries()) {
    CAPTURE(entry.type);
    const std::string header = "actors/" + entry.family + "/" + snake_case(entry.type) + ".hpp";
    REQUIRE_MESSAGE(
        std::filesystem::exists(std::string(CTDE_SOURCE_DIR) + "/" + header),
        "type " << entry.type << " of family '" << entry.family << "' must be declared in " << header);
    CHECK_MESSAGE(source_text(header).find(".type = \"" + entry.type + "\"") != std::string::npos,
                  header << " must declare kInfo with .type = \"" << entry.type << "\"");
  }
}

TEST_CASE("the umbrella header include/ctde/ctde.hpp includes every actor header that declares a kInfo") {
  // Scanned from the source tree, so that a new actor type cannot be left
  // out of the public API's one include.
  const std::string umbrella = source_text("include/ctde/ctde.hpp");
  const std::filesystem::path root = std::string(CTDE_SOURCE_DIR);
  int headers = 0;
  for (const auto& file : std::filesystem::recursive_directory_iterator(root / "actors")) {
    if (file.path().extension() != ".hpp") continue;
    const std::string relative = std::filesystem::relative(file.path(), root).generic_string();
    if (source_text(relative).find("static constexpr ActorInfo kInfo") == std::string::npos) continue;
    ++headers;
    CHECK_MESSAGE(umbrella.find("#include \"" + relative + "\"") != std::string::npos,
                  "include/ctde/ctde.hpp must include " << relative);
  }
  // Every registered type has such a header (the test above), so at least as many.
  CHECK(headers >= static_cast<int>(builtin_actors().entries().size()));
}

TEST_CASE(
    "every built-in type's sample parameters make an actor that validates and runs with a source on every "
    "input") {
  for (const auto& entry : builtin_actors().entries()) {
    CAPTURE(entry.type);
    CAPTURE(entry.sample_params);
    std::string model;
    REQUIRE_NOTHROW(model = ctde::test::sample_model(entry));
    CAPTURE(model);
    CHECK(ctde::test::model_file_error(model).empty());
    const auto run = ctde::test::run_model(model);
    CHECK_MESSAGE((run.result.status == RunStatus::kOk || run.result.status == RunStatus::kStopped),
                  run.result.message);
  }
}

TEST_CASE("a sample gives two inputs to a type whose number of inputs is a parameter") {
  // So that the rules about absent inputs (a token on one input, none on the
  // other: tests/conformance/test_one_value_per_tag.cpp) see both cases.
  int counted = 0;
  for (const auto& entry : builtin_actors().entries()) {
    CAPTURE(entry.type);
    const auto declared = builtin_actors().make(entry.type, "a");
    const auto sample = ctde::test::configured_sample(entry);
    const bool numbered =
        std::any_of(sample.actor->inputs().begin(), sample.actor->inputs().end(),
                    [&](const PortSpec& p) { return is_numbered(p.name) && !declared->find_input(p.name); });
    if (!numbered) continue;
    CHECK(ctde::test::required_inputs(*sample.actor).size() == 2);
    ++counted;
  }
  CHECK(counted >= 1);
}
