// `--load LIB`: user actor types from a plugin, in run, sweep, validate, graph,
// types and describe; the errors of a plugin that is missing, not a
// plugin, or registers a type that exists.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using Result = ctde::test::CommandResult;

Result run(const std::string& arguments) { return ctde::test::run_cli(arguments); }

const std::string kDoubler = CTDE_TEST_DOUBLER_PLUGIN;

std::filesystem::path scratch(const std::string& name) {
  const auto dir = ctde::test::scratch_root() / "ctde_cli_plugin_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

/// x' = Doubler(c), c = 1.5: x(t) = 3 t.
std::filesystem::path model() {
  const auto path = scratch("doubled.json");
  std::ofstream(path) << R"json({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 1.5}},
               {"name": "twice", "type": "Doubler"}, {"name": "x", "type": "Integrator"}],
    "connections": [["c.out", "twice.in"], ["twice.out", "x.in"]], "record": ["x.out"]})json";
  return path;
}

}  // namespace

TEST_CASE(
    "ctde run --load runs a model with a plugin's actor type; validate, graph, types and describe see it "
    "too") {
  const auto csv = scratch("doubled.csv");
  const Result r = run("run --load " + kDoubler + " " + model().string() + " --quiet -o " + csv.string());
  REQUIRE(r.status == 0);
  std::ifstream in(csv);
  std::string line;
  std::string last;
  while (std::getline(in, line)) last = line;
  CHECK(last.rfind("2,0,", 0) == 0);
  CHECK(std::stod(last.substr(4)) == doctest::Approx(6.0).epsilon(1e-12));  // x(2) = 3 * 2
  // Without the plugin the type is unknown: a model error, exit 2.
  const Result without = run("run " + model().string() + " --quiet");
  CHECK(without.status == 2);
  CHECK(without.output.find("unknown actor type 'Doubler'") != std::string::npos);
  const Result validated = run("validate --load " + kDoubler + " " + model().string());
  CHECK(validated.status == 0);
  CHECK(validated.output.find("\nDoubler twice: doubles its input\n") != std::string::npos);
  const Result graph = run("graph --load " + kDoubler + " " + model().string());
  CHECK(graph.status == 0);
  CHECK(graph.output.find("label=\"twice\\nDoubler\", tooltip=\"twice (Doubler)\\nfactor = 2 (fixed)\"") !=
        std::string::npos);
  const Result types = run("types --load " + kDoubler);
  CHECK(types.output.find("Doubler") != std::string::npos);
  CHECK(types.output.find("y = 2 u.") != std::string::npos);
  CHECK(run("describe --load " + kDoubler + " Doubler").output.find("\"polymorphic\"") != std::string::npos);
}

TEST_CASE(
    "--load of a missing library, of one that is not a plugin, or of one that registers a known type "
    "exits 2") {
  const Result missing = run("run --load " + scratch("nothing.so").string() + " " + model().string());
  CHECK(missing.status == 2);
  CHECK(missing.output.find("cannot load the library") != std::string::npos);
  // libctde itself is a shared library but no plugin.
  const std::string library = std::string(CTDE_BINARY_DIR) + "/libctde.so";
  const Result not_plugin = run("run --load " + library + " " + model().string());
  CHECK(not_plugin.status == 2);
  CHECK(not_plugin.output.find("not a ctde plugin (it exports no ctde_register_actors function)") !=
        std::string::npos);
  const Result clash = run("types --load " + std::string(CTDE_TEST_CLASHING_PLUGIN));
  CHECK(clash.status == 2);
  CHECK(clash.output.find("actor type 'Gain' is registered twice") != std::string::npos);
}

TEST_CASE("ctde sweep --load runs a plugin's actor type in every run, on local workers") {
  const auto path = scratch("doubled_sweep.json");
  std::ofstream(path) << R"json({"ctde": 1, "parameters": {"v": 1}, "director": {"stop_time": 2},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": "v"}},
               {"name": "twice", "type": "Doubler"}, {"name": "x", "type": "Integrator"}],
    "connections": [["c.out", "twice.in"], ["twice.out", "x.in"]], "record": ["x.out"]})json";
  const auto spec = scratch("doubled_sweep_spec.json");
  std::ofstream(spec) << R"json({"ctde_sweep": 1, "grid": {"v": [1, 2.5]}})json";
  const auto out = scratch("doubled_sweep.h5");
  const std::string arguments = path.string() + " " + spec.string() + " -o " + out.string() + " --jobs 2";
  const Result r = run("sweep --load " + kDoubler + " " + arguments);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("ctde: sweep: 2 of 2 runs, 0 failed") != std::string::npos);
  // x(2) = 2 v * 2 in each run.
  const Result values = ctde::test::run_shell(
      "/usr/bin/python3 -c \"import h5py; f = h5py.File('" + out.string() +
      "'); r = [f['runs'][k] for k in sorted(f['runs'])]; "
      "print([(g.attrs['v'], abs(g['x.out'][-1] - 4 * g.attrs['v']) < 1e-12 * g.attrs['v']) for g in r])\"");
  CHECK(values.output == "[(1.0, True), (2.5, True)]\n");
  // Without the plugin the sweep is refused before any run.
  const Result without = run("sweep " + arguments);
  CHECK(without.status == 2);
  CHECK(without.output.find("unknown actor type 'Doubler'") != std::string::npos);
}
