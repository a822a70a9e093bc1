// The one expression engine (core/expression_engine.hpp): the functions it
// offers, as the model reference lists them.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/expression_engine.hpp"

using namespace ctde;

namespace {

/// The "## Expressions" section of docs/model-reference.md.
std::string expressions_section() {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/docs/model-reference.md", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const auto start = all.find("## Expressions");
  REQUIRE(start != std::string::npos);
  return all.substr(start, all.find("\n## ", start + 1) - start);
}

}  // namespace

TEST_CASE("every function of the engine evaluates and is listed in the model reference") {
  const std::string section = expressions_section();
  for (const std::string& name : engine_functions()) {
    CAPTURE(name);
    CHECK(section.find("`" + name + "(") != std::string::npos);
    CompiledExpression expression;
    const bool many = name == "min" || name == "max" || name == "sum" || name == "avg";
    const std::string arg = name == "acosh" ? "(1.5)" : "(0.5)";
    const std::string call = name + (name == "mod" ? "(5, 3)" : many ? "(0.5, 0.25)" : arg);
    expression.set(call, "test");
    CHECK(std::isfinite(expression.evaluate()));
  }
}

TEST_CASE("a name the engine does not know is an error naming it, not a function call") {
  CompiledExpression expression;
  CHECK_THROWS_WITH_AS(expression.set("trunc(1.5)", "test"), doctest::Contains("trunc"), ModelError);
}

TEST_CASE("is_identifier: letters, digits and _, not starting with a digit") {
  for (const char* name : {"k", "_", "_x1", "T_high", "a2b"}) CHECK(is_identifier(name));
  for (const char* name : {"", "1a", "a.b", "a b", "p[0]", "a-b", "é"}) CHECK_FALSE(is_identifier(name));
}
