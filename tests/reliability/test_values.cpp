// Values are read the same way from a model file and from --set: any JSON
// value (matrices too), and numbers beyond a double's range or NaN refused
// alike, each error naming where the value was written.
#include <doctest/doctest.h>

#include <string>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::run_model;

namespace {

/// y = K u for a width-2 constant u; K a matrix parameter.
const std::string kMatrixModel = R"({"ctde": 1, "parameters": {"K": [[2, 0], [0, 3]]},
  "director": {"stop_time": 1},
  "actors": [{"name": "u", "type": "Constant", "params": {"value": [1, 1]}},
             {"name": "y", "type": "Gain", "params": {"k": "K"}}],
  "connections": [["u.out", "y.in"]], "record": ["y.out"]})";

/// The ModelError message of loading and validating `text` with `--set` overrides.
std::string error_with(const std::string& text, const ParameterOverrides& overrides) {
  try {
    Model model = load_model_text(text, "test.json", builtin_actors(), overrides);
    (void)validate(model);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

std::string scalar_model(const std::string& k) {
  return R"({"ctde": 1, "parameters": {"k": )" + k + R"(}, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": "k"}}]})";
}

}  // namespace

TEST_CASE("reliability: --set takes a matrix as the model file does") {
  const auto file = run_model(kMatrixModel);
  REQUIRE(file.result.status == RunStatus::kOk);
  CHECK(file.rows.back().values == std::vector<double>{2, 3});
  const auto set = run_model(kMatrixModel, {{"K", "[[1, 0], [0, 1]]"}});
  REQUIRE(set.result.status == RunStatus::kOk);
  CHECK(set.rows.back().values == std::vector<double>{1, 1});
  CHECK(error_with(kMatrixModel, {{"K", "true"}}) ==
        "--set K=true: a parameter value is a number, a string or an array, got boolean true");
}

TEST_CASE("reliability: a number beyond a double's range is refused alike in a file, a string and --set") {
  const std::string beyond = "1e999 is beyond a double's range (write \"inf\" for infinity)";
  CHECK(ctde::test::model_file_error(scalar_model("1e999")) == "test.json:1:33: " + beyond);
  CHECK(ctde::test::model_file_error(scalar_model("\"1e999\"")) ==
        "test.json at /parameters/k: parameter 'k': " + beyond);
  CHECK(error_with(scalar_model("1"), {{"k", "1e999"}}) == "--set k=1e999: " + beyond);
}

TEST_CASE("reliability: NaN is refused alike in a file and in --set; inf is a number in both") {
  CHECK(ctde::test::model_file_error(scalar_model("\"nan\"")) ==
        "test.json at /parameters/k: parameter 'k': \"nan\" is not a number");
  CHECK(error_with(scalar_model("1"), {{"k", "nan"}}) ==
        "--set k=nan: parameter 'k': \"nan\" is not a number");
  CHECK(ctde::test::model_file_error(scalar_model("\"inf\"")) == "");
  CHECK(error_with(scalar_model("1"), {{"k", "inf"}}) == "");
}

TEST_CASE("reliability: a parameter cycle names the file and where the parameter was written") {
  CHECK(ctde::test::model_file_error(
            R"({"ctde": 1, "parameters": {"a": "b", "b": "a"}, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": "a"}}]})") ==
        "test.json at /parameters/a: parameters depend on each other in a cycle: a -> b -> a");
}
