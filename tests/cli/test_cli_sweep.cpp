// `ctde sweep` end to end: the same file whatever runs it (--jobs 1, 2,
// mpirun -np 2 and 3), failed runs kept, the ball's impact times against
// the closed form, random sweeps reproducible, a sweep file's mistakes
// (its JSON syntax, MODEL and SWEEP swapped); and `ctde run` writing the
// same results as CSV, HDF5 and MAT (read back by h5py and scipy).
#include <doctest/doctest.h>

#include "cli/sweep_command.hpp"
#include "support/cli_helpers.hpp"
#include "support/sweep_helpers.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ctde::test::CommandResult;
using ctde::test::run_cli;
using ctde::test::run_shell;
using namespace ctde::test;  // the sweep helpers (support/sweep_helpers.hpp)

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_sweep_test", name);
}

std::string ball() { return ctde::test::example_models() + "bouncing_ball.json"; }

/// Writes `text` to scratch file `name` and returns its path.
std::string write(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path) << text;
  return path.string();
}

const std::string kMixed = R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.7, 0.8]},
  "random": {"h0": {"uniform": [5, 10]}}, "samples": 2, "seed": 3, "stop_time": 4})";

}  // namespace

TEST_CASE("ctde sweep writes the same file with --jobs 1 and --jobs 2") {
  const std::string spec = write("mixed.json", kMixed);
  const std::string one = scratch("jobs1.h5").string();
  const std::string two = scratch("jobs2.h5").string();
  const CommandResult r1 = sweep(ball(), spec, one, "--jobs 1");
  REQUIRE_MESSAGE(r1.status == 0, r1.output);
  CHECK(r1.output.find("ctde: sweep: 6 of 6 runs, 0 failed") != std::string::npos);
  const CommandResult r2 = sweep(ball(), spec, two, "--jobs 2 --quiet");
  REQUIRE_MESSAGE(r2.status == 0, r2.output);
  CHECK(r2.output.empty());
  check_same_file(one, two);
}

// Skipped, and counted as skipped in doctest's summary, in a build with
// CTDE_MPI=OFF: there mpirun would start independent sweeps each writing the
// whole file.
TEST_CASE("ctde sweep writes the same file under mpirun -np 2 and -np 3 as with --jobs 1" *
          doctest::skip(!kHaveMpi)) {
  const std::string spec = write("mixed_mpi.json", kMixed);
  const std::string one = scratch("mpi_jobs1.h5").string();
  const std::string np2 = scratch("np2.h5").string();
  const std::string np3 = scratch("np3.h5").string();
  const CommandResult r1 = sweep(ball(), spec, one, "--jobs 1 --quiet");
  REQUIRE_MESSAGE(r1.status == 0, r1.output);
  for (const auto& [ranks, out] : {std::pair{2, np2}, std::pair{3, np3}}) {
    const CommandResult m = mpirun(ranks, "sweep " + ball() + " " + spec + " -o " + out + " --quiet");
    REQUIRE_MESSAGE(m.status == 0, m.output);
    check_same_file(one, out);
  }
}

TEST_CASE(
    "the sweep file's layout: /runs/<k> with datasets and attributes, /summary, the files as root "
    "attributes") {
  const std::string spec = write("layout.json", kMixed);
  const std::string out = scratch("layout.h5").string();
  REQUIRE(sweep(ball(), spec, out, "--jobs 2 --quiet").status == 0);
  const CommandResult r = python_check("layout", out);
  CHECK_MESSAGE(r.status == 0, r.output);
}

TEST_CASE("the ball's impact times in a sweep of e match the closed form") {
  // Dropped from h0 at rest: first impact at t1 = sqrt(2 h0 / g), then flights of 2 e^i v1 / g.
  const std::string spec = write(
      "impacts.json", R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.7, 0.8], "h0": [5, 10]}, "stop_time": 3})");
  const std::string out = scratch("impacts.h5").string();
  const CommandResult r = sweep(ball(), spec, out, "--quiet");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const CommandResult impacts = python_check("impacts", out);
  REQUIRE_MESSAGE(impacts.status == 0, impacts.output);
  std::istringstream lines(impacts.output);
  std::string line;
  int runs = 0;
  const double g = 9.81;
  while (std::getline(lines, line)) {
    std::istringstream cells(line);
    double e = 0;
    double h0 = 0;
    cells >> e >> h0;
    std::vector<double> times;
    for (double t = 0; cells >> t;) times.push_back(t);
    const double v1 = std::sqrt(2 * g * h0);
    double expected = std::sqrt(2 * h0 / g);
    std::size_t n = 0;
    for (double speed = v1 * e; expected < 3; speed *= e, ++n) {
      REQUIRE_MESSAGE(n < times.size(), "e = " << e << ", h0 = " << h0 << ": impact " << n << " missing");
      CHECK(times[n] == doctest::Approx(expected).epsilon(1e-7));
      expected += 2 * speed / g;
    }
    CHECK(times.size() == n);
    ++runs;
  }
  CHECK(runs == 6);
}

TEST_CASE("a failing run is kept with its status and message; the others go on and the sweep exits 3") {
  // e = 0.5 from h0 = 10: the impacts accumulate at 3 t1 = 4.28 s (Zeno), before the stop time.
  const std::string spec =
      write("zeno.json", R"({"ctde_sweep": 1, "grid": {"e": [0.8, 0.5, 0.7]}, "stop_time": 6})");
  for (const std::string jobs : {"1", "2"}) {
    const std::string out = scratch("zeno" + jobs + ".h5").string();
    const CommandResult r = sweep(ball(), spec, out, "--jobs " + jobs);
    CHECK_MESSAGE(r.status == 3, r.output);
    CHECK(r.output.find("3 of 3 runs, 1 failed") != std::string::npos);
    const CommandResult read = python_check("failed_run", out);
    REQUIRE_MESSAGE(read.status == 0, read.output);
    CHECK(read.output.rfind("ok error ok\n", 0) == 0);
    CHECK(read.output.find("Zeno") != std::string::npos);
    CHECK(read.output.find("True True") != std::string::npos);
  }
}

TEST_CASE("a random sweep is reproducible from its seed and changes with it") {
  const std::string seven = write("seed7.json", R"({"ctde_sweep": 1, "random": {"h0": {"normal": [10, 1]},
      "e": {"uniform": [0.6, 0.9]}}, "samples": 4, "seed": 7, "stop_time": 2})");
  const std::string eight = write("seed8.json", R"({"ctde_sweep": 1, "random": {"h0": {"normal": [10, 1]},
      "e": {"uniform": [0.6, 0.9]}}, "samples": 4, "seed": 8, "stop_time": 2})");
  const std::string a = scratch("seed7a.h5").string();
  const std::string b = scratch("seed7b.h5").string();
  const std::string c = scratch("seed8.h5").string();
  REQUIRE(sweep(ball(), seven, a, "--jobs 1 --quiet").status == 0);
  REQUIRE(sweep(ball(), seven, b, "--jobs 2 --quiet").status == 0);
  REQUIRE(sweep(ball(), eight, c, "--jobs 2 --quiet").status == 0);
  check_same_file(a, b);
  const CommandResult different = compare(a, c);
  CHECK(different.status == 1);
}

TEST_CASE(
    "bad sweep files, unknown parameters and a non-HDF5 output exit 2 before any run, writing nothing") {
  const std::string out = scratch("never.h5").string();
  std::filesystem::remove(out);
  const std::string bad = write("bad.json", R"({"ctde_sweep": 1, "grid": {"e": []}})");
  CommandResult r = sweep(ball(), bad, out, "");
  CHECK(r.status == 2);
  CHECK(r.output.find("bad.json at /grid/e") != std::string::npos);
  const std::string unknown = write("unknown.json", R"({"ctde_sweep": 1, "grid": {"mass": [1, 2]}})");
  r = sweep(ball(), unknown, out, "");
  CHECK(r.status == 2);
  CHECK(r.output.find("has no parameter 'mass'") != std::string::npos);
  CHECK(r.output.find("unknown.json at /grid/mass") != std::string::npos);
  const std::string good = write("good.json", R"({"ctde_sweep": 1, "grid": {"e": [0.7]}})");
  r = sweep(ball(), good, scratch("x.csv").string(), "");
  CHECK(r.status == 2);
  CHECK(r.output.find("HDF5 file (.h5 or .hdf5)") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("a sweep file's JSON syntax error names the file, line and column and what was expected") {
  const std::string bad = write("syntax.json", "{\"ctde_sweep\": 1,\n \"grid\": {\"e\": [0.5, 0.6,]}}\n");
  const std::string out = scratch("syntax.h5").string();
  const CommandResult r = sweep(ball(), bad, out, "");
  CHECK(r.status == 2);
  CHECK(r.output ==
        "ctde: error: " + bad +
            ":2:26: JSON syntax error: syntax error while parsing value - unexpected ']'; expected "
            "'[', '{', or a literal\n");
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("ctde sweep SWEEP MODEL says the two files look swapped") {
  const std::string spec = write("swapped.json", kMixed);
  const std::string out = scratch("swapped.h5").string();
  CommandResult r = sweep(spec, ball(), out, "");
  CHECK(r.status == 2);
  CHECK_MESSAGE(
      r.output.find("ctde: error: " + spec +
                    ": this is a sweep file (it has \"ctde_sweep\"), not a model file: the two files "
                    "look swapped (ctde sweep MODEL.json SWEEP.json; here MODEL is '" +
                    spec + "' and SWEEP '" + ball() + "')") == 0,
      r.output);
  // A model file given as the sweep (the model right, the sweep another model): said so too.
  r = sweep(ball(), ball(), out, "");
  CHECK(r.status == 2);
  CHECK(r.output.find("this is a model file (it has \"ctde\" and no \"ctde_sweep\"), not a sweep file") !=
        std::string::npos);
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("ctde run writes the same results as CSV, HDF5 and MAT (read back by h5py and scipy)") {
  const std::string csv = scratch("ball.csv").string();
  const std::string h5 = scratch("ball.h5").string();
  const std::string mat = scratch("ball.mat").string();
  for (const std::string& out : {csv, h5, mat}) {
    const CommandResult r = run_cli("run " + ball() + " --stop-time 3 --quiet -o " + out);
    REQUIRE_MESSAGE(r.status == 0, r.output);
  }
  const CommandResult r = python_check("same_results", csv + " " + h5 + " " + mat);
  CHECK_MESSAGE(r.status == 0, r.output);
}

TEST_CASE(
    "random actors get seeds from (seed, k): the samples differ and the file does not depend on --jobs") {
  const std::string model = write("poisson.json", R"({"ctde": 1, "name": "arrivals",
    "parameters": {"m": 0.5}, "director": {"stop_time": 10},
    "actors": [{"name": "p", "type": "PoissonClock", "params": {"mean_interval": "m", "seed": 1}}],
    "record": ["p.out"]})");
  const std::string spec =
      write("poisson_sweep.json", R"({"ctde_sweep": 1, "grid": {"m": [0.5, 1]}, "samples": 3, "seed": 5})");
  const std::string a = scratch("poisson1.h5").string();
  const std::string b = scratch("poisson2.h5").string();
  REQUIRE(sweep(model, spec, a, "--jobs 1 --quiet").status == 0);
  REQUIRE(sweep(model, spec, b, "--jobs 2 --quiet").status == 0);
  check_same_file(a, b);
  const CommandResult r = python_check("distinct_arrivals", a);
  CHECK_MESSAGE(r.status == 0, r.output);
}

TEST_CASE("the sweep's progress line: runs done of the total, failures, ETA in h:mm:ss") {
  CHECK(ctde::cli::format_sweep_progress(120, 1000, 2, 13.4) == "runs 120/1000  failed 2  ETA 0:00:13");
  CHECK(ctde::cli::format_sweep_progress(0, 10, 0, -1) == "runs 0/10  failed 0  ETA --:--:--");
  CHECK(ctde::cli::format_sweep_progress(1, 10, 0, 3725) == "runs 1/10  failed 0  ETA 1:02:05");
}
