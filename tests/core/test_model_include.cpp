// Model files that include others (core/model_include.hpp): parameters
// passed in, paths beside the includer or in the model path, cycles and
// errors located in the file that has them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/model_include.hpp"
#include "support/cli_helpers.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;
using ctde::test::scratch_file;

namespace {

/// x' = -a x, x(0) = x0: x(t) = x0 exp(-a t), exported as y.
const char* const kPlant = R"({
  "ctde": 1,
  "name": "plant",
  "parameters": {"a": 1, "x0": "2 * a"},
  "actors": [
    {"name": "x", "type": "Integrator", "params": {"initial": "x0"}},
    {"name": "k", "type": "Gain", "params": {"k": "-a"}}
  ],
  "connections": [["x.out", "k.in"], ["k.out", "x.in"]],
  "outputs": {"y": "x.out"}
})";

/// Writes `text` to `name` in scratch folder `folder`; returns its path.
std::string write(const std::string& folder, const std::string& name, const std::string& text) {
  const std::filesystem::path path = scratch_file(folder, name);
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

/// A model of one actor list `actors` (JSON), with parameter b = 1.5.
std::string main_model(const std::string& actors) {
  return R"({"ctde": 1, "name": "study", "parameters": {"b": 1.5}, "director": {"stop_time": 1},
  "actors": [)" +
         actors + "]}";
}

/// The message of the ModelError loading file `path` throws ("" when none).
std::string load_error(const std::string& path, const std::vector<std::string>& model_path = {}) {
  try {
    (void)load_model_file(path, builtin_actors(), {}, model_path);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

/// Gain `path`'s k, resolved.
double gain_of(const FlatModel& flat, const std::string& path) {
  for (const ParamSlot& slot : flat[*flat.find(path)].actor->parameters()) {
    if (slot.name.str() == "k") return slot.resolved.scalar();
  }
  FAIL("no parameter k");
  return 0.0;
}

}  // namespace

TEST_CASE("an included file is a composite whose parameters its includer gives, each instance its own") {
  const std::string dir = "include_params";
  write(dir, "plant.json", kPlant);
  const std::string path = write(dir, "study.json", main_model(R"(
    {"name": "fast", "type": "Composite", "file": "plant.json", "params": {"a": "2 * b"}},
    {"name": "slow", "type": "Composite", "file": "plant.json"})"));
  Model model = load_model_file(path, builtin_actors());
  const FlatModel flat = validate(model);
  // fast: a = 2 b = 3, x0 = 2 a = 6 (its own default, over its own a); slow: a = 1, x0 = 2.
  CHECK(model.parameters().value("fast__a").scalar() == 3.0);
  CHECK(model.parameters().value("fast__x0").scalar() == 6.0);
  CHECK(model.parameters().value("slow__a").scalar() == 1.0);
  CHECK(model.parameters().value("slow__x0").scalar() == 2.0);
  CHECK(gain_of(flat, "fast.k") == -3.0);
  CHECK(gain_of(flat, "slow.k") == -1.0);
  CHECK(flat.actors.size() == 4);
  // --set reaches an included parameter by its name in the model.
  Model set = load_model_file(path, builtin_actors(), {{"slow__a", "4"}});
  const FlatModel set_flat = validate(set);
  CHECK(gain_of(set_flat, "slow.k") == -4.0);
  CHECK(set.parameters().value("slow__x0").scalar() == 8.0);
}

TEST_CASE("an included file may include another; a value passed down reads its includer's parameters") {
  const std::string dir = "include_nested";
  write(dir, "parts/plant.json", kPlant);
  write(dir, "parts/loop.json", R"({"ctde": 1, "parameters": {"g": 5},
    "actors": [{"name": "inner", "type": "Composite", "file": "plant.json", "params": {"a": "g / 2"}}],
    "outputs": {"y": "inner.y"}})");
  const std::string path = write(dir, "study.json", main_model(R"(
    {"name": "outer", "type": "Composite", "file": "parts/loop.json", "params": {"g": "4 * b"}})"));
  Model model = load_model_file(path, builtin_actors());
  const FlatModel flat = validate(model);
  CHECK(model.parameters().value("outer__g").scalar() == 6.0);
  CHECK(model.parameters().value("outer__inner__a").scalar() == 3.0);
  CHECK(gain_of(flat, "outer.inner.k") == -3.0);
}

TEST_CASE("an included file not beside its includer is looked for in the model path, then CTDE_MODEL_PATH") {
  const std::string dir = "include_search";
  const std::string lib = std::filesystem::path(write(dir, "lib/plant.json", kPlant)).parent_path().string();
  const std::string path = write(dir, "models/study.json",
                                 main_model(R"({"name": "p", "type": "Composite", "file": "plant.json"})"));
  CHECK(load_error(path) == path +
                                " at /actors/0/file: cannot find the included model file 'plant.json' in " +
                                std::filesystem::path(path).parent_path().string() +
                                " (no --model-path or CTDE_MODEL_PATH is set)");
  CHECK(load_error(path, {"/nonexistent", lib}).empty());
  setenv("CTDE_MODEL_PATH", ("/nonexistent::" + lib).c_str(), 1);
  CHECK(model_search_path({"first"}) == std::vector<std::string>{"first", "/nonexistent", lib});
  CHECK(load_error(path).empty());
  unsetenv("CTDE_MODEL_PATH");
  CHECK(load_error(path, {"/nonexistent"}) ==
        path + " at /actors/0/file: cannot find the included model file 'plant.json' in " +
            std::filesystem::path(path).parent_path().string() + " nor in the model path (/nonexistent)");
}

TEST_CASE("an include cycle is refused, the message naming the chain of files") {
  const std::string dir = "include_cycle";
  const std::string a = write(dir, "a.json", R"({"ctde": 1, "actors": [
    {"name": "b", "type": "Composite", "file": "b.json"}]})");
  const std::string b = write(dir, "b.json", R"({"ctde": 1, "actors": [
    {"name": "a", "type": "Composite", "file": "a.json"}]})");
  const std::string path =
      write(dir, "study.json", main_model(R"({"name": "a", "type": "Composite", "file": "a.json"})"));
  CHECK(load_error(path) == b + " at /actors/0/file: include cycle: " + a + " -> " + b + " -> " + a +
                                " (a model file may not include itself, directly or through others)");
  const std::string self = write(dir, "self.json", R"({"ctde": 1, "director": {"stop_time": 1}, "actors": [
    {"name": "me", "type": "Composite", "file": "self.json"}]})");
  CHECK(load_error(self) == self + " at /actors/0/file: include cycle: " + self + " -> " + self +
                                " (a model file may not include itself, directly or through others)");
}

TEST_CASE("an error inside an included file is located in that file") {
  const std::string dir = "include_errors";
  const std::string plant = write(dir, "plant.json", kPlant);
  const std::string bad = write(dir, "bad.json", R"({"ctde": 1, "actors": [
    {"name": "x", "type": "Integrator", "params": {"initail": 1}}]})");
  const std::string broken = write(dir, "broken.json", "{\"ctde\": 1,\n  \"actors\": [,]}");
  const std::string unknown_key =
      write(dir, "unknown_key.json", R"({"ctde": 1, "stop_time": 1, "actors": []})");
  const auto study = [&](const std::string& actors) { return write(dir, "study.json", main_model(actors)); };

  std::string path = study(R"({"name": "p", "type": "Composite", "file": "bad.json"})");
  CHECK(load_error(path) ==
        bad +
            " at /actors/0/params/initail: actor 'p.x' (Integrator) has no parameter 'initail' (its "
            "parameters: initial)");
  path = study(R"({"name": "p", "type": "Composite", "file": "broken.json"})");
  CHECK(load_error(path).rfind(broken + ":2:14: JSON syntax error: ", 0) == 0);
  path = study(R"({"name": "p", "type": "Composite", "file": "unknown_key.json"})");
  CHECK(load_error(path) ==
        unknown_key +
            " at /stop_time: unknown key 'stop_time' in an included model file (known here: "
            "ctde, name, description, parameters, actors, inputs, outputs, connections, "
            "director, record)");
  path = study(R"({"name": "p", "type": "Composite", "file": "plant.json", "params": {"b": 2}})");
  CHECK(load_error(path) == path + " at /actors/0/params/b: the included " + plant +
                                " has no parameter 'b' (its parameters: a, x0)");
  path = study(R"({"name": "p", "type": "Composite", "file": "plant.json", "actors": []})");
  CHECK(load_error(path) ==
        path +
            " at /actors/0/actors: unknown key 'actors' in an included composite (its network "
            "is in the file) (known here: name, type, file, params, description)");
  // A parameter of the included file whose value is wrong: located where the value was written.
  path = study(R"({"name": "p", "type": "Composite", "file": "plant.json", "params": {"a": "2 * nothing"}})");
  Model model = load_model_file(path, builtin_actors());
  CHECK(test::validation_error(model).rfind(path + " at /actors/0/params/a: ", 0) == 0);
  // A model parameter of the included parameter's name in the model.
  const std::string clash = write(dir, "clash.json", R"({"ctde": 1, "parameters": {"p__a": 1},
    "director": {"stop_time": 1}, "actors": [{"name": "p", "type": "Composite", "file": "plant.json"}]})");
  CHECK(load_error(clash) == clash + " at /actors/0/file: the included " + plant +
                                 "'s parameter 'a' is the model's parameter 'p__a', which the model defines "
                                 "already: rename one");
}

TEST_CASE("an included file's parameters are renamed in numbers and expressions only") {
  const std::map<std::string, std::string> renamed = {{"a", "p__a"}, {"e", "p__e"}};
  CHECK(rename_parameters("2*a + sin(a_1) - 1e-3*e + .5e2 + exp(e)", renamed) ==
        "2*p__a + sin(a_1) - 1e-3*p__e + .5e2 + exp(p__e)");
  CHECK(rename_parameters("a?\"a\":e", renamed) == "p__a?\"a\":p__e");
}
