// `ctde linearize` and the algebraic loops as the command shows them: the
// listing of `ctde validate`, a loop without a solution ending a run with
// its results kept, and linearization of the bundled loop example.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>

#include "support/cli_helpers.hpp"

using namespace ctde::test;

namespace {

const std::string kExample = std::string(CTDE_SOURCE_DIR) + "/examples/models/actuator_loop.json";

}  // namespace

TEST_CASE("ctde validate lists each algebraic loop, its actors and its tears") {
  const CommandResult text = run_cli("validate " + kExample);
  REQUIRE_MESSAGE(text.status == 0, text.output);
  CHECK(contains(text.output,
                 "algebraic loop: force -> droop -> force (actors droop, force; tear force): solved "
                 "by Newton's method at every evaluation\n"));
  const CommandResult json = run_cli("validate " + kExample + " --json");
  REQUIRE(json.status == 0);
  const auto loops = nlohmann::json::parse(json.output)["algebraic_loops"];
  REQUIRE(loops.size() == 1);
  CHECK(loops[0]["cycle"] == "force -> droop -> force");
  CHECK(loops[0]["actors"] == nlohmann::json::array({"droop", "force"}));
  CHECK(loops[0]["tears"] == nlohmann::json::array({"force"}));
}

TEST_CASE("the bundled loop example runs with F = u / (1 + k_a) and linearizes with the loop solved") {
  const auto results = scratch_file("ctde_cli_linearize", "actuator.csv");
  const CommandResult run =
      run_cli("run " + kExample + " -o " + results.string() + " --set k_a=0.25 --quiet");
  REQUIRE_MESSAGE(run.status == 0, run.output);
  const CommandResult lin = run_cli("linearize " + kExample +
                                    " --set k_a=0.25 --at 20 --inputs error.in0 --outputs force.out,x.out");
  REQUIRE_MESSAGE(lin.status == 0, lin.output);
  CHECK(contains(lin.output, "linearized at t = 20 s: 4 states, 1 inputs, 2 outputs\n"));
  // The loop's gain 1 / (1 + k_a) = 0.8 on the PI's output: force / error = 0.8 kp = 1.6 directly.
  const auto out = scratch_file("ctde_cli_linearize", "lin.json");
  REQUIRE(run_cli("linearize " + kExample +
                  " --set k_a=0.25 --at 20 --inputs error.in0 --outputs force.out -o " + out.string())
              .status == 0);
  std::ifstream file(out);
  const auto doc = nlohmann::json::parse(file);
  CHECK(doc["outputs"] == nlohmann::json::array({"force.out"}));
  CHECK(std::abs(doc["D"][0][0].get<double>() - 1.6) <= 1e-8);
  // v' = F - 0.4 v - 4 x with F = 0.8 (kp (r - x) + ...): dv'/dx = -4 - 1.6.
  CHECK(std::abs(doc["A"][1][0].get<double>() + 5.6) <= 1e-8);
}

TEST_CASE("a loop without a solution ends ctde run with exit 3, the loop named, the rows so far kept") {
  const auto model = scratch_file("ctde_cli_linearize", "no_solution.json");
  // y = y^2 + 3 y - 3 + s: y = -1 + sqrt(4 - s), with s = 2 (t - 1) after 1 s: none after 3 s.
  std::ofstream(model) << R"j({"ctde": 1, "director": {"stop_time": 4, "output_interval": 0.5},
    "actors": [{"name": "s", "type": "Ramp", "params": {"slope": 2, "start_time": 1}},
               {"name": "f", "type": "Expression", "params": {"expr": "in0 * in0 + 3 * in0 - 3 + in1", "inputs": 2}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["f.out", "f.in0"], ["s.out", "f.in1"], ["f.out", "x.in"]], "record": ["f.out"]})j";
  const auto results = scratch_file("ctde_cli_linearize", "no_solution.csv");
  const CommandResult r = run_cli("run " + model.string() + " -o " + results.string());
  CHECK(r.status == 3);
  CHECK_MESSAGE(contains(r.output, "algebraic loop f -> f: no solution found at t = "), r.output);
  CHECK(contains(r.output, " Newton iterations)"));
  // The rows up to the last time with a solution are kept.
  const std::string csv = read_text(results);
  CHECK_MESSAGE(contains(csv, "\n2.5,0,"), csv);
  CHECK(!contains(csv, "\n3.5,0,"));
}

TEST_CASE("ctde linearize refuses what it cannot do, with the exit status of each") {
  CHECK(run_cli("linearize " + kExample + " --inputs nope.in").status == 2);
  CHECK(contains(run_cli("linearize " + kExample + " --inputs nope.in").output,
                 "linearize: no actor for input 'nope.in' (name it as actor.port, the actor's full path)"));
  CHECK(contains(
      run_cli("linearize " + kExample + " --inputs force.in1").output,
      "linearize: input 'force.in1' is driven from inside the algebraic loop force -> droop -> force"));
  const CommandResult xlsx = run_cli("linearize " + kExample + " -o lin.xlsx");
  CHECK(xlsx.status == 2);
  CHECK(contains(xlsx.output, "-o lin.xlsx: linearize writes .json, .mat or .npz files"));
}

TEST_CASE("ctde linearize --resume starts from a snapshot: the same linearization as the run to its time") {
  const auto snapshot = scratch_file("ctde_cli_linearize", "at10.snap");
  REQUIRE(run_cli("run " + kExample + " -o /dev/null --snapshot-at 10 --snapshot " + snapshot.string() +
                  " --quiet")
              .status == 0);
  const auto resumed = scratch_file("ctde_cli_linearize", "resumed.json");
  const auto ran = scratch_file("ctde_cli_linearize", "ran.json");
  const std::string ports = " --inputs error.in0 --outputs force.out,x.out -o ";
  const CommandResult from_snapshot =
      run_cli("linearize " + kExample + " --resume " + snapshot.string() + ports + resumed.string());
  REQUIRE_MESSAGE(from_snapshot.status == 0, from_snapshot.output);
  CHECK(contains(from_snapshot.output, "linearized at t = 10 s: 4 states, 1 inputs, 2 outputs\n"));
  REQUIRE(run_cli("linearize " + kExample + " --at 10" + ports + ran.string()).status == 0);
  std::ifstream a(resumed);
  std::ifstream b(ran);
  const auto x = nlohmann::json::parse(a);
  const auto y = nlohmann::json::parse(b);
  CHECK(x["time"] == y["time"]);
  for (const char* m : {"A", "B", "C", "D"}) {
    CAPTURE(m);
    for (std::size_t i = 0; i < x[m].size(); ++i) {
      for (std::size_t j = 0; j < x[m][i].size(); ++j)
        CHECK(std::abs(x[m][i][j].get<double>() - y[m][i][j].get<double>()) <= 1e-8);
    }
  }
  const CommandResult bad = run_cli("linearize " + kExample + " --resume " + kExample);
  CHECK(bad.status == 2);
}

TEST_CASE(
    "ctde linearize without --inputs and --outputs takes the model's declared ones, named as declared") {
  // y' = gain (u - a y) with a = 2, gain = 3; dy = u - a y: A = -6, B = 3, C = [1; -2], D = [0; 1].
  const auto out = scratch_file("ctde_cli_linearize", "plant.json");
  const CommandResult lin = run_cli("linearize " + std::string(CTDE_SOURCE_DIR) +
                                    "/tests/fmu_export/models/plant.json --at 1 -o " + out.string());
  REQUIRE_MESSAGE(lin.status == 0, lin.output);
  std::ifstream file(out);
  const auto doc = nlohmann::json::parse(file);
  CHECK(doc["inputs"] == nlohmann::json::array({"u"}));
  CHECK(doc["outputs"] == nlohmann::json::array({"y", "dy"}));
  CHECK(std::abs(doc["A"][0][0].get<double>() + 6) <= 1e-8);
  CHECK(std::abs(doc["B"][0][0].get<double>() - 3) <= 1e-8);
  CHECK(std::abs(doc["C"][0][0].get<double>() - 1) <= 1e-8);
  CHECK(std::abs(doc["C"][1][0].get<double>() + 2) <= 1e-8);
  CHECK(std::abs(doc["D"][0][0].get<double>()) <= 1e-8);
  CHECK(std::abs(doc["D"][1][0].get<double>() - 1) <= 1e-8);
}
