// `ctde sweep --rows` and `--record`: every run keeps what `ctde run` keeps
// with the same options, whatever runs it (--jobs 1, 2, mpirun), checked
// against the same sweep without them; a signal the model does not have is
// refused before any run.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"
#include "support/sweep_helpers.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using ctde::test::CommandResult;
using ctde::test::run_cli;
using ctde::test::run_shell;
using namespace ctde::test;  // the sweep helpers (support/sweep_helpers.hpp)

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_sweep_rows_test", name);
}

std::string ball() { return ctde::test::example_models() + "bouncing_ball.json"; }

std::string write(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path) << text;
  return path.string();
}

// The ball over e and h0: every run has impacts (events) and many rows.
const std::string kBall = R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.7, 0.8]},
  "random": {"h0": {"uniform": [5, 10]}}, "samples": 2, "seed": 3, "stop_time": 4})";

}  // namespace

TEST_CASE("ctde sweep --rows final keeps one row per run: the last row of the same sweep without it") {
  const std::string spec = write("ball.json", kBall);
  const std::string whole = scratch("whole.h5").string();
  REQUIRE(sweep(ball(), spec, whole, "--jobs 1 --quiet").status == 0);
  for (const std::string jobs : {"1", "2"}) {
    const std::string final_rows = scratch("final" + jobs + ".h5").string();
    const CommandResult r = sweep(ball(), spec, final_rows, "--rows final --quiet --jobs " + jobs);
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const CommandResult check = python_check("final_rows", whole + " " + final_rows);
    CHECK_MESSAGE(check.status == 0, check.output);
    CHECK(check.output == "6\n");
  }
}

TEST_CASE("ctde sweep --record keeps only the named signals, in their order, with the same rows and values") {
  const std::string spec = write("record.json", kBall);
  const std::string whole = scratch("record_whole.h5").string();
  const std::string kept = scratch("record_kept.h5").string();
  REQUIRE(sweep(ball(), spec, whole, "--jobs 1 --quiet").status == 0);
  const CommandResult r = sweep(ball(), spec, kept, "--record v.out,h.out --jobs 2 --quiet");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const CommandResult check = python_check("recorded", whole + " " + kept + " v.out,h.out");
  CHECK_MESSAGE(check.status == 0, check.output);
  CHECK(check.output == "6\n");
}

TEST_CASE("--rows and --record give the same file under mpirun -np 2 as with --jobs 1" *
          doctest::skip(!kHaveMpi)) {
  const std::string spec = write("mpi.json", kBall);
  const std::string one = scratch("mpi_one.h5").string();
  const std::string two = scratch("mpi_two.h5").string();
  const std::string options = " --rows events --record ground.out,h.out --quiet";
  REQUIRE(sweep(ball(), spec, one, "--jobs 1" + options).status == 0);
  const CommandResult m = mpirun(2, "sweep " + ball() + " " + spec + " -o " + two + options);
  REQUIRE_MESSAGE(m.status == 0, m.output);
  check_same_file(one, two);
}

TEST_CASE("a --record signal the model does not have, or --rows it cannot give, exits 2 before any run") {
  const std::string spec = write("refused.json", kBall);
  const std::string out = scratch("refused.h5").string();
  CommandResult r = sweep(ball(), spec, out, "--record h.out,nope.out");
  CHECK(r.status == 2);
  CHECK_MESSAGE(r.output.find("ctde: error: --record h.out,nope.out: ") == 0, r.output);
  CHECK(r.output.find("there is no actor 'nope' (in 'nope.out')") != std::string::npos);
  CHECK(r.output.find("ctde: sweep:") == std::string::npos);  // no summary: nothing ran
  r = sweep(ball(), spec, out, "--rows sometimes");
  CHECK(r.status == 2);
  CHECK(r.output == "ctde: error: --rows sometimes: expects all, output, events or final\n");
  // A model without an output_interval has no output grid.
  const std::string clock = write("clock.json", R"({"ctde": 1, "name": "c", "director": {"stop_time": 1},
    "actors": [{"name": "k", "type": "DiscreteClock", "params": {"period": 0.25}}], "parameters": {"p": 1},
    "record": ["k.out"]})");
  const std::string grid = write("clock_sweep.json", R"({"ctde_sweep": 1, "grid": {"p": [1, 2]}})");
  r = sweep(clock, grid, out, "--rows output");
  CHECK(r.status == 2);
  CHECK(r.output.find("--rows output: the model sets no output_interval") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
}
