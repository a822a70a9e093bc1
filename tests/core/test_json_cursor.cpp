// The JSON cursor: locations of nested values, and its checks' messages.
#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/json_cursor.hpp"
#include "core/param.hpp"

using ctde::Json;
using ctde::JsonCursor;
using ctde::ModelError;

namespace {

/// The located message of what `read` throws.
template <class F>
std::string failure(F&& read) {
  try {
    read();
  } catch (const ModelError& e) {
    return e.location() + ": " + e.message();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a cursor names the JSON pointer of every nested value, escaping / and ~") {
  const Json doc = Json::parse(R"json({"actors": [{"name": "a", "params": {"x/y": 1, "m~n": [2, 3]}}]})json");
  const JsonCursor root(doc, "model.json at ");
  CHECK(root.location() == "model.json at /");
  const JsonCursor params = root["actors"][0]["params"];
  CHECK(params.location() == "model.json at /actors/0/params");
  CHECK(params["x/y"].location() == "model.json at /actors/0/params/x~1y");
  CHECK(params["m~n"][1].location() == "model.json at /actors/0/params/m~0n/1");
  CHECK(params["m~n"][1].value() == 3);
  std::vector<std::string> keys;
  params.for_each_member([&](const std::string& key, const JsonCursor& member) {
    keys.push_back(key + " " + member.location());
  });
  CHECK(keys == std::vector<std::string>{"x/y model.json at /actors/0/params/x~1y",
                                         "m~n model.json at /actors/0/params/m~0n"});
  CHECK(root.has("actors"));
  CHECK_FALSE(root.has("record"));
  CHECK_FALSE(params["m~n"].has("0"));  // an array has no members
}

TEST_CASE("a cursor's checks fail at the offending value, with the prefix it was given") {
  const Json doc = Json::parse(R"json({"modes": {"FREE": {"der": 1, "sets": {}}}, "n": 4})json");
  const JsonCursor value =
      JsonCursor(doc, "m.json at /actors/3/params").prefixed("actor 'ball' (ModalModel)");
  CHECK(failure([&] {
          value["modes"]["FREE"].check_keys({"der", "set"}, "mode 'FREE'");
        }) ==
        "m.json at /actors/3/params/modes/FREE/sets: actor 'ball' (ModalModel): unknown key 'sets' in mode "
        "'FREE' (known here: der, set)");
  CHECK(failure([&] { (void)value["n"].string("the name"); }) ==
        "m.json at /actors/3/params/n: actor 'ball' (ModalModel): the name must be a string, got number 4");
  CHECK(failure([&] { value["n"].expect_object(); }) ==
        "m.json at /actors/3/params/n: actor 'ball' (ModalModel): must be an object, got number 4");
  CHECK(failure([&] { value["modes"].expect_array("modes"); }).find("modes must be an array, got object") !=
        std::string::npos);
  CHECK(failure([&] { value["modes"].expect_object(); }) == "(no error)");
}

TEST_CASE("a structured parameter is the same value whether given as JSON or as its text") {
  ctde::ParameterScope scope;
  const Json doc = Json::parse(R"json({"b": [1, {"c": "x"}], "a": 2})json");
  const ctde::ResolvedParam from_json =
      scope.evaluate(ctde::ParamValue(doc), ctde::ParamKind::kStructure, "parameter 'p'");
  const ctde::ResolvedParam from_text =
      scope.evaluate(ctde::ParamValue(R"json({"b": [1, {"c": "x"}], "a": 2})json"),
                     ctde::ParamKind::kStructure, "parameter 'p'");
  REQUIRE(from_json.json());
  REQUIRE(from_text.json());
  CHECK(*from_json.json() == *from_text.json());
  CHECK(from_json.json()->begin().key() == "b");  // the written order is kept
  CHECK(from_json.text() == from_text.text());
  CHECK_THROWS_WITH_AS(
      (void)scope.evaluate(ctde::ParamValue("{\"a\": "), ctde::ParamKind::kStructure, "parameter 'p'"),
      "parameter 'p' is not a JSON value: {\"a\": ", ModelError);
  CHECK_THROWS_WITH_AS((void)scope.evaluate(ctde::ParamValue(doc), ctde::ParamKind::kVector, "parameter 'k'"),
                       doctest::Contains("parameter 'k' must be a vector, got a structured value"),
                       ModelError);
}
