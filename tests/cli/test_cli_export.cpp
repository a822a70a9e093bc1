// `ctde export` as a user meets it: what it prints, what it refuses (exit 2,
// nothing written), a model without an interface, the model's interface in
// `ctde validate` and its mistakes in the model file, and a run with an
// exported FMU snapshotted and resumed (the FMU's state serialized).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/format.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde::test;
namespace fs = std::filesystem;

namespace {

const std::string kPlant = std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json";

fs::path write(const std::string& name, const std::string& text) {
  const fs::path path = scratch_file("cli_export", name);
  std::ofstream(path) << text;
  return path;
}

/// A model around `body` (actors and the rest), with a stop time.
std::string model(const std::string& body) {
  return R"j({"ctde": 1, "name": "m", "director": {"stop_time": 1}, )j" + body + "}";
}

void check_refused(const std::string& arguments, const fs::path& output, const std::string& message) {
  const CommandResult result = run_cli("export " + arguments + " -o " + output.string());
  CHECK(result.status == 2);
  CHECK_MESSAGE(contains(result.output, message), result.output);
  CHECK(!fs::exists(output));
  CHECK(!fs::exists(output.string() + ".partial"));
}

}  // namespace

TEST_CASE("ctde export says what the FMU holds") {
  const fs::path out = scratch_file("cli_export", "plant.fmu");
  const CommandResult result = run_cli("export " + kPlant + " -o " + out.string());
  REQUIRE_MESSAGE(result.status == 0, result.output);
  CHECK(contains(result.output, "ctde: exported 'plant' as " + out.string() +
                                    ": FMI 3.0 Co-Simulation, 1 input, 2 output, 2 parameter and 0 local "
                                    "variables; binaries/x86_64-linux/plant.so\n"));
  CHECK(fs::file_size(out) > 0);
}

TEST_CASE("ctde export refuses, with exit 2 and nothing written, what it cannot make an FMU of") {
  const fs::path out = scratch_file("cli_export", "refused.fmu");
  check_refused(kPlant, scratch_file("cli_export", "no/such/folder/x.fmu"), "folder");
  check_refused(kPlant, scratch_file("cli_export", "plant.zip"), "an FMU's file name ends in .fmu");
  check_refused(kPlant + " --interface ME", out, "--interface is cs, me or both, not 'ME'");
  const fs::path invalid = write("invalid.json", model(R"j("actors": [{"name": "g", "type": "Gain"}])j"));
  check_refused(invalid.string(), out, "g.in");
  const fs::path badname =
      write("badname.json",
            model(R"j("outputs": {"my out": "x.out"}, "actors": [{"name": "x", "type": "Integrator"},
                {"name": "c", "type": "Constant", "params": {"value": 1}}], "connections": [["c.out", "x.in"]])j"));
  check_refused(badname.string(), out, "'my out' is not a name ctde gives an FMU's variable");
  const fs::path plugin =
      write("plugin.json", model(R"j("actors": [{"name": "c", "type": "Constant", "params":
      {"value": 1}}, {"name": "d", "type": "Doubler"}], "connections": [["c.out", "d.in"]])j"));
  check_refused("--load " + std::string(CTDE_TEST_DOUBLER_PLUGIN) + " " + plugin.string(), out,
                "which is not built into ctde");
}

TEST_CASE("the files a model reads are carried in the FMU: it runs where the originals are gone") {
  const fs::path folder = scratch_file("cli_export", "carried");
  fs::create_directories(folder / "data");
  std::ofstream(folder / "data" / "table.csv") << "0,1\n1,3\n";
  std::ofstream(folder / "table_model.json")
      << R"j({"ctde": 1, "name": "table_model", "director": {"stop_time": 1},
      "outputs": {"y": "tt.out"}, "actors": [{"name": "tt", "type": "TimeTable", "params": {"file": "data/table.csv"}}]})j";
  const fs::path fmu = scratch_file("cli_export", "table.fmu");
  const CommandResult exported =
      run_cli("export " + (folder / "table_model.json").string() + " -o " + fmu.string());
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  fs::remove_all(folder);  // the FMU's own copy is what it reads
  const fs::path host =
      write("table_host.json", R"j({"ctde": 1, "director": {"stop_time": 1}, "actors": [
      {"name": "m", "type": "FMU", "params": {"file": ")j" +
                                   fmu.string() +
                                   R"j(", "interface": "co-simulation", "communication_step": 0.25}}],
      "record": ["m.y"]})j");
  const fs::path results = scratch_file("cli_export", "table.csv");
  const CommandResult run = run_cli("run " + host.string() + " --quiet -o " + results.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  // y = 1 + 2 t, linear between the table's points: at t = 0.5, microstep 1 (the FMU's token), 2.
  CHECK(contains(read_text(results), "\n0.5,1,2\n"));
}

TEST_CASE("a model without inputs or outputs exports its parameters and recorded signals") {
  const fs::path path = write("bare.json", R"j({"ctde": 1, "name": "bare", "parameters": {"rate": 2},
      "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": "rate"}},
      {"name": "x", "type": "Integrator"}], "connections": [["c.out", "x.in"]], "record": ["x.out"]})j");
  const fs::path out = scratch_file("cli_export", "bare.fmu");
  const CommandResult result = run_cli("export " + path.string() + " -o " + out.string() + " --fmi 2");
  REQUIRE_MESSAGE(result.status == 0, result.output);
  CHECK(
      contains(result.output, "FMI 2.0 Co-Simulation, 0 input, 0 output, 1 parameter and 1 local variables"));
  // What ctde fmu info reads from it: the parameter and the recorded signal, a local variable.
  const CommandResult info = run_cli("fmu info " + out.string());
  REQUIRE_MESSAGE(info.status == 0, info.output);
  CHECK(contains(info.output, "rate"));
  CHECK(contains(info.output, "x.out"));
}

TEST_CASE("ctde validate prints the model's interface; the model file's mistakes in it are located") {
  const CommandResult text = run_cli("validate " + kPlant);
  REQUIRE_MESSAGE(text.status == 0, text.output);
  CHECK(contains(text.output,
                 "interface: inputs u; outputs y <- x.out, dy <- sum.out; tunable gain\n"
                 "units: a [1/s], dy [m/s], u [m/s], y [m]\n"));
  const CommandResult json = run_cli("validate --json " + kPlant);
  const auto doc = nlohmann::json::parse(json.output)["interface"];
  CHECK(doc["inputs"][0]["name"] == "u");
  CHECK(doc["inputs"][0]["port"] == "u.out");
  CHECK(doc["outputs"][1]["port"] == "sum.out");
  CHECK(doc["tunable"] == nlohmann::json::array({"gain"}));
  CHECK(doc["units"] == nlohmann::json({{"u", "m/s"}, {"y", "m"}, {"dy", "m/s"}, {"a", "1/s"}}));

  const std::string actors = R"j("actors": [{"name": "x", "type": "Integrator"},
      {"name": "c", "type": "Constant", "params": {"value": 1}}], "connections": [["c.out", "x.in"]])j";
  const auto error_of = [](const fs::path& path) {
    const CommandResult r = run_cli("validate " + path.string());
    CHECK(r.status == 2);
    return r.output;
  };
  CHECK(contains(error_of(write("e1.json", model(R"j("outputs": {"y": "x.nothing"}, )j" + actors))),
                 "at /outputs/y"));
  CHECK(
      contains(error_of(write("e2.json", model(R"j("inputs": {"u": "nobody.in"}, )j" + actors))), "nobody"));
  CHECK(contains(
      error_of(
          write("e3.json", model(R"j("inputs": {"u": "x.reset"}, "outputs": {"u": "x.out"}, )j" + actors))),
      "'u' names two of the model's inputs and outputs"));
  CHECK(contains(error_of(write("e4.json", model(R"j("tunable": ["k"], )j" + actors))),
                 "'k' is not one of the model's parameters"));
  CHECK(contains(
      error_of(write("e6.json", model(R"j("units": {"x": "m"}, )j" + actors))),
      "at /units/x: 'x' is neither one of the model's parameters nor one of its inputs and outputs"));
  CHECK(contains(
      error_of(write("e7.json", model(R"j("outputs": {"y": "x.out"}, "units": {"y": ""}, )j" + actors))),
      "at /units/y: a unit is a non-empty string (\"m/s\"), got \"\""));
  CHECK(contains(error_of(write("e5.json", model(R"j("inputs": {"c": "x.reset"}, )j" + actors))),
                 "at /inputs/c: input 'c': an input becomes an actor of its name, and the model has an actor "
                 "'c' already"));
}

TEST_CASE("a run with an exported FMU, snapshotted and resumed in a new process, goes on exactly") {
  const fs::path fmu = scratch_file("cli_export", "resumable.fmu");
  REQUIRE(run_cli("export " + kPlant + " -o " + fmu.string()).status == 0);
  const fs::path host =
      write("host.json", R"j({"ctde": 1, "director": {"stop_time": 3}, "actors": [
      {"name": "u", "type": "Sine", "params": {"frequency": 0.5}},
      {"name": "m", "type": "FMU", "params": {"file": ")j" +
                             fmu.string() +
                             R"j(", "interface": "co-simulation", "communication_step": 0.1}}],
      "connections": [["u.out", "m.u"]], "record": ["m.y", "m.dy"]})j");
  const fs::path whole = scratch_file("cli_export", "whole.csv");
  const fs::path snap = scratch_file("cli_export", "host.snap");
  const fs::path rest = scratch_file("cli_export", "rest.csv");
  const CommandResult first = run_cli("run " + host.string() + " --quiet --snapshot-at 1.5 --snapshot " +
                                      snap.string() + " -o " + whole.string());
  REQUIRE_MESSAGE(first.status == 0, first.output);
  const CommandResult second =
      run_cli("run " + host.string() + " --quiet --resume " + snap.string() + " -o " + rest.string());
  REQUIRE_MESSAGE(second.status == 0, second.output);
  const std::string all = read_text(whole);
  const std::string after = read_text(rest);
  // The resumed rows are the whole run's from t = 1.5 on (after its events there), byte for byte.
  const std::string tail = all.substr(all.find("\n1.6,"));
  CHECK(after.substr(after.find("\n1.6,")) == tail);
}
