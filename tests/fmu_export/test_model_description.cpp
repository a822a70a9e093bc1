// The modelDescription.xml `ctde export` writes, against the rules the FMI
// 3.0 and 2.0 standards state for the elements and attributes it uses: one
// test per rule, each on both versions, read back from the archive itself.
#include <doctest/doctest.h>
#include <zip.h>

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fmu_export/fmu_variables.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde::test;

namespace {

/// An exported FMU's files, by name.
struct Archive {
  std::map<std::string, std::string> files;
  pugi::xml_document xml;
  int fmi = 3;
  [[nodiscard]] pugi::xml_node root() const { return xml.child("fmiModelDescription"); }
  /// Each variable: FMI 3's <Float64> elements, FMI 2's <ScalarVariable>.
  [[nodiscard]] std::vector<pugi::xml_node> variables() const {
    std::vector<pugi::xml_node> out;
    for (const pugi::xml_node v : root().child("ModelVariables").children()) out.push_back(v);
    return out;
  }
};

std::map<std::string, std::string> unzip(const std::string& path) {
  std::map<std::string, std::string> files;
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  REQUIRE(archive != nullptr);
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    zip_stat_t stat;
    zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &stat);
    std::string bytes(stat.size, '\0');
    zip_file_t* file = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    zip_fread(file, bytes.data(), stat.size);
    zip_fclose(file);
    files[stat.name] = std::move(bytes);
  }
  zip_close(archive);
  return files;
}

/// `model` exported by `ctde export MODEL -o NAME<fmi>.fmu --fmi <fmi> ARGUMENTS`, read once per test run.
const Archive& exported(const std::string& name, const std::string& model, const std::string& arguments,
                        int fmi) {
  static std::map<std::string, Archive> archives;
  auto [it, added] = archives.try_emplace(name + std::to_string(fmi));
  if (added) {
    const auto fmu = scratch_file("ctde_model_description", name + std::to_string(fmi) + ".fmu");
    const CommandResult result =
        run_cli("export " + model + " -o " + fmu.string() + " --fmi " + std::to_string(fmi) + arguments);
    REQUIRE_MESSAGE(result.status == 0, result.output);
    it->second.files = unzip(fmu.string());
    it->second.fmi = fmi;
    REQUIRE(it->second.xml.load_string(it->second.files.at("modelDescription.xml").c_str()));
  }
  return it->second;
}

/// The test plant (an input, two outputs, a fixed and a tunable parameter), exported as FMI `fmi`.
const Archive& plant(int fmi) {
  return exported("plant", std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json", "", fmi);
}

/// The bouncing ball (two states, one guard) exported for both interfaces as FMI `fmi`.
const Archive& ball_both(int fmi) {
  return exported("ball_both", example_models() + "bouncing_ball.json", " --interface both", fmi);
}

/// "{8-4-4-4-12 lowercase hex digits}" (no std::regex: GCC 12 warns in it under the sanitizers).
bool is_guid(const std::string& text) {
  const std::string shape = "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}";
  if (text.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool hex =
        std::isdigit(static_cast<unsigned char>(text[i])) != 0 || (text[i] >= 'a' && text[i] <= 'f');
    if (shape[i] == 'x' ? !hex : text[i] != shape[i]) return false;
  }
  return true;
}

std::string attribute(pugi::xml_node node, const char* name) { return node.attribute(name).as_string(); }

/// The attribute of `v` that FMI 3 puts on the variable and FMI 2 on its <Real>.
std::string typed(const Archive& a, pugi::xml_node v, const char* name) {
  return attribute(a.fmi == 3 ? v : v.child("Real"), name);
}

}  // namespace

TEST_CASE("modelDescription: fmiVersion, modelName and the token of resources/model.json") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    CHECK(attribute(a.root(), "fmiVersion") == (fmi == 3 ? "3.0" : "2.0"));
    CHECK(attribute(a.root(), "modelName") == "plant");
    const std::string token = attribute(a.root(), fmi == 3 ? "instantiationToken" : "guid");
    CHECK(is_guid(token));
    CHECK(token == ctde::fmu::instantiation_token(a.files.at("resources/model.json")));
  }
}

TEST_CASE("modelDescription: the modelIdentifier is a C name and names the binary of the platform") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    const std::string id = attribute(a.root().child("CoSimulation"), "modelIdentifier");
    CHECK(ctde::fmu::is_fmi_name(id));
    CHECK(a.files.count(std::string("binaries/") + (fmi == 3 ? "x86_64-linux/" : "linux64/") + id + ".so") ==
          1);
    CHECK(a.root().child("ModelExchange").empty());  // only what the binary offers
  }
}

TEST_CASE("modelDescription: the elements in the order the schema gives") {
  const std::vector<std::string> order = {"CoSimulation",      "UnitDefinitions", "LogCategories",
                                          "DefaultExperiment", "ModelVariables",  "ModelStructure"};
  for (const int fmi : {3, 2}) {
    std::vector<std::string> seen;
    for (const pugi::xml_node child : plant(fmi).root().children()) seen.emplace_back(child.name());
    CHECK(seen == order);
  }
}

TEST_CASE("modelDescription: the model's units on their variables, each defined once in UnitDefinitions") {
  // plant.json: "units": {"u": "m/s", "y": "m", "dy": "m/s", "a": "1/s"}; gain and time have none.
  const std::map<std::string, std::string> expected = {{"u", "m/s"}, {"y", "m"}, {"dy", "m/s"}, {"a", "1/s"}};
  for (const int fmi : {3, 2}) {
    CAPTURE(fmi);
    const Archive& a = plant(fmi);
    std::vector<std::string> defined;
    for (const pugi::xml_node unit : a.root().child("UnitDefinitions").children("Unit"))
      defined.push_back(attribute(unit, "name"));
    CHECK(defined == std::vector<std::string>{"1/s", "m", "m/s"});  // once each, in name order
    for (const pugi::xml_node v : a.variables()) {
      const std::string name = attribute(v, "name");
      CAPTURE(name);
      const auto unit = expected.find(name);
      CHECK(typed(a, v, "unit") == (unit == expected.end() ? "" : unit->second));
    }
  }
}

TEST_CASE("modelDescription: names and value references are unique") {
  for (const int fmi : {3, 2}) {
    std::set<std::string> names;
    std::set<std::string> references;
    for (const pugi::xml_node v : plant(fmi).variables()) {
      CHECK(names.insert(attribute(v, "name")).second);
      CHECK(references.insert(attribute(v, "valueReference")).second);
    }
    CHECK(names == std::set<std::string>{"time", "u", "y", "dy", "a", "gain"});
  }
}

TEST_CASE("modelDescription: one independent variable, continuous, without start or initial") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    int independent = 0;
    for (const pugi::xml_node v : a.variables()) {
      if (attribute(v, "causality") != "independent") continue;
      ++independent;
      CHECK(attribute(v, "variability") == "continuous");
      CHECK(typed(a, v, "start").empty());
      CHECK(attribute(v, "initial").empty());
    }
    CHECK(independent == 1);
  }
}

TEST_CASE("modelDescription: inputs and parameters have a start value; outputs are calculated, without one") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    for (const pugi::xml_node v : a.variables()) {
      const std::string causality = attribute(v, "causality");
      CAPTURE(attribute(v, "name"));
      if (causality == "input" || causality == "parameter") {
        CHECK(!typed(a, v, "start").empty());
        CHECK((attribute(v, "initial").empty() || attribute(v, "initial") == "exact"));
      }
      if (causality == "output") {
        CHECK(typed(a, v, "start").empty());
        CHECK(attribute(v, "initial") == "calculated");
      }
      if (causality == "parameter") {
        const std::string variability = attribute(v, "variability");
        CHECK(variability ==
              (attribute(v, "name") == "gain" ? "tunable" : "fixed"));  // the model's "tunable"
      }
    }
  }
}

TEST_CASE(
    "modelDescription: every output once in ModelStructure, in order, with its feedthrough dependencies") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    // FMI 3 names variables by value reference; FMI 2 by their 1-based index in ModelVariables.
    std::map<std::string, std::string> key;  // name -> what ModelStructure calls it
    std::vector<std::string> outputs;
    std::size_t index = 0;
    for (const pugi::xml_node v : a.variables()) {
      ++index;
      key[attribute(v, "name")] = fmi == 3 ? attribute(v, "valueReference") : std::to_string(index);
      if (attribute(v, "causality") == "output") outputs.push_back(key[attribute(v, "name")]);
    }
    const pugi::xml_node structure = a.root().child("ModelStructure");
    std::vector<std::string> listed;
    std::map<std::string, std::string> dependencies;
    const pugi::xml_node outputs_of = fmi == 3 ? structure : structure.child("Outputs");
    for (const pugi::xml_node o : outputs_of.children(fmi == 3 ? "Output" : "Unknown")) {
      const std::string name = attribute(o, fmi == 3 ? "valueReference" : "index");
      listed.push_back(name);
      dependencies[name] = attribute(o, "dependencies");
    }
    CHECK(listed == outputs);
    CHECK(dependencies[key["y"]].empty());       // y is the integrator's state: no feedthrough
    CHECK(dependencies[key["dy"]] == key["u"]);  // dy = u - a y
    std::vector<std::string> initial;
    const pugi::xml_node initial_of = fmi == 3 ? structure : structure.child("InitialUnknowns");
    for (const pugi::xml_node o : initial_of.children(fmi == 3 ? "InitialUnknown" : "Unknown"))
      initial.push_back(attribute(o, fmi == 3 ? "valueReference" : "index"));
    CHECK(initial == outputs);  // the outputs with initial "calculated", in order
  }
}

TEST_CASE(
    "modelDescription: the default experiment is the model's director, the declared log categories the "
    "binary's") {
  for (const int fmi : {3, 2}) {
    const Archive& a = plant(fmi);
    const pugi::xml_node experiment = a.root().child("DefaultExperiment");
    CHECK(experiment.attribute("startTime").as_double() == 0);
    CHECK(experiment.attribute("stopTime").as_double() == 4);
    CHECK(experiment.attribute("tolerance").as_double() == 1e-10);
    std::set<std::string> categories;
    for (const pugi::xml_node c : a.root().child("LogCategories").children("Category"))
      categories.insert(attribute(c, "name"));
    CHECK(categories == std::set<std::string>{"logStatusError", "logStatusWarning", "logEvents"});
    const pugi::xml_node cs = a.root().child("CoSimulation");
    CHECK(cs.attribute(fmi == 3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate").as_bool());
    CHECK(cs.attribute(fmi == 3 ? "canSerializeFMUState" : "canSerializeFMUstate").as_bool());
    CHECK(cs.attribute("canHandleVariableCommunicationStepSize").as_bool());
  }
}

TEST_CASE(
    "modelDescription with Model Exchange: ModelExchange before CoSimulation; each state's derivative names "
    "its state; the event indicators; states and derivatives initial unknowns; names unique") {
  for (const int fmi : {3, 2}) {
    CAPTURE(fmi);
    const Archive& a = ball_both(fmi);
    std::vector<std::string> order;
    for (const pugi::xml_node child : a.root().children()) order.emplace_back(child.name());
    REQUIRE(order.size() >= 2);
    CHECK(order[0] == "ModelExchange");  // the schema's sequence: ModelExchange, CoSimulation, ...
    CHECK(order[1] == "CoSimulation");
    const pugi::xml_node me = a.root().child("ModelExchange");
    CHECK(attribute(me, "modelIdentifier") == attribute(a.root().child("CoSimulation"), "modelIdentifier"));
    CHECK(!me.attribute(fmi == 3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate").as_bool());
    // Each variable by what ModelStructure calls it (FMI 3: value reference; FMI 2: 1-based index).
    std::map<std::string, pugi::xml_node> by_key;
    std::set<std::string> names;
    std::size_t index = 0;
    for (const pugi::xml_node v : a.variables()) {
      ++index;
      by_key[fmi == 3 ? attribute(v, "valueReference") : std::to_string(index)] = v;
      CHECK(names.insert(attribute(v, "name")).second);
    }
    const pugi::xml_node structure = a.root().child("ModelStructure");
    std::vector<std::string> derivatives;
    const pugi::xml_node derivatives_of = fmi == 3 ? structure : structure.child("Derivatives");
    for (const pugi::xml_node d : derivatives_of.children(fmi == 3 ? "ContinuousStateDerivative" : "Unknown"))
      derivatives.push_back(attribute(d, fmi == 3 ? "valueReference" : "index"));
    REQUIRE(derivatives.size() == 2);  // v and h
    std::set<std::string> states;
    for (const std::string& key : derivatives) {
      const pugi::xml_node d = by_key.at(key);
      const std::string state = typed(a, d, "derivative");
      REQUIRE(by_key.count(state) == 1);
      states.insert(state);
      const std::string state_name = attribute(by_key.at(state), "name");
      CHECK(attribute(d, "name") == "der(" + state_name + ")");
      CHECK(attribute(d, "variability") == "continuous");
      CHECK(attribute(by_key.at(state), "variability") == "continuous");
    }
    CHECK(states.size() == 2);
    std::set<std::string> state_names;
    for (const std::string& key : states) state_names.insert(attribute(by_key.at(key), "name"));
    CHECK(state_names == std::set<std::string>{"state(h)", "state(v)"});
    // The indicators: FMI 3 lists each (a continuous Float64); FMI 2 counts them.
    if (fmi == 3) {
      std::vector<std::string> indicators;
      for (const pugi::xml_node z : structure.children("EventIndicator")) {
        const pugi::xml_node v = by_key.at(attribute(z, "valueReference"));
        indicators.push_back(attribute(v, "name"));
        CHECK(attribute(v, "variability") == "continuous");
      }
      CHECK(indicators == std::vector<std::string>{"indicator(ground)"});
    } else {
      CHECK(attribute(a.root(), "numberOfEventIndicators") == "1");
    }
    // Initial unknowns: the outputs, the states and their derivatives (all initial "calculated").
    std::set<std::string> initial;
    const pugi::xml_node initial_of = fmi == 3 ? structure : structure.child("InitialUnknowns");
    for (const pugi::xml_node o : initial_of.children(fmi == 3 ? "InitialUnknown" : "Unknown"))
      initial.insert(attribute(o, fmi == 3 ? "valueReference" : "index"));
    for (const std::string& key : derivatives) CHECK(initial.count(key) == 1);
    for (const std::string& key : states) CHECK(initial.count(key) == 1);
    for (const std::string& key : initial) CHECK(attribute(by_key.at(key), "initial") == "calculated");
    CHECK(a.files.at("resources/fmu.json") == "{\"co_simulation\":true,\"model_exchange\":true}\n");
  }
}
