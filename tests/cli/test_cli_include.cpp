// Model files that include others, through the command: --model-path and
// CTDE_MODEL_PATH on every command that reads a model file, and an exported
// FMU that carries its included networks inlined.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_helpers.hpp"

using namespace ctde::test;
namespace fs = std::filesystem;

namespace {

/// x' = rate, x(0) = 0: x(t) = rate t, exactly (a constant derivative).
const char* const kRamp = R"({"ctde": 1, "name": "ramp", "parameters": {"rate": 1},
  "actors": [{"name": "c", "type": "Constant", "params": {"value": "rate"}}, {"name": "x", "type": "Integrator"}],
  "connections": [["c.out", "x.in"]], "outputs": {"y": "x.out"}})";

/// The study: two ramps from the library, rates 2 b = 3 and 1 (the file's own), summed.
const char* const kStudy = R"({"ctde": 1, "name": "study", "parameters": {"b": 1.5},
  "director": {"stop_time": 1},
  "actors": [
    {"name": "fast", "type": "Composite", "file": "ramp.json", "params": {"rate": "2 * b"}},
    {"name": "slow", "type": "Composite", "file": "ramp.json"},
    {"name": "total", "type": "Sum"}],
  "connections": [["fast.y", "total.in0"], ["slow.y", "total.in1"]],
  "outputs": {"total": "total.out"},
  "record": ["fast.x.out", "slow.x.out", "total.out"]})";

struct Files {
  fs::path lib;
  fs::path study;
};

Files write_files() {
  const fs::path root = scratch_file("cli_include", "");
  fs::create_directories(root / "lib");
  fs::create_directories(root / "studies");
  std::ofstream(root / "lib" / "ramp.json") << kRamp;
  std::ofstream(root / "studies" / "study.json") << kStudy;
  return {root / "lib", root / "studies" / "study.json"};
}

/// The last line of `text`.
std::string last_line(const std::string& text) {
  const std::string body = text.substr(0, text.find_last_not_of('\n') + 1);
  return body.substr(body.find_last_of('\n') + 1);
}

/// Checks that the last row of results file `path` is `expected` (time, microstep, values), to roundoff.
void check_last_row(const fs::path& path, const std::vector<double>& expected) {
  const std::vector<std::string> cells = split_csv_line(last_line(read_text(path)));
  REQUIRE(cells.size() == expected.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    CAPTURE(i);
    CHECK(std::stod(cells[i]) == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("ctde run finds an included file in --model-path or CTDE_MODEL_PATH, and says where it looked") {
  const Files f = write_files();
  const fs::path out = scratch_file("cli_include", "study.csv");
  const CommandResult missing = run_cli("run " + f.study.string() + " --quiet -o " + out.string());
  CHECK(missing.status == 2);
  CHECK(missing.output == "ctde: error: " + f.study.string() +
                              " at /actors/0/file: cannot find the included model file 'ramp.json' in " +
                              f.study.parent_path().string() +
                              " (no --model-path or CTDE_MODEL_PATH is set)\n");
  CHECK(!fs::exists(out));

  const CommandResult run =
      run_cli("run " + f.study.string() + " --quiet --model-path /nonexistent --model-path " +
              f.lib.string() + " -o " + out.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  // x_fast(1) = 3, x_slow(1) = 1, their sum 4.
  CHECK(read_text(out).rfind("time,microstep,fast.x.out,slow.x.out,total.out\n", 0) == 0);
  check_last_row(out, {1, 0, 3, 1, 4});

  fs::remove(out);
  const CommandResult env =
      run_cli_env("CTDE_MODEL_PATH=/nonexistent:" + f.lib.string(),
                  "run " + f.study.string() + " --quiet --set fast__rate=5 -o " + out.string());
  REQUIRE_MESSAGE(env.status == 0, env.output);
  check_last_row(out, {1, 0, 5, 1, 6});
}

TEST_CASE("--model-path and --load may each be given more than once") {
  const Files f = write_files();
  // Each --load is read (CLI11 took at most one before: "--load: At Most 1 required but received 2").
  const CommandResult loads = run_cli("validate --load ./none1.so --load ./none2.so " + f.study.string());
  CHECK(loads.status == 2);
  CHECK_MESSAGE(contains(loads.output, "ctde: error: --load ./none1.so: cannot load the library"),
                loads.output);
}

TEST_CASE("validate, graph, linearize and sweep take --model-path as run does") {
  const Files f = write_files();
  const std::string model = f.study.string() + " --model-path " + f.lib.string();
  const CommandResult validate = run_cli("validate " + model);
  REQUIRE_MESSAGE(validate.status == 0, validate.output);
  CHECK(contains(validate.output, "fast.x"));
  const CommandResult graph = run_cli("graph " + model);
  REQUIRE_MESSAGE(graph.status == 0, graph.output);
  CHECK(contains(graph.output, "slow.c"));
  const CommandResult linearize = run_cli("linearize " + model + " --outputs total.out --inputs fast.x.in");
  REQUIRE_MESSAGE(linearize.status == 0, linearize.output);
  const fs::path sweep_file = scratch_file("cli_include", "rates.json");
  std::ofstream(sweep_file) << R"({"ctde_sweep": 1, "grid": {"b": [1, 2]}})";
  const fs::path h5 = scratch_file("cli_include", "rates.h5");
  const CommandResult sweep =
      run_cli("sweep " + model + " " + sweep_file.string() + " -o " + h5.string() + " --jobs 1 --quiet");
  REQUIRE_MESSAGE(sweep.status == 0, sweep.output);
  CHECK(fs::file_size(h5) > 0);
  const std::string fmu = " -o " + scratch_file("cli_include", "x.fmu").string();
  for (const std::string command : {"validate", "graph", "linearize", "export"}) {
    const CommandResult refused =
        run_cli(command + " " + f.study.string() + (command == "export" ? fmu : std::string()));
    CHECK(refused.status == 2);
    CHECK_MESSAGE(contains(refused.output, "cannot find the included model file 'ramp.json'"),
                  refused.output);
  }
}

TEST_CASE("an exported model carries its included networks inlined, and its FMU runs without the files") {
  const Files f = write_files();
  const fs::path fmu = scratch_file("cli_include", "study.fmu");
  const CommandResult exported =
      run_cli("export " + f.study.string() + " --model-path " + f.lib.string() + " -o " + fmu.string());
  REQUIRE_MESSAGE(exported.status == 0, exported.output);
  // The library's parameters are the model's, and the FMU's: fast__rate, slow__rate.
  CHECK(contains(exported.output, "1 output, 3 parameter"));
  fs::remove_all(f.lib);  // the FMU's model.json needs no other file
  const fs::path host = scratch_file("cli_include", "host.json");
  std::ofstream(host) << R"({"ctde": 1, "director": {"stop_time": 1}, "actors": [
      {"name": "m", "type": "FMU", "params": {"file": ")" +
                             fmu.string() + R"(", "interface": "co-simulation", "communication_step": 0.25}}],
      "record": ["m.total"]})";
  const fs::path out = scratch_file("cli_include", "host.csv");
  const CommandResult run = run_cli("run " + host.string() + " --quiet -o " + out.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  check_last_row(out, {1, 1, 4});
}
