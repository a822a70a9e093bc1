// `ctde validate` end to end: the command, its output and its exit status.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

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
