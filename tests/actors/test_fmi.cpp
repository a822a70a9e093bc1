// The FMU actor (actors/fmi/) on the test FMUs of tests/fmi/: closed forms
// (ball impacts, e^-t), a native ctde model of the same ODE (van der Pol),
// exact time events (stair), co-simulation against model exchange, inputs
// and feedthrough, step events, discard, termination; and every loading
// error of a broken FMU as a model error naming the file and the problem.
#include <doctest/doctest.h>
#include <zip.h>

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "actors/fmi/fmu.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "actors/fmi/model_description.hpp"
#include "core/error.hpp"
#include "core/local_jacobian.hpp"
#include "support/cli_helpers.hpp"
#include "support/closed_forms.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;
namespace fs = std::filesystem;

namespace {

/// A temporary folder of this test alone, made the process's TMPDIR (where
/// FMUs are extracted) for the scope's life: counting the extracted folders
/// there counts this test's, not other processes' in /tmp.
class PrivateTmpdir {
 public:
  PrivateTmpdir() {
    const char* old = std::getenv("TMPDIR");
    if (old != nullptr) old_ = old;
    std::string pattern = (fs::temp_directory_path() / "ctde-test-tmp-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
    REQUIRE(setenv("TMPDIR", path_.c_str(), 1) == 0);
  }
  PrivateTmpdir(const PrivateTmpdir&) = delete;
  PrivateTmpdir& operator=(const PrivateTmpdir&) = delete;
  PrivateTmpdir(PrivateTmpdir&&) = delete;
  PrivateTmpdir& operator=(PrivateTmpdir&&) = delete;
  ~PrivateTmpdir() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }

  /// The FMU folders extracted in it now.
  [[nodiscard]] std::size_t extracted_folders() const {
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(path_)) {
      if (entry.path().filename().string().rfind("ctde-fmu-", 0) == 0) ++count;
    }
    return count;
  }

 private:
  std::optional<std::string> old_;
  fs::path path_;
};

}  // namespace

TEST_CASE("an FMU variable's port name keeps letters, digits and underscores and replaces the rest") {
  CHECK(fmu_port_name("h") == "h");
  CHECK(fmu_port_name("der(x)") == "der_x_");
  CHECK(fmu_port_name("body.pos[1]") == "body_pos_1_");
  CHECK(fmu_port_name("a_B9") == "a_B9");
}

TEST_CASE("zip entries that are absolute or leave the archive's folder are unsafe") {
  CHECK(is_safe_zip_entry("modelDescription.xml"));
  CHECK(is_safe_zip_entry("binaries/linux64/ball.so"));
  CHECK(is_safe_zip_entry("resources/a..b.txt"));
  CHECK_FALSE(is_safe_zip_entry("/etc/passwd"));
  CHECK_FALSE(is_safe_zip_entry("../evil.so"));
  CHECK_FALSE(is_safe_zip_entry("resources/../../evil.so"));
  CHECK_FALSE(is_safe_zip_entry("resources/.."));
  CHECK_FALSE(is_safe_zip_entry("C:/evil.so"));
  CHECK_FALSE(is_safe_zip_entry("a\\..\\evil"));
}

TEST_CASE("an FMU holding a zip-slip entry is refused before anything is extracted") {
  const fs::path file = test::scratch_file("ctde_fmi_test", "slip.fmu");
  fs::remove(file);
  const fs::path escaped = file.parent_path().parent_path() / "ctde_fmi_slip_evil.txt";
  fs::remove(escaped);
  int error = 0;
  zip_t* archive = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive != nullptr);
  static const char kText[] = "<fmiModelDescription/>";
  zip_source_t* a = zip_source_buffer(archive, kText, sizeof kText - 1, 0);
  REQUIRE(zip_file_add(archive, "modelDescription.xml", a, ZIP_FL_ENC_UTF_8) >= 0);
  zip_source_t* b = zip_source_buffer(archive, kText, sizeof kText - 1, 0);
  REQUIRE(zip_file_add(archive, "../ctde_fmi_slip_evil.txt", b, ZIP_FL_ENC_UTF_8) >= 0);
  REQUIRE(zip_close(archive) == 0);

  const PrivateTmpdir tmp;
  try {
    FmuArchive unpacked(file);
    FAIL("the archive was extracted");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("unsafe entry name '../ctde_fmi_slip_evil.txt'") != std::string::npos);
    CHECK(std::string(e.what()).find("slip.fmu") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(escaped));
  CHECK(tmp.extracted_folders() == 0);  // the folder it began is gone
}

TEST_CASE("each FMU actor extracts its own copy, removed when the model goes") {
  const PrivateTmpdir tmp;
  {
    Model model = test::load(R"({"ctde": 1, "actors": [{"name": "a", "type": "FMU", "params": {"file": ")" +
                             fmu("dahlquist") + R"("}}, {"name": "b", "type": "FMU", "params": {"file": ")" +
                             fmu("dahlquist") + R"("}}]})");
    (void)validate(model);
    CHECK(tmp.extracted_folders() == 2);
  }
  CHECK(tmp.extracted_folders() == 0);
}

TEST_CASE("the model description gives the states, derivatives, outputs and their dependencies") {
  const std::string xml = R"xml(<?xml version="1.0"?>
<fmiModelDescription fmiVersion="2.0" modelName="m" guid="{g}" numberOfEventIndicators="2">
  <ModelExchange modelIdentifier="m" completedIntegratorStepNotNeeded="true"/>
  <CoSimulation modelIdentifier="m_cs" canBeInstantiatedOnlyOncePerProcess="true"/>
  <ModelVariables>
    <ScalarVariable name="u" valueReference="7" causality="input"><Real start="0.5"/></ScalarVariable>
    <ScalarVariable name="x" valueReference="0" initial="exact"><Real start="1" nominal="10"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="1"><Real derivative="2"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="2" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="n" valueReference="0" causality="output" variability="discrete"><Integer/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs><Unknown index="4" dependencies="1 2"/><Unknown index="5"/></Outputs>
    <Derivatives><Unknown index="3"/></Derivatives>
  </ModelStructure>
</fmiModelDescription>)xml";
  const ModelDescription d = parse_model_description(xml, "FMU 'm.fmu'");
  CHECK(d.guid == "{g}");
  CHECK(d.event_indicators == 2);
  REQUIRE(d.model_exchange);
  CHECK(d.model_exchange->completed_step_not_needed);
  REQUIRE(d.co_simulation);
  CHECK(d.co_simulation->model_identifier == "m_cs");
  CHECK(d.co_simulation->instantiate_once_per_process);
  REQUIRE(d.variables.size() == 5);
  CHECK(d.variables[0].causality == Causality::kInput);
  CHECK(d.variables[0].start == 0.5);
  CHECK(d.variables[4].type == VariableType::kInteger);
  CHECK(d.variables[4].variability == Variability::kDiscrete);
  CHECK(d.states == std::vector<std::size_t>{1});
  CHECK(d.derivatives == std::vector<std::size_t>{2});
  CHECK(d.variables[1].nominal == 10.0);
  REQUIRE(d.outputs.size() == 2);
  CHECK(*d.outputs[0].dependencies == std::vector<std::size_t>{0, 1});
  CHECK_FALSE(d.outputs[1].dependencies.has_value());
}

TEST_CASE(
    "a model description missing an output from its structure, or not XML, is refused with its exact "
    "reason") {
  const auto message = [](const std::string& xml) {
    try {
      (void)parse_model_description(xml, "FMU 'm.fmu'");
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(
      message(
          R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g"><ModelExchange modelIdentifier="m"/>
      <ModelVariables><ScalarVariable name="y" valueReference="0" causality="output"><Real/></ScalarVariable>
      </ModelVariables><ModelStructure/></fmiModelDescription>)") ==
      "FMU 'm.fmu': modelDescription.xml: output 'y' is missing from <ModelStructure>");
  CHECK(message(R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g" numberOfEventIndicators="-1">
      <ModelExchange modelIdentifier="m"/></fmiModelDescription>)") ==
        "FMU 'm.fmu': modelDescription.xml: numberOfEventIndicators is negative");
  CHECK(
      message("<fmiModelDescription fmiVersion=\"2.0\"") ==
      "FMU 'm.fmu': modelDescription.xml: malformed XML at offset 36: Error parsing start element tag");  // its end
  CHECK(message("<other/>") == "FMU 'm.fmu': modelDescription.xml: no <fmiModelDescription> element");
}

TEST_CASE("a model description with an index out of range or a missing guid is refused with its reason") {
  const auto message = [](const std::string& xml) {
    try {
      (void)parse_model_description(xml, "FMU 'm.fmu'");
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(R"(<fmiModelDescription fmiVersion="2.0" modelName="m"><ModelExchange modelIdentifier="m"/>
               </fmiModelDescription>)") ==
        "FMU 'm.fmu': modelDescription.xml: <fmiModelDescription> has no 'guid' attribute");
  CHECK(
      message(
          R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g"><ModelExchange modelIdentifier="m"/>
      <ModelVariables/><ModelStructure><Outputs><Unknown index="3"/></Outputs></ModelStructure>
      </fmiModelDescription>)")
          .find("refers to variable index '3', not in 1..0") != std::string::npos);
  CHECK(message(R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g"/>)")
            .find("neither <ModelExchange> nor <CoSimulation>") != std::string::npos);
  CHECK(
      message(
          R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g"><ModelExchange modelIdentifier="../m"/>
               </fmiModelDescription>)")
          .find("unusable modelIdentifier '../m'") != std::string::npos);
}

TEST_CASE("the bouncing-ball FMU bounces at the closed-form impact times") {
  const double g = 9.81;
  const double e = 0.7;
  const double h0 = 1.5;
  const double stop = 2.9;
  const auto run =
      run_model(fmu_model("ball", R"("start": {"e": 0.7, "h": 1.5})",
                          R"("stop_time": 2.9, "rtol": 1e-10, "atol": 1e-12)", R"("a.h", "a.v")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<double> expected = impact_times(h0, g, e, stop);
  const std::vector<double> impacts = reset_times(run, "a");
  REQUIRE(impacts.size() == expected.size());
  CHECK(expected.size() >= 6);
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CAPTURE(k);
    CHECK(std::fabs(impacts[k] - expected[k]) < 1e-8);
  }
}

TEST_CASE("the Dahlquist FMU's state follows e^-kt and k is set by start") {
  const auto run = run_model(
      fmu_model("dahlquist", R"("start": {"k": 2})",
                R"("stop_time": 2, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.1)", R"("a.x")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  REQUIRE(run.rows.size() >= 21);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(std::fabs(row.values[0] - std::exp(-2 * row.t)) < 1e-8);
  }
}

TEST_CASE("the van der Pol FMU agrees with a native ctde model of the same ODE") {
  const std::string director = R"("stop_time": 5, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.25)";
  const auto from_fmu =
      run_model(fmu_model("van_der_pol", R"("start": {"mu": 1.5})", director, R"("a.x0", "a.x1")"));
  const auto native = run_model(R"({"ctde": 1, "name": "vdp", "parameters": {"mu": 1.5}, "director": {)" +
                                director + R"(}, "actors": [
      {"name": "x0", "type": "Integrator", "params": {"initial": 2}},
      {"name": "x1", "type": "Integrator", "params": {"initial": 0}},
      {"name": "f", "type": "Expression", "params": {"expr": "mu * (1 - in0 * in0) * in1 - in0", "inputs": 2}}],
    "connections": [["x1.out", "x0.in"], ["x0.out", "f.in0"], ["x1.out", "f.in1"], ["f.out", "x1.in"]],
    "record": ["x0.out", "x1.out"]})");
  REQUIRE_MESSAGE(from_fmu.result.status == RunStatus::kOk, from_fmu.result.message);
  REQUIRE(native.result.status == RunStatus::kOk);
  REQUIRE(from_fmu.rows.size() == native.rows.size());
  for (std::size_t r = 0; r < native.rows.size(); ++r) {
    CAPTURE(native.rows[r].t);
    CHECK(from_fmu.rows[r].t == native.rows[r].t);
    CHECK(std::fabs(from_fmu.rows[r].values[0] - native.rows[r].values[0]) < 1e-7);
    CHECK(std::fabs(from_fmu.rows[r].values[1] - native.rows[r].values[1]) < 1e-7);
  }
}

TEST_CASE("the stair FMU's time events fall exactly on their ticks, with both sides recorded") {
  const auto run = run_model(fmu_model("stair", "", R"("stop_time": 0.95)", R"("a.count", "a.level")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  std::vector<std::int64_t> ticks;
  for (const auto& line : run.lines) {
    if (line["kind"] == "time_event" && line["actor"] == "a")
      ticks.push_back(line["tick"].get<std::int64_t>());
  }
  // Time resolution 1e-12 s: t = k * 0.1 is tick k * 1e11.
  REQUIRE(ticks.size() == 9);
  for (std::size_t k = 0; k < ticks.size(); ++k)
    CHECK(ticks[k] == static_cast<std::int64_t>(k + 1) * 100000000000);
  const std::size_t count = run.column("a.count");
  const std::size_t level = run.column("a.level");
  for (int k = 1; k <= 9; ++k) {
    CAPTURE(k);
    int sides = 0;
    for (const auto& row : run.rows) {
      if (std::fabs(row.t - k * 0.1) > 1e-12) continue;
      if (row.n == 0) CHECK(row.values[count] == k - 1);  // left side
      if (row.n == 1) {
        CHECK(row.values[count] == k);  // right side
        CHECK(row.values[level] == doctest::Approx(k / 10.0));
      }
      ++sides;
    }
    CHECK(sides == 2);
  }
}

TEST_CASE("terminateSimulation from an FMU ends the run with status stopped at that event") {
  const auto run =
      run_model(fmu_model("stair", R"("start": {"last": 3})", R"("stop_time": 1)", R"("a.count")"));
  CHECK(run.result.status == RunStatus::kStopped);
  CHECK(run.rows.back().t == doctest::Approx(0.3));
  CHECK(run.rows.back().values[0] == 3);
}

TEST_CASE("an FMU's Real, Integer and Boolean inputs reach it and its outputs depend on them") {
  const auto run = run_model(fmu_model("feedthrough", R"("start": {"k": 3})",
                                       R"("stop_time": 1, "output_interval": 0.25)", R"("a.y", "a.n_out")",
                                       R"(, {"name": "t", "type": "Ramp", "params": {"slope": 1}},
                                          {"name": "n", "type": "Constant", "params": {"value": 4}},
                                          {"name": "on", "type": "Constant", "params": {"value": 1}})",
                                       R"(["t.out", "a.u"], ["n.out", "a.n"], ["on.out", "a.on"])"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[0] == doctest::Approx(3 * row.t + 4));
    CHECK(row.values[1] == 4);
  }
}

TEST_CASE("a loop through a Model Exchange FMU's direct feedthrough is an algebraic loop") {
  // (Co-simulation: a causality loop, tests/actors/test_fmi_cosim.cpp.)
  const std::string message = test::run_setup_error(
      fmu_model("feedthrough", "", R"("stop_time": 1, "algebraic_loops": "error")", "",
                R"(, {"name": "g", "type": "Gain", "params": {"k": 0.5}},
                   {"name": "n", "type": "Constant", "params": {"value": 4}},
                   {"name": "on", "type": "Constant", "params": {"value": 1}})",
                R"(["a.y", "g.in"], ["g.out", "a.u"], ["n.out", "a.n"], ["on.out", "a.on"])"));
  CHECK(message.find("algebraic loop among direct-feedthrough continuous actors: a -> g -> a") !=
        std::string::npos);
  // ModelStructure's dependencies, pair by pair: y on u, n and on; n_out on n only.
  Model model = test::load(R"({"ctde": 1, "actors": [{"name": "a", "type": "FMU", "params": {"file": ")" +
                           fmu("feedthrough") + R"("}}]})");
  Actor& a = *model.top().find_child("a");
  a.resolve_parameters(model.parameters());
  const std::size_t u = *a.find_input("u");
  const std::size_t n = *a.find_input("n");
  const std::size_t on = *a.find_input("on");
  const std::size_t y = *a.find_output("y");
  const std::size_t n_out = *a.find_output("n_out");
  CHECK(a.feeds_through(u, y));
  CHECK(a.feeds_through(n, y));
  CHECK(a.feeds_through(on, y));
  CHECK(a.feeds_through(n, n_out));
  CHECK_FALSE(a.feeds_through(u, n_out));
  CHECK_FALSE(a.feeds_through(on, n_out));
}

TEST_CASE("a step event asked by fmi2CompletedIntegratorStep is served at that step's end") {
  // On ARKODE with stop time 1 the event's tick is earlier than its step's
  // end, and the restarted solver's first step ends less than half a tick
  // before 1 (the director takes the sliver). The project's stepper
  // stretches the step that would stop just short of 1 to reach it, so
  // there the event may be at the stop time itself.
  for (const std::string integrator : {"arkode", "ctde"}) {
    for (const double stop : {1.0, 2.0}) {
      CAPTURE(integrator);
      CAPTURE(stop);
      const auto run = run_model(
          fmu_model("step_event", "",
                    R"("stop_time": )" + std::to_string(stop) + R"(, "integrator": ")" + integrator + R"(")",
                    R"("a.x", "a.at", "a.resets")"));
      REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
      const auto& last = run.rows.back();
      const double at = last.values[run.column("a.at")];
      CHECK(last.values[run.column("a.resets")] == 1);
      // Rows are written at every step end (no output_interval): the event
      // is at the first of them at or after 0.5 s, to a tick.
      const auto first_end =
          std::find_if(run.rows.begin(), run.rows.end(), [](const auto& row) { return row.t >= 0.5; });
      REQUIRE(first_end != run.rows.end());
      CHECK(std::abs(at - first_end->t) <= 1e-12);
      CHECK(at <= stop);
      // x' = 1, reset to 0 at `at`: x(stop) = stop - at.
      CHECK(last.values[run.column("a.x")] == doctest::Approx(stop - at).epsilon(1e-9));
      // The event is at a step end, which the FMU saw accepted: the time_event line.
      const std::vector<double> resets = reset_times(run, "a");
      REQUIRE(resets.size() == 1);
      CHECK(resets[0] == doctest::Approx(at).epsilon(1e-12));
    }
  }
}

TEST_CASE("fmi2Discard from the derivatives at trial points is recovered: the solver steps shorter") {
  const auto run = run_model(
      fmu_model("discard", "", R"("stop_time": 2, "rtol": 1e-3, "atol": 1e-3)", R"("a.x", "a.resets")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  // x' = -1 from 1, reset to 1 where x = 0.25 (t = 0.75, 1.5): x(2) = 0.5.
  CHECK(run.rows.back().values[0] == doctest::Approx(0.5).epsilon(1e-9));
  CHECK(run.rows.back().values[1] == 2);
  const std::vector<double> resets = reset_times(run, "a");
  REQUIRE(resets.size() == 2);
  CHECK(resets[0] == doctest::Approx(0.75).epsilon(1e-9));
  CHECK(resets[1] == doctest::Approx(1.5).epsilon(1e-9));
}

TEST_CASE(
    "fmi2Discard at the solution ends the run with an error naming the actor, the call and the FMU's "
    "message") {
  const auto run =
      run_model(fmu_model("discard", R"("start": {"reset": false})", R"("stop_time": 2)", R"("a.x")"));
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.message.find("actor 'a' (FMU)") != std::string::npos);
  CHECK(run.result.message.find("fmi2GetDerivatives returned fmi2Discard") != std::string::npos);
  CHECK(run.result.message.find("is outside the domain x >= 0") != std::string::npos);
  CHECK(run.result.time == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("an FMU's parameters are checked at validation with messages naming actor and parameter") {
  const auto message = [](const std::string& name, const std::string& params) {
    return model_file_error(fmu_model(name, params, R"("stop_time": 1)", ""));
  };
  CHECK(message("ball", R"("start": {"nope": 1})").find("parameter 'start': FMU '") != std::string::npos);
  CHECK(message("ball", R"("start": {"nope": 1})").find("has no variable named 'nope'") != std::string::npos);
  CHECK(message("ball", R"js("start": {"der(h)": 1})js").find("'der(h)' cannot be given a start value") !=
        std::string::npos);
  CHECK(message("ball", R"("start": {"e": "high"})").find("must be a number or a boolean") !=
        std::string::npos);
  CHECK(message("ball", R"("interface": "co-simulation", "communication_step": 0.1)")
            .find("parameter 'interface': FMU '" + fmu("ball") + "' has no Co-Simulation interface") !=
        std::string::npos);
  CHECK(message("stair", R"("interface": "co-simulation")")
            .find("parameter 'communication_step': is required for the co-simulation interface") !=
        std::string::npos);
  CHECK(message("stair", R"("interface": "co-simulation", "communication_step": -1)")
            .find("must be positive and finite") != std::string::npos);
  CHECK(message("stair", R"("communication_step": 0.1)")
            .find("parameter 'communication_step': is for the co-simulation interface only") !=
        std::string::npos);
  CHECK(message("stair", R"("interface": "fmi")").find("must be \"model-exchange\" or \"co-simulation\"") !=
        std::string::npos);
}

TEST_CASE("ctde validate refuses each broken FMU with exit 2, naming the file and what is wrong") {
  struct Case {
    std::string name;
    std::string problem;
  };
  const std::vector<Case> cases = {
      {"no_binary", "no binary for this platform (linux64): no_binary.so is not in binaries/linux64/"},
      {"no_function", "the binary does not export the required function fmi2GetDerivatives"},
      {"malformed", "modelDescription.xml: malformed XML"},
      {"version1", "unsupported FMI version '1.0' (ctde imports FMI 2.0 and 3.0)"},
      {"wrong_guid", "fmi2Instantiate failed: wrong GUID {not-the-binary-guid}"},
      {"clash", "variables 'a.b' and 'a_b' both make the port name 'a_b'"},
      {"missing_file", "cannot open it as a zip archive"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const fs::path model = test::scratch_file("ctde_fmi_test", "broken_" + c.name + ".json");
    std::ofstream(model) << fmu_model(c.name, "", R"("stop_time": 1)", "");
    const auto result = test::run_cli("validate " + model.string());
    CHECK(result.status == 2);
    CHECK(result.output.find("FMU '" + fmu(c.name) + "'") != std::string::npos);
    CHECK_MESSAGE(result.output.find(c.problem) != std::string::npos, result.output);
  }
}

TEST_CASE("an FMU file is found relative to the model file, and ctde run ends with exit 3 on an FMU error") {
  const fs::path folder = test::scratch_file("ctde_fmi_test/relative", "x").parent_path();
  fs::copy_file(fmu("discard"), folder / "d.fmu", fs::copy_options::overwrite_existing);
  const fs::path model = folder / "model.json";
  std::ofstream(model) << R"({"ctde": 1, "name": "m", "director": {"stop_time": 2}, "actors": [
      {"name": "d", "type": "FMU", "params": {"file": "d.fmu", "start": {"reset": false}}}], "record": ["d.x"]})";
  const auto validated = test::run_cli("validate " + model.string() + " --stop-time 0.5");
  CHECK(validated.status == 0);
  CHECK(validated.output.find("- -> x[1]C resets[1]C") != std::string::npos);
  CHECK(validated.output.find(
            "FMU d: model-exchange, FMI 2.0, model 'discard', 1 states, 1 event indicators") !=
        std::string::npos);
  const auto ran = test::run_cli("run " + model.string() + " -o " + (folder / "out.csv").string());
  CHECK(ran.status == 3);
  CHECK(ran.output.find("fmi2GetDerivatives returned fmi2Discard") != std::string::npos);
}

TEST_CASE("the FMU example runs and its native counter sees the impacts at the closed-form times") {
  const std::string model = std::string(CTDE_BINARY_DIR) + "/examples/fmi/bouncing_ball_fmu.json";
  const fs::path out = test::scratch_file("ctde_fmi_test", "example.csv");
  const auto ran = test::run_cli("run " + model + " -o " + out.string());
  REQUIRE_MESSAGE(ran.status == 0, ran.output);
  // The counter counts at each impact (its column is empty elsewhere): t1 = sqrt(2 h0 / g), then 2 e^k v1 / g
  // later.
  std::istringstream rows(test::read_text(out));
  std::string line;
  std::getline(rows, line);
  double expected = std::sqrt(2 / 9.81);
  double v = 9.81 * expected;
  int count = 0;
  while (std::getline(rows, line)) {
    const std::vector<std::string> cells = test::split_csv_line(line);
    if (cells.size() < 5 || cells[4].empty()) continue;
    ++count;
    CAPTURE(count);
    CHECK(std::stod(cells[4]) == count);
    CHECK(std::fabs(std::stod(cells[0]) - expected) < 1e-8);
    v *= 0.7;
    expected += 2 * v / 9.81;
  }
  CHECK(count == 8);
}

TEST_CASE(
    "an FMI 3.0 model description gives its variables by value reference, states and event indicators") {
  const std::string xml = R"xml(<fmiModelDescription fmiVersion="3.0" modelName="m" instantiationToken="{t}">
  <ModelExchange modelIdentifier="m" needsCompletedIntegratorStep="true"/>
  <ModelVariables>
    <Float64 name="x" valueReference="10" start="1" nominal="5"/>
    <Float64 name="der(x)" valueReference="11" derivative="10"/>
    <Float64 name="u" valueReference="20" causality="input" start="0"/>
    <Int32 name="n" valueReference="30" causality="output" variability="discrete"/>
    <Float32 name="f" valueReference="40" causality="output"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="30" dependencies="20"/>
    <Output valueReference="40"/>
    <ContinuousStateDerivative valueReference="11"/>
    <EventIndicator valueReference="10"/>
    <EventIndicator valueReference="20"/>
  </ModelStructure>
</fmiModelDescription>)xml";
  const ModelDescription d = parse_model_description(xml, "FMU 'm.fmu'");
  CHECK(d.fmi_version == "3.0");
  CHECK(d.guid == "{t}");
  REQUIRE(d.model_exchange);
  CHECK_FALSE(d.model_exchange->completed_step_not_needed);
  CHECK(d.states == std::vector<std::size_t>{0});
  CHECK(d.derivatives == std::vector<std::size_t>{1});
  CHECK(d.variables[1].derivative_of == 1);
  CHECK(d.variables[0].nominal == 5.0);
  CHECK(d.event_indicators == 2);
  CHECK(d.variables[3].type == VariableType::kInteger);
  CHECK(d.variables[4].type == VariableType::kOther);
  REQUIRE(d.outputs.size() == 2);
  CHECK(*d.outputs[0].dependencies == std::vector<std::size_t>{2});
  CHECK_THROWS_WITH_AS(
      (void)parse_model_description(
          R"xml(<fmiModelDescription fmiVersion="3.0" modelName="m" instantiationToken="t">
      <ModelExchange modelIdentifier="m"/><ModelVariables/>
      <ModelStructure><EventIndicator valueReference="7"/></ModelStructure></fmiModelDescription>)xml",
          "FMU 'm.fmu'"),
      "FMU 'm.fmu': modelDescription.xml: <EventIndicator> refers to value reference '7', which no "
      "variable has",
      ModelError);
}

TEST_CASE("the FMI 3.0 ball bounces at the closed-form times, as its FMI 2.0 twin") {
  const auto run =
      run_model(fmu_model("ball3", R"("start": {"e": 0.7, "h": 1.5})",
                          R"("stop_time": 2.9, "rtol": 1e-10, "atol": 1e-12)", R"("a.h", "a.v")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<double> expected = impact_times(1.5, 9.81, 0.7, 2.9);
  const std::vector<double> impacts = reset_times(run, "a");
  REQUIRE(impacts.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) CHECK(std::fabs(impacts[k] - expected[k]) < 1e-8);
  const auto twin =
      run_model(fmu_model("ball", R"("start": {"e": 0.7, "h": 1.5})",
                          R"("stop_time": 2.9, "rtol": 1e-10, "atol": 1e-12)", R"("a.h", "a.v")"));
  CHECK(twin.csv == run.csv);
}

TEST_CASE("the FMI 3.0 stair's time events fall on their ticks and terminate stops the run") {
  const auto run = run_model(
      fmu_model("stair3", R"("start": {"last": 4})", R"("stop_time": 1)", R"("a.count", "a.level")"));
  CHECK(run.result.status == RunStatus::kStopped);
  const auto twin = run_model(
      fmu_model("stair", R"("start": {"last": 4})", R"("stop_time": 1)", R"("a.count", "a.level")"));
  CHECK(twin.csv == run.csv);
  CHECK(run.rows.back().t == doctest::Approx(0.4));
  CHECK(run.rows.back().values[0] == 4);
  std::vector<std::int64_t> ticks;
  for (const auto& line : run.lines) {
    if (line["kind"] == "time_event" && line["actor"] == "a")
      ticks.push_back(line["tick"].get<std::int64_t>());
  }
  REQUIRE(ticks.size() == 4);
  for (std::size_t k = 0; k < ticks.size(); ++k)
    CHECK(ticks[k] == static_cast<std::int64_t>(k + 1) * 100000000000);
}

TEST_CASE(
    "an FMU that can be instantiated only once per process refuses a second live instance of its binary") {
  Model model = test::load(R"({"ctde": 1, "director": {"stop_time": 0.5}, "actors": [
      {"name": "a", "type": "FMU", "params": {"file": ")" +
                           fmu("once") + R"("}}]})");
  const FlatModel flat = validate(model);
  const RunOptions options = make_run_options(model.director(), model.parameters());
  Director first(flat, options, "m", nullptr, nullptr);
  CHECK(first.run().status == RunStatus::kOk);
  {
    // `first` still holds its instance: a second run of the same actor (same loaded binary) is refused.
    Director second(flat, options, "m", nullptr, nullptr);
    const RunResult refused = second.run();
    CHECK(refused.status == RunStatus::kError);
    CHECK(refused.message.find("can be instantiated only once per process and already is") !=
          std::string::npos);
  }
  // Two actors of that FMU each load their own copy of the binary: both run.
  const auto two = run_model(R"({"ctde": 1, "name": "m", "director": {"stop_time": 0.5}, "actors": [
      {"name": "a", "type": "FMU", "params": {"file": ")" +
                             fmu("once") + R"("}}, {"name": "b", "type": "FMU", "params": {"file": ")" +
                             fmu("once") + R"("}}], "record": ["a.x", "b.x"]})");
  REQUIRE(two.result.status == RunStatus::kOk);
  // Each copy integrates its own x' = -x from 1: both exp(-0.5) at the stop time, step for step the same.
  const auto& last = two.rows.back().values;
  CHECK(last[0] == last[1]);
  CHECK(std::abs(last[0] - std::exp(-0.5)) <= 1e-6);
}

TEST_CASE("an FMU's local Jacobian follows ModelStructure's dependencies of derivatives and outputs") {
  // two_paths: der(x) on x, y1 on u1 only, y2 on x only.
  Model model = test::load(R"({"ctde": 1, "actors": [{"name": "a", "type": "FMU", "params": {"file": ")" +
                           fmu("two_paths") + R"("}}]})");
  Actor& a = *model.top().find_child("a");
  a.resolve_parameters(model.parameters());
  LocalJacobian jacobian({1}, {1, 1}, 1);
  a.local_jacobian(jacobian);
  using Kind = LocalJacobian::Kind;
  std::vector<std::string> entries;
  for (const auto& e : jacobian.entries()) {
    const auto name = [&](const LocalJacobian::Element& el) {
      switch (el.kind) {
        case Kind::kOutput:
          return a.outputs()[el.port].name;
        case Kind::kInput:
          return a.inputs()[el.port].name;
        case Kind::kDerivative:
          return "x'" + std::to_string(el.index);
        case Kind::kState:
          return "x" + std::to_string(el.index);
      }
      return std::string("?");
    };
    CHECK(std::isnan(e.value));  // structure only
    entries.push_back(name(e.row) + "/" + name(e.column));
  }
  std::sort(entries.begin(), entries.end());
  CHECK(entries == std::vector<std::string>{"x'0/x0", "y1/u1", "y2/x0"});

  // The ball (the Reference FMUs' way): derivatives without dependencies
  // (on every state), outputs h and v with an empty list, being states: each is its state, exactly.
  Model ball = test::load(R"({"ctde": 1, "actors": [{"name": "b", "type": "FMU", "params": {"file": ")" +
                          fmu("ball") + R"("}}]})");
  Actor& b = *ball.top().find_child("b");
  b.resolve_parameters(ball.parameters());
  LocalJacobian full({}, {1, 1}, 2);
  b.local_jacobian(full);
  CHECK(full.entries().size() == 4 + 2);
  std::size_t exact = 0;
  for (const auto& e : full.entries()) {
    if (e.row.kind != LocalJacobian::Kind::kOutput) continue;
    CHECK(e.column.kind == LocalJacobian::Kind::kState);
    CHECK(e.column.index == (e.row.port == *b.find_output("h") ? 0U : 1U));
    CHECK(e.value == 1.0);
    ++exact;
  }
  CHECK(exact == 2);
}
