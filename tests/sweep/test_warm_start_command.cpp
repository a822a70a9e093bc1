// `ctde sweep` from a warm start, end to end: the file is the same with
// --jobs 1, --jobs 2 and mpirun; every run in it is what `ctde run --resume`
// gives from a snapshot `ctde run --snapshot-at T` took of the model with
// its own values, with the run's values set on resuming (rows after T,
// status, counters: tests/sweep/warm_start_check.py, bit for bit); a warm
// start that cannot be made is refused with status 2 and no file.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_helpers.hpp"
#include "support/sweep_helpers.hpp"

namespace {

using ctde::test::CommandResult;
using ctde::test::run_cli;
using ctde::test::run_shell;
using namespace ctde::test;  // the sweep helpers (support/sweep_helpers.hpp)

const std::string kPython = "/usr/bin/python3";

std::string scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_warm_start_test", name).string();
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

std::string script(const std::string& name) { return std::string(CTDE_SOURCE_DIR) + "/tests/sweep/" + name; }

/// The verdict of tests/sweep/warm_start_check.py on a sweep file.
void check_resumed_alone(const std::string& model, const std::string& stop_time, const std::string& snapshot,
                         const std::string& sweep_file) {
  const CommandResult check =
      run_shell(kPython + " " + script("warm_start_check.py") + " " + CTDE_CLI + " " + model + " " +
                stop_time + " " + snapshot + " " + sweep_file + " 2>&1");
  CHECK_MESSAGE(check.status == 0, check.output);
}

const std::string kBallSweep = R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.75, 0.9]},
  "random": {"h0": {"uniform": [5, 15]}}, "samples": 2, "seed": 4, "stop_time": 6,
  "warm_start": {"until": 2.13}})";

}  // namespace

TEST_CASE(
    "ctde sweep from a warm start: each run after T is ctde run --resume with its values, on any workers") {
  const std::string model = ctde::test::example_models() + "bouncing_ball.json";
  const std::string spec = write("ball.json", kBallSweep);
  const std::string snapshot = scratch("warm.snap");
  const std::string whole = scratch("whole.h5");
  const CommandResult taken = run_cli("run " + model + " --stop-time 6 --snapshot-at 2.13 --snapshot " +
                                      snapshot + " -o " + whole + " --quiet");
  REQUIRE_MESSAGE(taken.status == 0, taken.output);
  const std::string one = scratch("one.h5");
  const CommandResult first = run_cli("sweep " + model + " " + spec + " -o " + one + " --jobs 1 --quiet");
  REQUIRE_MESSAGE(first.status == 0, first.output);
  check_resumed_alone(model, "6", snapshot, one);
  const std::string two = scratch("two.h5");
  const CommandResult second = run_cli("sweep " + model + " " + spec + " -o " + two + " --jobs 2 --quiet");
  REQUIRE_MESSAGE(second.status == 0, second.output);
  check_same_file(one, two);
  if (kHaveMpi) {
    const std::string np2 = scratch("np2.h5");
    const CommandResult m = mpirun(2, "sweep " + model + " " + spec + " -o " + np2 + " --quiet");
    REQUIRE_MESSAGE(m.status == 0, m.output);
    check_same_file(one, np2);
  }
}

TEST_CASE(
    "ctde sweep from a warm start: a queue with random actors and failing runs, against ctde run --resume") {
  const std::string model = ctde::test::example_models() + "mm1_queue.json";
  const std::string spec = write("mm1.json", R"({"ctde_sweep": 1, "grid": {"mean_service": [0.5, 1.5, -1]},
    "stop_time": 200, "warm_start": {"until": 150}})");
  const std::string snapshot = scratch("mm1.snap");
  const std::string whole = scratch("mm1_whole.h5");
  const CommandResult taken = run_cli("run " + model + " --stop-time 200 --snapshot-at 150 --snapshot " +
                                      snapshot + " -o " + whole + " --quiet");
  REQUIRE_MESSAGE(taken.status == 0, taken.output);
  const std::string out = scratch("mm1.h5");
  const CommandResult swept =
      run_cli("sweep " + model + " " + spec + " -o " + out + " --jobs 2 --quiet 2>&1");
  CHECK_MESSAGE(swept.status == 3, swept.output);  // mean_service = -1: that run fails after T, kept
  check_resumed_alone(model, "200", snapshot, out);
}

TEST_CASE("ctde sweep refuses a warm start it cannot make with status 2 and writes nothing") {
  const std::string model = ctde::test::example_models() + "bouncing_ball.json";
  const auto refused = [&](const std::string& name, const std::string& warm_start,
                           std::initializer_list<std::string> parts) {
    CAPTURE(warm_start);
    const std::string spec = write(
        name, R"({"ctde_sweep": 1, "grid": {"e": [0.6]}, "stop_time": 6, "warm_start": )" + warm_start + "}");
    const std::string out = scratch(name + ".h5");
    const CommandResult r = run_cli("sweep " + model + " " + spec + " -o " + out + " --quiet 2>&1");
    CHECK(r.status == 2);
    ctde::test::check_contains(r.output, parts);
    CHECK(!std::filesystem::exists(out));
  };
  refused("after.json", R"({"until": 6})", {"after.json at /warm_start/until", "not inside the run"});
  refused("between.json", R"({"until": 2.0000000000005})", {"not a whole number of ticks"});
  refused("shape.json", R"({"at": 1})", {"shape.json at /warm_start/at", "unknown key 'at'"});
}
