// FMI export as Model Exchange end to end: each example model exported with
// `ctde export --interface me` (FMI 3 and FMI 2) and integrated by ctde's own
// FMU importer gives the native run's values after each time's events, to
// 1e-9, its state events at the native times; an input the importer
// changes continuously against the closed form; what cannot be exported as
// Model Exchange is refused naming why.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

std::string exported_me(const std::string& model, int fmi, const std::string& name,
                        const std::string& interface = "me") {
  const auto fmu = scratch_file("ctde_fmu_exchange", name + ".fmu");
  const CommandResult result = run_cli("export " + model + " -o " + fmu.string() + " --fmi " +
                                       std::to_string(fmi) + " --interface " + interface);
  REQUIRE_MESSAGE(result.status == 0, result.output);
  return fmu.string();
}

/// Per time: the values of the row with the highest microstep there (after the time's events).
std::map<double, std::vector<double>> after_events(const Run& run) {
  std::map<double, std::vector<double>> out;
  for (const Row& row : run.rows) out[row.t] = row.values;
  return out;
}

/// The times of the run's state events (its trace's state_event lines).
std::vector<double> state_event_times(const Run& run) {
  std::vector<double> times;
  for (const nlohmann::json& line : run.lines) {
    if (line["kind"] == "state_event") times.push_back(line["t"].get<double>());
  }
  return times;
}

/// The example's director options and declared outputs, with `record` the
/// outputs' ports (native) or the FMU actor m's ports (imported).
struct Pair {
  std::string native;
  std::string imported;
};
Pair models(const std::string& name, const std::string& fmu) {
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(read_example(name + ".json"));
  nlohmann::ordered_json native = doc;
  nlohmann::ordered_json imported = {{"ctde", 1}, {"director", doc["director"]}};
  imported["actors"] = nlohmann::ordered_json::array(
      {{{"name", "m"}, {"type", "FMU"}, {"params", {{"file", fmu}, {"interface", "model-exchange"}}}}});
  native["record"] = nlohmann::ordered_json::array();
  imported["record"] = nlohmann::ordered_json::array();
  for (const auto& [output, port] : doc["outputs"].items()) {
    native["record"].push_back(port);
    if (output == "y") {  // spring_mass's vector output: FMU ports y_1_, y_2_ (y[1], y[2])
      imported["record"].push_back("m.y_1_");
      imported["record"].push_back("m.y_2_");
    } else {
      imported["record"].push_back("m." + output);
    }
  }
  return {native.dump(), imported.dump()};
}

}  // namespace

TEST_CASE(
    "every example model exported as Model Exchange (FMI 3 and 2) and integrated by the importer: the "
    "native values after each time's events, to 1e-9, and its state events") {
  for (const char* name : {"bouncing_ball", "actuator_loop", "hard_stop", "mm1_queue", "sampled_pi",
                           "spring_mass", "tank_queue", "thermostat"}) {
    for (const int fmi : {3, 2}) {
      CAPTURE(name);
      CAPTURE(fmi);
      const std::string fmu = exported_me(example_models() + name + ".json", fmi, name + std::to_string(fmi));
      const Pair pair = models(name, fmu);
      const Run native = run_model(pair.native);
      const Run imported = run_model(pair.imported);
      REQUIRE_MESSAGE(native.result.status == RunStatus::kOk, native.result.message);
      REQUIRE_MESSAGE(imported.result.status == RunStatus::kOk, imported.result.message);
      const auto a = after_events(native);
      const auto b = after_events(imported);
      std::size_t common = 0;
      for (const auto& [t, values] : a) {
        const auto other = b.find(t);
        if (other == b.end()) continue;
        ++common;
        REQUIRE(values.size() == other->second.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
          // A discrete output's token is in the row of its microstep only (NaN elsewhere): the
          // importer's microsteps at a time are not the native run's.
          if (std::isnan(values[i]) || std::isnan(other->second[i])) continue;
          INFO("t = " << format_double(t) << ", output " << i);
          CHECK(std::abs(values[i] - other->second[i]) <= 1e-9 * std::max(1.0, std::abs(values[i])));
        }
      }
      // Every output_interval point at least (the rows at event times may differ by a tick; the
      // native run of a model without states writes a row at each of its events, the imported
      // one at the FMU's).
      CHECK(common * 2 >= std::min(a.size(), b.size()));
      CHECK(b.rbegin()->first == a.rbegin()->first);  // both to the stop time
      const std::vector<double> ta = state_event_times(native);
      const std::vector<double> tb = state_event_times(imported);
      REQUIRE(ta.size() == tb.size());
      for (std::size_t k = 0; k < ta.size(); ++k)
        CHECK(std::abs(ta[k] - tb[k]) <= 1e-9 * std::max(1.0, ta[k]));
    }
  }
}

TEST_CASE("an input the Model Exchange importer changes: the closed form, the step seen where it happens") {
  // plant.json: y' = gain (u - a y) with gain 3, a 2 (y(0) = 0): y = (u/2) (1 - e^{-6t}) for constant u.
  // u = 1 before t = 0.95 and 2 from it on (ME takes the step at its time, CS at the next point).
  const std::string plant = std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json";
  for (const int fmi : {3, 2}) {
    CAPTURE(fmi);
    const std::string fmu = exported_me(plant, fmi, "plant_me" + std::to_string(fmi), "both");
    const Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 3, "rtol": 1e-10, "atol": 1e-12,
        "output_interval": 0.1}, "actors": [
        {"name": "u", "type": "Step", "params": {"time": 0.95, "before": 1, "after": 2}},
        {"name": "m", "type": "FMU", "params": {"file": ")j" +
                              fmu + R"j(", "interface": "model-exchange"}}],
        "connections": [["u.out", "m.u"]], "record": ["m.y", "m.dy", "u.out"]})j");
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    const double y1 = 0.5 * (1 - std::exp(-6 * 0.95));
    std::size_t checked = 0;
    for (const Row& row : run.rows) {
      const double u = row.values[2];
      const double y = row.t < 0.95 || (row.t == 0.95 && u == 1)
                           ? 0.5 * (1 - std::exp(-6 * row.t))
                           : 1 + (y1 - 1) * std::exp(-6 * (row.t - 0.95));
      INFO("t = " << row.t << ", microstep " << row.n);
      CHECK(row.values[0] == doctest::Approx(y).epsilon(1e-8));
      CHECK(row.values[1] == doctest::Approx(u - 2 * row.values[0]).epsilon(1e-9));  // dy = u - a y, at once
      ++checked;
    }
    CHECK(checked >= 31);
  }
}

TEST_CASE(
    "Model Exchange refused: an actor that bounds every step, and an FMU exported for Co-Simulation only") {
  const auto folder = scratch_file("ctde_fmu_exchange", "refused").parent_path();
  const std::string delay = (folder / "delay.json").string();
  std::ofstream(delay) << R"({"ctde": 1, "director": {"stop_time": 1}, "outputs": {"y": "d.out"},
    "actors": [{"name": "s", "type": "Sine"}, {"name": "d", "type": "TransportDelay", "params": {"delay": 0.1}}],
    "connections": [["s.out", "d.in"]]})";
  const CommandResult refused =
      run_cli("export " + delay + " -o " + (folder / "delay.fmu").string() + " --interface me");
  CHECK(refused.status == 2);
  CHECK(contains(refused.output,
                 "cannot be exported as Model Exchange (--interface me): actor 'd' "
                 "(TransportDelay) bounds every step of ctde's own integrator"));
  CHECK(!std::filesystem::exists(folder / "delay.fmu"));
  const CommandResult bad =
      run_cli("export " + delay + " -o " + (folder / "x.fmu").string() + " --interface cx");
  CHECK(bad.status == 2);
  CHECK(contains(bad.output, "--interface is cs, me or both, not 'cx'"));
  // A Co-Simulation export offers no Model Exchange (the binary refuses it too: fmi_runner.py).
  const std::string plant = std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json";
  const std::string cs = exported_me(plant, 3, "plant_cs_only", "cs");
  CHECK_THROWS_WITH(run_model(R"j({"ctde": 1, "director": {"stop_time": 1}, "actors": [
      {"name": "m", "type": "FMU", "params": {"file": ")j" +
                              cs + R"j(", "interface": "model-exchange"}}], "record": ["m.y"]})j"),
                    doctest::Contains("has no Model Exchange interface"));
}
