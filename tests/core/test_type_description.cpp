// describe_types / describe_type: the registry's metadata as JSON, behind
// `ctde types`, `ctde describe` and the Python package's ctde.describe().

#include "core/type_description.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"

using namespace ctde;
using nlohmann::json;

TEST_CASE("describe_types lists every registered type once, sorted, with family and summary") {
  const json types = json::parse(describe_types(builtin_actors()));
  const auto& entries = builtin_actors().entries();
  REQUIRE(types.size() == entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    CHECK(types[i]["type"] == entries[i].type);
    CHECK(types[i]["family"] == entries[i].family);
    CHECK(types[i]["summary"] == entries[i].summary);
    if (i > 0) CHECK(types[i - 1]["type"].get<std::string>() < types[i]["type"].get<std::string>());
  }
}

TEST_CASE("describe_type gives a polymorphic Gain's ports, its parameter and its default") {
  const json gain = json::parse(describe_type(builtin_actors(), "Gain"));
  CHECK(gain["family"] == "math");
  CHECK(gain["time_mode"] == "polymorphic");
  CHECK(gain["inputs"] ==
        json::parse(R"([{"name": "in", "kind": "polymorphic", "width": null, "optional": false}])"));
  CHECK(gain["outputs"] == json::parse(R"([{"name": "out", "kind": "polymorphic", "width": null}])"));
  REQUIRE(gain["parameters"].size() == 1);
  CHECK(gain["parameters"][0]["name"] == "k");
  CHECK(gain["parameters"][0]["kind"] == "matrix");  // a scalar, or a matrix for vectors
  CHECK(gain["parameters"][0]["default"] == 1.0);
  CHECK(gain["parameters"][0]["required"] == false);
}

TEST_CASE("describe_type shows numbered inputs once, as in<i>, from the configured sample") {
  const json sum = json::parse(describe_type(builtin_actors(), "Sum"));
  const json& last = sum["inputs"].back();
  CHECK(last["name"] == "in<i>");
  CHECK(last["numbered"] == true);
  CHECK(sum["sample_params"] == json::parse(R"({"signs": "+-"})"));
}

TEST_CASE("describe_type marks required parameters and gives fixed widths and kinds") {
  for (const auto& entry : builtin_actors().entries()) {
    CAPTURE(entry.type);
    const json d = json::parse(describe_type(builtin_actors(), entry.type));
    CHECK(d["type"] == entry.type);
    for (const auto& p : d["parameters"]) {
      // A required parameter has no default, and the sample gives it.
      if (p["required"].get<bool>()) {
        CHECK(p["default"].is_null());
        CHECK(d["sample_params"].contains(p["name"].get<std::string>()));
      }
    }
    for (const auto* side : {"inputs", "outputs"}) {
      for (const auto& port : d[side]) {
        CHECK((port["width"].is_null() || port["width"].get<int>() >= 1));
        const std::string kind = port["kind"];
        CHECK((kind == "continuous" || kind == "discrete" || kind == "polymorphic" || kind == "constant"));
      }
    }
  }
}

TEST_CASE("describe_type of an unknown type names the closest one") {
  CHECK_THROWS_WITH_AS(static_cast<void>(describe_type(builtin_actors(), "Gian")),
                       "unknown actor type 'Gian' (did you mean 'Gain'?)", ModelError);
}
