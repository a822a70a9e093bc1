// `ctde validate` end to end: the command, its output and its exit status.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace {

using Result = ctde::test::CommandResult;

Result run(const std::string& arguments) { return ctde::test::run_cli(arguments); }

const std::string kModels = std::string(CTDE_SOURCE_DIR) + "/examples/models/";

}  // namespace

TEST_CASE("ctde validate prints each actor's time mode and widths in schedule order") {
  const Result r = run("validate " + kModels + "bouncing_ball.json");
  CHECK(r.status == 0);
  CHECK(r.output.find("model 'bouncing_ball'") != std::string::npos);
  CHECK(r.output.find("valid, 6 actors") != std::string::npos);
  // gravity comes before v, v before h, h before ground: the topological order.
  const auto gravity = r.output.find("gravity ");
  const auto v = r.output.find("\n1     v ");
  const auto ground = r.output.find("ground ");
  CHECK(gravity < v);
  CHECK(v < ground);
  CHECK(r.output.find("Integrator            continuous  in[1]C reset[1]D impulse[1]D -> out[1]C") !=
        std::string::npos);
  CHECK(r.output.find("rebound      Gain                  discrete    in[1]D -> out[1]D") !=
        std::string::npos);
}

TEST_CASE("ctde validate --json gives the resolved model: evaluated parameters, ports, schedules, states") {
  const Result r = run("validate " + kModels + "spring_mass.json --set k=9 --json");
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(r.output);
  CHECK(doc["model"] == "spring_mass");
  CHECK(doc["valid"] == true);
  CHECK(doc["parameters"]["k"] == 9.0);  // the --set value
  CHECK(doc["parameters"]["c"] == 0.4);
  REQUIRE(doc["actors"].size() == 2);
  const auto& spring = doc["actors"][0]["path"] == "spring" ? doc["actors"][0] : doc["actors"][1];
  CHECK(spring["type"] == "StateSpace");
  CHECK(spring["time_mode"] == "continuous");
  // A = [[0, 1], ["-k/m", "-c/m"]] evaluated with k = 9, m = 1, c = 0.4.
  CHECK(spring["parameters"]["A"] == nlohmann::json::parse("[[0, 1], [-9, -0.4]]"));
  CHECK(spring["outputs"] == nlohmann::json::parse(R"([{"name": "out", "width": 2, "kind": "continuous"}])"));
  // The state vector's order, as the text form's "continuous states" line gives it.
  CHECK(
      doc["states"] ==
      nlohmann::json::parse(
          R"([{"index": 0, "actor": "spring", "element": 0}, {"index": 1, "actor": "spring", "element": 1}])"));
  CHECK(doc["continuous_schedule"].size() == 2);
  const Result text = run("validate " + kModels + "spring_mass.json --set k=9");
  CHECK(text.output.find("continuous states (2): spring[2]") != std::string::npos);
  const Result bad = run("validate " + kModels + "spring_mass.json --set k=x --json");
  CHECK(bad.status == 2);  // errors stay plain messages
}

TEST_CASE("ctde validate exits 2 with the error for a bad model") {
  const std::string path = std::string(CTDE_SOURCE_DIR) + "/tests/cli/data/bad_width.json";
  const Result r = run("validate " + path);
  CHECK(r.status == 2);
  CHECK(r.output.find("ctde: error: " + path +
                      " at /connections/0: width mismatch: output "
                      "'wind.out' has width 2 but input 'x.in' has width 3") != std::string::npos);
}

TEST_CASE("ctde validate accepts --set and rejects a malformed one") {
  CHECK(run("validate " + kModels + "bouncing_ball.json --set e=0.5").status == 0);
  const Result r = run("validate " + kModels + "bouncing_ball.json --set e");
  CHECK(r.status == 2);
  CHECK(r.output.find("--set expects NAME=VALUE, got 'e'") != std::string::npos);
}

TEST_CASE("a wrong command line exits 2") {
  CHECK(run("validate").status == 2);
  CHECK(run("frobnicate x").status == 2);
  CHECK(run("validate /nonexistent.json").status == 2);
}
