// FMI export end to end: each example model exported with `ctde export`
// (FMI 3 and FMI 2) and run through ctde's own FMU importer gives, at every
// communication point, what the native run gives when it pauses at the
// same points (Director::advance_to, its solver ahead as the FMU's), to
// 1e-9; a model with an input against its closed form; two instances of one
// FMU in one process stay independent; a snapshot of a run with an exported
// FMU resumes exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/format.hpp"
#include "core/model_file.hpp"
#include "core/time.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// A model with an input: y' = gain (u - a y), y(0) = 0; dy = u - a y.
std::string write_plant() { return std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json"; }

std::string exported(const std::string& model, int fmi, const std::string& name) {
  const auto fmu = scratch_file("ctde_fmu_export", name + ".fmu");
  const CommandResult result =
      run_cli("export " + model + " -o " + fmu.string() + " --fmi " + std::to_string(fmi));
  REQUIRE_MESSAGE(result.status == 0, result.output);
  return fmu.string();
}

/// The model's declared outputs at each communication point k h (k = 1, 2, ...
/// while k h <= stop), the run paused there; `input(t)` given to each input
/// at each point before the step from it, as an importer holding it does.
std::vector<std::vector<double>> paused_run(const std::string& path, double h, double stop,
                                            const std::function<double(double)>& input = {}) {
  Model model = load_model_file(path, builtin_actors());
  const RunSetup setup = set_up_run(model, stop);
  Director director(setup.flat, setup.options, model.name());
  const TimeResolution resolution(setup.options.time_resolution);
  const Tick step = resolution.to_ticks(h);
  REQUIRE(director.advance_to(setup.options.start_time));
  std::vector<std::vector<double>> rows;
  for (Tick k = 1; k * step <= resolution.to_ticks(stop); ++k) {
    const double t = resolution.to_seconds((k - 1) * step);
    if (input) {
      for (const InterfacePort& in : setup.inputs) director.set_input(in.name, std::vector<double>{input(t)});
    }
    const bool paused = director.advance_to(resolution.to_seconds(k * step), Director::Pause::kAhead);
    std::vector<double> row;
    for (const InterfacePort& out : setup.outputs) {
      for (const double v : director.output_values(out.port.name)) row.push_back(v);
    }
    rows.push_back(row);
    if (!paused) break;
  }
  return rows;
}

/// The FMU's outputs at each communication point, run through ctde's importer
/// (the FMU actor, Co-Simulation), from the rows at microstep 1 (its tokens)
/// of the communication points; a y[1] output is the port y_1_ there.
std::vector<std::vector<double>> imported_run(const std::string& fmu, const std::vector<std::string>& outputs,
                                              double h, double stop, const std::string& input_source = "") {
  std::string record;
  for (const std::string& o : outputs) record += std::string(record.empty() ? "" : ", ") + "\"m." + o + "\"";
  const std::string model =
      R"j({"ctde": 1, "director": {"stop_time": )j" + format_double(stop) + R"j(}, "actors": [)j" +
      input_source + R"j({"name": "m", "type": "FMU", "params": {"file": ")j" + fmu +
      R"j(", "interface": "co-simulation", "communication_step": )j" + format_double(h) + "}}]" +
      (input_source.empty() ? "" : R"j(, "connections": [["u.out", "m.u"]])j") + ", \"record\": [" + record +
      "]}";
  const Run run = run_model(model);
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  std::vector<std::vector<double>>
      rows;  // at the communication points k h, k > 0 (not at the input's events)
  for (const Row& row : run.rows) {
    const double k = std::round(row.t / h);
    if (row.n == 1 && k > 0 && std::abs(row.t - k * h) <= 1e-9 * h) rows.push_back(row.values);
  }
  return rows;
}

void check_same(const std::vector<std::vector<double>>& native, const std::vector<std::vector<double>>& fmu) {
  REQUIRE(native.size() == fmu.size());
  for (std::size_t k = 0; k < native.size(); ++k) {
    REQUIRE(native[k].size() == fmu[k].size());
    for (std::size_t i = 0; i < native[k].size(); ++i) {
      INFO("point " << k + 1 << ", output " << i);
      CHECK(std::abs(native[k][i] - fmu[k][i]) <= 1e-9 * std::max(1.0, std::abs(native[k][i])));
    }
  }
}

}  // namespace

TEST_CASE(
    "every example model exported (FMI 3 and 2) and imported gives the native run at each point, to 1e-9") {
  struct Example {
    const char* name;
    std::vector<std::string> outputs;  ///< the FMU's output ports, element by element
    double h;                          ///< the communication step
  };
  const std::vector<Example> examples = {
      {"bouncing_ball", {"h", "v"}, 0.02},    {"actuator_loop", {"force", "x"}, 0.05},
      {"hard_stop", {"x", "v"}, 0.05},        {"mm1_queue", {"departed"}, 1},
      {"sampled_pi", {"x", "u"}, 0.05},       {"spring_mass", {"y_1_", "y_2_"}, 0.05},
      {"tank_queue", {"level", "jobs"}, 0.1}, {"thermostat", {"T", "heating"}, 0.05}};
  for (const Example& e : examples) {
    for (const int fmi : {3, 2}) {
      CAPTURE(e.name);
      CAPTURE(fmi);
      const std::string model = example_models() + e.name + ".json";
      Model loaded = load_model_file(model, builtin_actors());
      const double stop = set_up_run(loaded, std::nullopt).options.stop_time;  // the model's own
      const std::string fmu = exported(model, fmi, std::string(e.name) + std::to_string(fmi));
      const auto native = paused_run(model, e.h, stop);
      check_same(native, imported_run(fmu, e.outputs, e.h, stop));
    }
  }
}

TEST_CASE("an exported model's input held over each step: the closed form, and the native run paused alike") {
  const std::string model = write_plant();
  // u = 1 before t = 0.95, 2 from it on; the FMU sees u(t_k) over each step from t_k (u = 2 from t = 1).
  const auto u = [](double t) { return t < 0.95 ? 1.0 : 2.0; };
  const std::string source =
      R"j({"name": "u", "type": "Step", "params": {"time": 0.95, "before": 1, "after": 2}}, )j";
  for (const int fmi : {3, 2}) {
    CAPTURE(fmi);
    const std::string fmu = exported(model, fmi, "plant" + std::to_string(fmi));
    const auto imported = imported_run(fmu, {"y", "dy"}, 0.1, 4, source);
    check_same(paused_run(model, 0.1, 4, u), imported);
    // y = 0.5 (1 - e^{-6t}) to t = 1, then y -> 1 from y(1): y = 1 + (y(1) - 1) e^{-6(t - 1)}.
    const double y1 = 0.5 * (1 - std::exp(-6.0));
    for (std::size_t k = 0; k < imported.size(); ++k) {
      const double t = 0.1 * static_cast<double>(k + 1);
      const double y = t <= 1 + 1e-12 ? 0.5 * (1 - std::exp(-6 * t)) : 1 + (y1 - 1) * std::exp(-6 * (t - 1));
      CHECK(imported[k][0] == doctest::Approx(y).epsilon(1e-8));
      CHECK(imported[k][1] == doctest::Approx(u(t - 0.1) - 2 * y).epsilon(1e-7));  // u held over the step
    }
  }
}

TEST_CASE("two instances of one exported FMU in one process are independent") {
  const std::string fmu = exported(write_plant(), 3, "plant_twice");
  const std::string model = R"j({"ctde": 1, "director": {"stop_time": 2}, "actors": [
      {"name": "one", "type": "Constant", "params": {"value": 1}},
      {"name": "three", "type": "Constant", "params": {"value": 3}},
      {"name": "a", "type": "FMU", "params": {"file": ")j" +
                            fmu + R"j(", "interface": "co-simulation", "communication_step": 0.1}},
      {"name": "b", "type": "FMU", "params": {"file": ")j" +
                            fmu + R"j(", "interface": "co-simulation", "communication_step": 0.1}}],
    "connections": [["one.out", "a.u"], ["three.out", "b.u"]], "record": ["a.y", "b.y"]})j";
  const Run run = run_model(model);
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const Row& last = run.rows.back();
  REQUIRE(last.t == 2);
  REQUIRE(last.n == 1);
  // y(2) = u / 2 (1 - e^{-12}): each instance with its own input.
  CHECK(last.values[0] == doctest::Approx(0.5 * (1 - std::exp(-12.0))).epsilon(1e-8));
  CHECK(last.values[1] == doctest::Approx(1.5 * (1 - std::exp(-12.0))).epsilon(1e-8));
}
