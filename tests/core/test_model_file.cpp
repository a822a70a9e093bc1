// The JSON loader: good files, and bad ones whose errors carry the file and JSON location.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "support/cli_helpers.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;
using ctde::test::load;
using ctde::test::model_file_error;

namespace {

const char* const kBall = R"({
  "ctde": 1,
  "name": "ball",
  "parameters": { "g": 9.81, "e": 0.8, "h0": "2 * 5" },
  "director": { "stop_time": "h0", "rtol": 1e-9 },
  "actors": [
    { "name": "gravity", "type": "Constant", "params": { "value": "-g" } },
    { "name": "v", "type": "Integrator" },
    { "name": "h", "type": "Integrator", "params": { "initial": "h0" } },
    { "name": "ground", "type": "ZeroCrossingDetector", "params": { "direction": "falling" } },
    { "name": "v_at_impact", "type": "Sampler" },
    { "name": "rebound", "type": "Gain", "params": { "k": "-e" } }
  ],
  "connections": [
    ["gravity.out", "v.in"], ["v.out", "h.in"], ["h.out", "ground.in"],
    ["v.out", "v_at_impact.in"], ["ground.out", "v_at_impact.trigger"],
    ["v_at_impact.out", "rebound.in"], ["rebound.out", "v.reset"]
  ],
  "record": ["h.out", "v.out"]
})";

}  // namespace

TEST_CASE("a good model file loads with its parameters, director options and record list") {
  Model model = load(kBall);
  CHECK(model.name() == "ball");
  CHECK(model.record() == std::vector<std::string>{"h.out", "v.out"});
  const FlatModel flat = validate(model);
  CHECK(flat.actors.size() == 6);
  CHECK(model.parameters().value("h0").scalar() == 10.0);
  CHECK(flat[*flat.find("rebound")].mode == TimeMode::kDiscrete);
  CHECK(flat[*flat.find("gravity")].mode == TimeMode::kConstant);
}

TEST_CASE("overrides replace model parameters before evaluation") {
  Model model = load_model_text(kBall, "ball.json", builtin_actors(), {{"h0", "4"}, {"e", "0.5 * 2"}});
  (void)validate(model);
  CHECK(model.parameters().value("h0").scalar() == 4.0);
  CHECK(model.parameters().value("e").scalar() == 1.0);
  CHECK_THROWS_WITH_AS(
      (void)load_model_text(kBall, "ball.json", builtin_actors(), {{"mass", "1"}}),
      doctest::Contains("--set mass=1: the model has no parameter 'mass' (its parameters: e, g, h0)"),
      ModelError);
}

TEST_CASE("a syntax error gives the file, line and column") {
  const std::string text = "{\n  \"ctde\": 1,\n  \"actors\": [ { \"name\": \"a\" ,, } ]\n}";
  const std::string message = model_file_error(text);
  CHECK(message.find("test.json:3:") == 0);
  CHECK(message.find("JSON syntax error") != std::string::npos);
}

TEST_CASE("each error gives the JSON path of what is wrong: a type, a parameter, an actor, a name") {
  struct Case {
    const char* error;
    const char* model;
    const char* message;
  };
  const Case cases[] = {
      {"an unknown actor type: the path of its type", R"({"ctde": 1, "actors": [
    {"name": "a", "type": "Constant", "params": {"value": 1}},
    {"name": "b", "type": "Gian"}]})",
       "test.json at /actors/1/type: unknown actor type 'Gian' for actor 'b' (did you mean 'Gain'?)"},
      {"a bad parameter expression: the path of the parameter", R"({"ctde": 1, "actors": [
    {"name": "a", "type": "Constant", "params": {"value": "2 * missing"}}]})",
       "test.json at /actors/0/params/value: actor 'a' (Constant), parameter 'value': 'missing' in "
       "expression \"2 * missing\" is not a defined parameter"},
      {"an unconnected input: the path of its actor", R"({"ctde": 1, "actors": [
    {"name": "x", "type": "Integrator"}]})",
       "test.json at /actors/0: unconnected input 'x.in' of actor 'x' (Integrator): every "
       "input needs a driver"},
      {"a duplicate name: the path of the second one", R"({"ctde": 1, "actors": [
    {"name": "a", "type": "Constant", "params": {"value": 1}},
    {"name": "a", "type": "Constant", "params": {"value": 2}}]})",
       "test.json at /actors/1/name: duplicate actor name: 'a' is defined twice"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.error);
    CHECK(model_file_error(c.model) == c.message);
  }
}

TEST_CASE("a connection error gives the JSON path of the connection") {
  const std::string message = model_file_error(R"({"ctde": 1, "actors": [
    {"name": "a", "type": "Constant", "params": {"value": 1}},
    {"name": "x", "type": "Integrator"}],
    "connections": [["a.out", "x.in"], ["a.out", "x.in"]]})");
  CHECK(message.find("test.json at /connections/1: connection 'a.out' -> 'x.in': input 'x.in' has "
                     "two drivers") == 0);
}

TEST_CASE("connections are read as written, whatever their place in the file") {
  // The reader keeps the model's pairs of strings aside while it parses
  // (large models); a composite's connections and a pair of another shape
  // stay in the document. Each must come out the same.
  const std::string text = R"({"connections": [["a.out", "g.in"], ["g.out", "sub.in"]], "ctde": 1,
    "actors": [
      {"name": "a", "type": "Constant", "params": {"value": 1}},
      {"name": "g", "type": "Gain", "params": {"k": 2}},
      {"name": "sub", "type": "Composite", "inputs": {"in": "x.in"},
       "actors": [{"name": "x", "type": "Integrator"}], "connections": []}]})";
  const Model model = load_model_text(text, "test.json", builtin_actors());
  const auto& connections = model.top().connections();
  REQUIRE(connections.size() == 2);
  CHECK(connections[0].from == "a.out");
  CHECK(connections[0].to == "g.in");
  CHECK(connections[0].location == "test.json at /connections/0");
  CHECK(connections[1].from == "g.out");
  CHECK(connections[1].to == "sub.in");
  CHECK(connections[1].location == "test.json at /connections/1");
  // A bad pair after good ones, and good ones after it: the bad one's message.
  CHECK(model_file_error(
            R"({"ctde": 1, "actors": [{"name": "a", "type": "Clock"}, {"name": "b", "type": "Gain"}],
    "connections": [["a.out", "b.in"], ["a.out", 3], ["a.out", "b.in"]]})") ==
        "test.json at /connections/1: a connection is [\"actor.out\", \"actor.in\"], got [\"a.out\",3]");
  CHECK(
      model_file_error(R"({"ctde": 1, "actors": [{"name": "a", "type": "Clock"}],
    "connections": [["a.out", "a.in"], {"from": "a.out"}]})") ==
      "test.json at /connections/1: a connection is [\"actor.out\", \"actor.in\"], got {\"from\":\"a.out\"}");
}

TEST_CASE("unknown keys are rejected with the keys that are allowed") {
  CHECK(model_file_error(R"({"ctde": 1, "actors": [], "actor": []})")
            .find("test.json at /actor: unknown key 'actor'") == 0);
  CHECK(model_file_error(R"({"ctde": 1, "actors": [{"name": "a", "type": "Clock", "param": {}}]})")
            .find("test.json at /actors/0/param: unknown key 'param'") == 0);
  CHECK(model_file_error(R"({"ctde": 1, "director": {"stoptime": 1}, "actors": []})")
            .find("test.json at /director/stoptime: unknown director option 'stoptime'") == 0);
}

TEST_CASE("the format version is required and checked") {
  CHECK(model_file_error(R"({"actors": []})") == "test.json at /: missing \"ctde\": 1 (the format version)");
  CHECK(model_file_error(R"({"ctde": 2, "actors": []})") ==
        "test.json at /ctde: format version 2 is not supported (this ctde reads 1)");
}

TEST_CASE("a model without actors is refused") {
  CHECK(model_file_error(R"({"ctde": 1, "director": {"stop_time": 1}, "actors": []})") ==
        "test.json at /actors: is empty: a model (and a composite) needs at least one actor");
}

TEST_CASE("wrong JSON types are named with their path") {
  CHECK(model_file_error(R"({"ctde": 1, "actors": {}})") ==
        "test.json at /actors: must be an array of actors");
  CHECK(model_file_error(R"({"ctde": 1, "actors": [{"name": 3, "type": "Clock"}]})") ==
        "test.json at /actors/0/name: must be a string, got number 3");
  CHECK(model_file_error(
            R"({"ctde": 1, "actors": [{"name": "c", "type": "Constant", "params": {"value": true}}]})") ==
        "test.json at /actors/0/params/value: a parameter value is a number, a string or an array, got "
        "boolean true");
  CHECK(model_file_error(
            R"({"ctde": 1, "actors": [{"name": "a", "type": "Clock"}], "connections": [["a.out"]]})") ==
        "test.json at /connections/0: a connection is [\"actor.out\", \"actor.in\"], got [\"a.out\"]");
}

TEST_CASE("a time_mode in the file overrides resolution, and a bad one is located") {
  Model model = load(R"({"ctde": 1, "actors": [
    {"name": "c", "type": "Constant", "params": {"value": 1}},
    {"name": "g", "type": "Gain", "time_mode": "discrete"},
    {"name": "n", "type": "Counter"}],
    "connections": [["c.out", "g.in"], ["g.out", "n.in"]]})");
  const FlatModel flat = validate(model);
  CHECK(flat[*flat.find("g")].mode == TimeMode::kDiscrete);
  CHECK(model_file_error(R"({"ctde": 1, "actors": [{"name": "g", "type": "Gain", "time_mode": "fast"}]})") ==
        "test.json at /actors/0/time_mode: time_mode must be \"continuous\" or \"discrete\", got \"fast\"");
}

TEST_CASE("composites nest networks with exported ports") {
  Model model = load(R"({"ctde": 1, "actors": [
    {"name": "u", "type": "Constant", "params": {"value": 1}},
    {"name": "plant", "type": "Composite",
     "actors": [{"name": "gain", "type": "Gain", "params": {"k": 2}},
                {"name": "int", "type": "Integrator"}],
     "connections": [["gain.out", "int.in"]],
     "inputs": {"u": "gain.in"}, "outputs": {"y": "int.out"}},
    {"name": "obs", "type": "Gain"}],
    "connections": [["u.out", "plant.u"], ["plant.y", "obs.in"]]})");
  const FlatModel flat = validate(model);
  CHECK(flat.actors.size() == 4);
  CHECK(flat.find("plant.int"));
  CHECK(flat[*flat.find("obs")].drivers[0]->actor == *flat.find("plant.int"));
}

TEST_CASE("TimeTable files are read relative to the model file") {
  const auto folder = ctde::test::scratch_root() / "ctde_loader_test";
  std::filesystem::create_directories(folder);
  {
    std::ofstream csv(folder / "table.csv");
    csv << "t,a,b\n0,1,2\n1,3,4\n1,5,6\n";
    std::ofstream json(folder / "model.json");
    json << R"({"ctde": 1, "director": {"stop_time": 2}, "actors": [
      {"name": "tt", "type": "TimeTable", "params": {"file": "table.csv"}},
      {"name": "x", "type": "Integrator", "params": {"initial": [0, 0]}}],
      "connections": [["tt.out", "x.in"]]})";
  }
  Model model = load_model_file((folder / "model.json").string(), builtin_actors());
  const FlatModel flat = validate(model);
  CHECK(flat.actors[0].output_widths[0] == 2);
}

TEST_CASE("a missing file is a clear error") {
  CHECK_THROWS_WITH_AS((void)load_model_file("/nonexistent/model.json", builtin_actors()),
                       "cannot open model file '/nonexistent/model.json'", ModelError);
}

TEST_CASE("deeply nested arrays are refused, not recursed into") {
  std::string deep = R"({"ctde": 1, "actors": [{"name": "c", "type": "Constant", "params": {"value": )";
  deep += std::string(1000, '[') + "1" + std::string(1000, ']') + "}}]}";
  CHECK(model_file_error(deep).find("nest more than 64 levels deep") != std::string::npos);
}
