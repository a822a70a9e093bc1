#include "core/source_location.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/composite.hpp"
#include "core/error.hpp"
#include "core/json_cursor.hpp"
#include "core/model_file.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;

TEST_CASE("an empty location has no text, and an empty text makes an empty location") {
  const SourceLocation none;
  CHECK(none.empty());
  CHECK(none.text().empty());
  CHECK(none == "");
  const SourceLocation empty_text(std::string{});
  CHECK(empty_text.empty());
  CHECK(SourceLocation("").empty());
}

TEST_CASE("a location given as text formats to that text") {
  const std::string text = "--set k=3";
  const SourceLocation from_string(text);
  const SourceLocation from_literal = "the sweep's seed";
  const SourceLocation from_view(std::string_view("m.json at /parameters/k"));
  CHECK_FALSE(from_string.empty());
  CHECK(from_string.text() == text);
  CHECK(from_literal.text() == "the sweep's seed");
  CHECK(from_view == "m.json at /parameters/k");
  CHECK(std::string(from_string) == text);
  CHECK_FALSE(from_string == "--set k=4");
  CHECK_FALSE(from_string == "--set k=");
}

TEST_CASE("a table's location is its pattern's head, the index in decimal and the tail") {
  LocationTable table;
  const auto actors = table.add("model.json at /actors/");
  const auto gain = table.add("model.json at /actors/", "/params/k");
  const auto nested = table.add("model.json at /actors/3/actors/");
  CHECK(table.head(gain) == "model.json at /actors/");
  CHECK(table.at(actors, 0) == "model.json at /actors/0");
  CHECK(table.at(actors, 999999) == "model.json at /actors/999999");
  CHECK(table.at(gain, 12).text() == "model.json at /actors/12/params/k");
  CHECK(table.at(nested, 7) == "model.json at /actors/3/actors/7");
  CHECK_FALSE(table.at(actors, 12) == "model.json at /actors/1");
  // The largest index kept as a number, and one beyond it (kept as text).
  CHECK(table.at(actors, 4294967294U) == "model.json at /actors/4294967294");
  CHECK(table.at(gain, 4294967295U) == "model.json at /actors/4294967295/params/k");
}

TEST_CASE("a location is 16 bytes, and outlives the table that made it") {
  static_assert(sizeof(SourceLocation) == 16);
  std::vector<SourceLocation> kept;
  {
    LocationTable table;
    const auto connections = table.add("m.json at /connections/");
    for (std::size_t i = 0; i < 3; ++i) kept.push_back(table.at(connections, i));
  }
  CHECK(kept[0] == "m.json at /connections/0");
  CHECK(kept[2] == "m.json at /connections/2");
}

TEST_CASE("copies and moves of a location keep its text; the moved-from one is empty") {
  LocationTable table;
  const auto actors = table.add("m.json at /actors/");
  SourceLocation a = table.at(actors, 4);
  SourceLocation copy = a;
  CHECK(copy == "m.json at /actors/4");
  SourceLocation moved = std::move(a);
  CHECK(moved == "m.json at /actors/4");
  CHECK(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  copy = SourceLocation("--set x=1");
  CHECK(copy == "--set x=1");
  copy = moved;
  CHECK(copy == "m.json at /actors/4");
  const SourceLocation& self = copy;
  copy = self;
  CHECK(copy == "m.json at /actors/4");
  moved = SourceLocation();
  CHECK(moved.empty());
  std::ostringstream out;
  out << copy;
  CHECK(out.str() == "m.json at /actors/4");
}

TEST_CASE("append_to adds the text to what is there") {
  LocationTable table;
  const auto params = table.add("f.json at /actors/", "/params/x~1y");
  std::string out = "at ";
  table.at(params, 2).append_to(out);
  SourceLocation().append_to(out);
  CHECK(out == "at f.json at /actors/2/params/x~1y");
}

TEST_CASE("a located error reads the location's text, and none for an empty one") {
  LocationTable table;
  const auto actors = table.add("m.json at /actors/");
  const ModelError e = ModelError("bad").located(table.at(actors, 2));
  CHECK(e.location() == "m.json at /actors/2");
  CHECK(std::string(e.what()) == "m.json at /actors/2: bad");
  CHECK(std::string(ModelError("bad").located(SourceLocation()).what()) == "bad");
  CHECK(std::string(ModelError("bad").located(std::string("--set k=3")).what()) == "--set k=3: bad");
}

TEST_CASE("the loader's locations read as the JSON cursor's at the same values") {
  // Each location the model keeps, against the cursor's location of the
  // value it came from: the two ways of writing it must agree.
  const std::string text = R"({"ctde": 1, "actors": [
      {"name": "a", "type": "Constant", "params": {"value": 1}},
      {"name": "g", "type": "Gain", "params": {"k": 2}},
      {"name": "sub", "type": "Composite", "inputs": {"in": "x.in"},
       "actors": [{"name": "w", "type": "Gain", "params": {"k": 1}},
                  {"name": "x", "type": "Integrator", "params": {"initial": 0}}],
       "connections": [["w.out", "x.in"]]}],
    "connections": [["a.out", "g.in"], ["g.out", "sub.in"]]})";
  const Model model = load_model_text(text, "test.json", builtin_actors());
  const Json document = Json::parse(text);
  const JsonCursor root(document, "test.json at ");
  const Composite& top = model.top();
  for (std::size_t i = 0; i < 3; ++i) CHECK(top.children()[i]->location() == root["actors"][i].location());
  CHECK(top.children()[0]->parameters()[0].location == root["actors"][0]["params"]["value"].location());
  CHECK(top.children()[1]->parameters()[0].location == root["actors"][1]["params"]["k"].location());
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(top.connections()[i].location == root["connections"][i].location());
  const auto& sub = static_cast<const Composite&>(*top.children()[2]);
  const JsonCursor inner = root["actors"][2];
  CHECK(sub.children()[0]->location() == "test.json at /actors/2/actors/0");
  CHECK(sub.children()[1]->location() == inner["actors"][1].location());
  CHECK(sub.children()[0]->parameters()[0].location == inner["actors"][0]["params"]["k"].location());
  CHECK(sub.children()[1]->parameters()[0].location == inner["actors"][1]["params"]["initial"].location());
  CHECK(sub.connections()[0].location == inner["connections"][0].location());
  CHECK(sub.exported_inputs()[0].location == inner["inputs"]["in"].location());
}

TEST_CASE("locations given as text in C++ head the messages they locate") {
  // The authoring API takes a location as text, as before it was compact.
  Model model;
  Actor& constant = ctde::test::add(model, "Constant", "c");
  constant.set_location(std::string("plant.cpp, the constant"));
  constant.set_parameter("value", ParamValue("1 +"), "plant.cpp, line 12");
  CHECK(ctde::test::validation_error(model).rfind(
            "plant.cpp, line 12: actor 'c' (Constant), parameter 'value'", 0) == 0);
  constant.set_parameter("value", 1.0);  // no location: the actor's own
  Actor& gain = ctde::test::add(model, "Gain", "g");
  gain.set_location("plant.cpp, the gain");
  CHECK(ctde::test::validation_error(model) ==
        "plant.cpp, the gain: unconnected input 'g.in' of actor 'g' (Gain): every input needs a driver");
  model.top().connect("c.out", "g.nothing", "plant.cpp, line 20");
  CHECK(ctde::test::validation_error(model).rfind("plant.cpp, line 20: connection 'c.out' -> 'g.nothing': ",
                                                  0) == 0);
  CHECK_THROWS_WITH_AS(model.top().add(builtin_actors().make("Gain", "g"), std::string("plant.cpp, line 30")),
                       "plant.cpp, line 30: duplicate actor name: 'g' is defined twice", ModelError);
}
