// `ctde run --plot` and `ctde plot` end to end: the PNG drawn, its size, the
// layout decisions (through --describe), and the errors; CSV, HDF5 and MAT
// results drawn alike, and a sweep's runs.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using ctde::test::CommandResult;
using ctde::test::example_models;
using ctde::test::read_text;
using ctde::test::run_cli;
using ctde::test::run_cli_env;

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_plot_test", name);
}

/// A 4-byte big-endian number at `offset` of `bytes`.
std::uint32_t big_endian(const std::string& bytes, std::size_t offset) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return value;
}

/// A temporary folder of this test's own (TMPDIR for the command): other
/// programs' files in the shared one do not count.
std::filesystem::path private_tmp() {
  auto dir = ctde::test::scratch_root() / "ctde-plot-test-tmp";
  std::filesystem::create_directories(dir);
  return dir;
}

/// How many results files `run --plot` left in its temporary folder.
std::size_t leftover_results() {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(private_tmp())) {
    if (entry.path().filename().string().rfind("ctde-results-", 0) == 0) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("ctde run --plot draws a 1000 x 600 PNG of the recorded signals") {
  const auto png = scratch("spring_mass.png");
  std::filesystem::remove(png);
  const std::size_t leftovers = leftover_results();
  const CommandResult r =
      run_cli_env("TMPDIR=" + private_tmp().string(),
                  "run " + example_models() + "spring_mass.json --quiet --plot " + png.string());
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const std::string bytes = read_text(png);
  REQUIRE(bytes.size() > 33);
  CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(big_endian(bytes, 8) == 13);  // the IHDR chunk comes first
  CHECK(bytes.substr(12, 4) == "IHDR");
  CHECK(big_endian(bytes, 16) == 1000);
  CHECK(big_endian(bytes, 20) == 600);
  CHECK(leftover_results() == leftovers);  // the temporary results file is gone
}

TEST_CASE("ctde run --plot with -o keeps the results and plots discrete signals too") {
  const auto png = scratch("sampled_pi.png");
  const auto csv = scratch("sampled_pi.csv");
  std::filesystem::remove(png);
  const CommandResult r = run_cli("run " + example_models() + "sampled_pi.json --quiet -o " + csv.string() +
                                  " --plot " + png.string());
  CHECK(r.status == 0);
  CHECK(read_text(csv).rfind("time,microstep,", 0) == 0);
  const std::string bytes = read_text(png);
  REQUIRE(bytes.size() > 24);
  CHECK(big_endian(bytes, 16) == 1000);
  CHECK(big_endian(bytes, 20) == 600);
}

TEST_CASE("ctde run --plot exits 2 and runs nothing when the plot tool is missing or the name is wrong") {
  const auto csv = scratch("not_run.csv");
  std::filesystem::remove(csv);
  const CommandResult missing = run_cli_env(
      "CTDE_PYTHON=/nonexistent/python3", "run " + example_models() + "spring_mass.json -o " + csv.string() +
                                              " --plot " + scratch("never.png").string());
  CHECK(missing.status == 2);
  CHECK(missing.output.find("'/nonexistent/python3' is not an executable file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(csv));

  const CommandResult no_script =
      run_cli_env("CTDE_PLOT_SCRIPT=/nonexistent/plot.py",
                  "run " + example_models() + "spring_mass.json --plot " + scratch("never.png").string());
  CHECK(no_script.status == 2);
  CHECK(no_script.output.find("cannot find plot_results.py") != std::string::npos);

  const CommandResult bad_name = run_cli("run " + example_models() + "spring_mass.json --plot plot.jpeg");
  CHECK(bad_name.status == 2);
  CHECK(bad_name.output.find("must end in .png, .svg or .pdf") != std::string::npos);
}

TEST_CASE("ctde run --plot exits 3 and keeps the results when the plot tool fails") {
  const auto csv = scratch("kept.csv");
  std::filesystem::remove(csv);
  const CommandResult r =
      run_cli_env("CTDE_PYTHON=/bin/false", "run " + example_models() + "spring_mass.json --quiet -o " +
                                                csv.string() + " --plot " + scratch("failed.png").string());
  CHECK(r.status == 3);
  CHECK(r.output.find("the plot was not drawn") != std::string::npos);
  CHECK(r.output.find("exit status 1") != std::string::npos);
  CHECK(r.output.find("the results are kept in " + csv.string()) != std::string::npos);
  CHECK(read_text(csv).rfind("time,microstep,force.out,", 0) == 0);

  // Without -o the results went to a temporary file: its name is given, and it is kept.
  const CommandResult temporary =
      run_cli_env("CTDE_PYTHON=/bin/false", "run " + example_models() + "spring_mass.json --quiet --plot " +
                                                scratch("failed.png").string());
  CHECK(temporary.status == 3);
  const auto at = temporary.output.find("the results are kept in ");
  REQUIRE(at != std::string::npos);
  std::string kept = temporary.output.substr(at + 24);
  kept = kept.substr(0, kept.find('\n'));
  CHECK(read_text(kept).rfind("time,microstep,", 0) == 0);
  std::filesystem::remove(kept);
}

// ---- ctde plot: overlaid runs, the layout rules, and the errors

namespace {

/// Writes `text` to the scratch file `name` and returns its path.
std::string write_scratch(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

/// A results CSV of `rows` rows 0.01 s apart; `cells(i)` gives row i's cells after time,microstep.
template <typename Cells>
std::string results_csv(const std::string& header, int rows, Cells cells) {
  std::string text = "time,microstep," + header + "\n";
  for (int i = 0; i < rows; ++i) text += std::to_string(i * 0.01) + ",0," + cells(i) + "\n";
  return text;
}

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

/// A DC motor's results: speed 0..1, current 0..4, voltage 0..100, a sparse discrete setpoint.
std::string motor_csv() {
  return write_scratch("motor.csv",
                       results_csv("motor.speed,motor.current,motor.voltage,setpoint.out", 201, [](int i) {
                         const double t = i * 0.01;
                         return number(1 - std::exp(-3 * t)) + "," + number(4 * std::exp(-3 * t)) + "," +
                                number(std::min(100.0, 500 * t)) + "," + (i % 50 == 0 ? "1" : "");
                       }));
}

/// `ctde plot ARGUMENTS --describe`: the layout as JSON (status 0 required).
std::string describe_layout(const std::string& arguments) {
  const CommandResult r = run_cli("plot " + arguments + " --describe");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return r.output;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The PNG's width and height from its IHDR chunk.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::filesystem::path& png) {
  const std::string bytes = read_text(png);
  REQUIRE(bytes.size() > 24);
  REQUIRE(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  REQUIRE(bytes.substr(12, 4) == "IHDR");
  return {big_endian(bytes, 16), big_endian(bytes, 20)};
}

}  // namespace

TEST_CASE("ctde plot overlays two runs of the bouncing ball in one 1000 x 600 PNG") {
  // With e = 0.5 the impacts accumulate at t = 1.43 + 2.86 s (Zeno): that run stops before.
  const auto a = scratch("ball_e08.csv");
  const auto b = scratch("ball_e05.csv");
  REQUIRE(run_cli("run " + example_models() + "bouncing_ball.json --quiet -o " + a.string()).status == 0);
  REQUIRE(run_cli("run " + example_models() + "bouncing_ball.json --quiet --set e=0.5 --stop-time 4 -o " +
                  b.string())
              .status == 0);
  const auto png = scratch("balls.png");
  std::filesystem::remove(png);
  const CommandResult r = run_cli("plot " + a.string() + " " + b.string() + " -o " + png.string());
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.empty());
  CHECK(png_size(png) == std::make_pair(1000U, 600U));

  // Each file is a run labelled by its name; the same signal of both runs shares a panel.
  const std::string layout = describe_layout(a.string() + " " + b.string());
  CHECK(has(layout, R"("runs": ["ball_e08.csv", "ball_e05.csv"])"));
  CHECK(has(layout, R"({"kind": "lines", "signals": ["h.out", "v.out"]})"));
  // The impacts leave h at -1e-11 or so: drawn as 0, not as data. The detector's
  // output is h at the crossing, roundoff only: its events are a raster row, not stems of height 0.
  CHECK(has(layout, R"("zeroed": {"h.out": )"));
  CHECK(has(layout, R"("roundoff": ["ground.out"])"));
  CHECK(has(layout, R"({"kind": "raster", "signals": ["ground.out"]})"));
}

TEST_CASE("ctde plot puts signals of different scales in different panels") {
  const std::string layout = describe_layout(motor_csv());
  // The voltage (0..100) alone; speed (0..1) and current (0..4) within a factor 20 together.
  CHECK(has(layout, R"("panels": [{"kind": "lines", "signals": ["motor.voltage"]}, )"
                    R"({"kind": "lines", "signals": ["motor.speed", "motor.current"]}, )"
                    R"({"kind": "stems", "signals": ["setpoint.out"]}])"));
  CHECK(has(layout, R"("roundoff": [])"));
  CHECK(has(layout, R"("height_pixels": 600)"));

  // --signals chooses: the current joins nothing else.
  const std::string chosen = describe_layout(motor_csv() + " --signals motor.current,motor.voltage");
  CHECK(has(chosen, R"("panels": [{"kind": "lines", "signals": ["motor.voltage"]}, )"
                    R"({"kind": "lines", "signals": ["motor.current"]}])"));
}

TEST_CASE("ctde plot --signals with a vector signal's name draws all its elements") {
  const std::string csv = write_scratch("vector.csv", results_csv("x.out[0],x.out[1],y.out", 11, [](int i) {
                                          return number(i) + "," + number(100.0 + i) + "," + number(-i);
                                        }));
  const std::string whole = describe_layout(csv + " --signals x.out");
  const std::string named = describe_layout(csv + " --signals x.out[0],x.out[1]");
  CHECK(has(whole, R"("x.out[0]")"));
  CHECK(has(whole, R"("x.out[1]")"));
  CHECK_FALSE(has(whole, R"("y.out")"));
  CHECK(whole == named);
  // a prefix that is not a vector's name stays unknown
  CHECK(run_cli("plot " + csv + " --signals x.ou --describe").status == 2);
}

TEST_CASE("ctde plot draws roundoff as zero: a residual signal, and residuals of a real one") {
  const std::string csv = write_scratch("residuals.csv", results_csv("h.out,noise.out", 101, [](int i) {
                                          const double h = i % 25 == 0 && i > 0 ? -1e-11 : 10.0 - 0.1 * i;
                                          return number(h) + "," + number(i % 2 == 0 ? 3e-12 : -2e-12);
                                        }));
  const std::string layout = describe_layout(csv);
  CHECK(has(layout, R"("roundoff": ["noise.out"])"));  // identically roundoff: drawn as 0
  CHECK(has(layout, R"("zeroed": {"h.out": 4})"));     // the residuals at t = 0.25, 0.5, 0.75 and 1
  // The zero signal joins the smallest panel rather than getting an axis of 1e-12.
  CHECK(has(layout, R"("panels": [{"kind": "lines", "signals": ["h.out", "noise.out"]}])"));
}

TEST_CASE("ctde plot draws sparse discrete signals as stems, dense ones as a raster or as points") {
  // 501 ticks of a clock (all 1), 5 alarms, and a burst of 8 events 1 ms apart on a
  // 10 s axis (under 3 pixels) with the values 0..7.
  const std::string csv =
      write_scratch("events.csv", results_csv("clock.out,alarm.out,burst.out", 1001, [](int i) {
                      return std::string(i % 2 == 0 ? "1" : "") + "," + (i % 200 == 100 ? "2" : "") + ",";
                    }));
  std::string text = read_text(csv);
  for (int k = 0; k < 8; ++k) text += number(10.0 + 0.001 * k) + ",0,,," + number(k) + "\n";
  const std::string layout = describe_layout(write_scratch("events.csv", text));
  CHECK(has(layout, R"({"kind": "stems", "signals": ["alarm.out"]}, )"
                    R"({"kind": "points", "signals": ["burst.out"]}, )"
                    R"({"kind": "raster", "signals": ["clock.out"]}])"));

  // Drawn: stems, dots and a raster row.
  const auto png = scratch("events.png");
  const CommandResult r = run_cli("plot " + csv + " -o " + png.string());
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK(png_size(png) == std::make_pair(1000U, 600U));
}

TEST_CASE("ctde plot makes the figure 150 pixels higher for each panel beyond three") {
  const std::string csv =
      write_scratch("scales.csv", results_csv("a.out,b.out,c.out,d.out,e.out", 11, [](int i) {
                      const double x = 1.0 + i;
                      return number(x) + "," + number(100 * x) + "," + number(1e4 * x) + "," +
                             number(1e6 * x) + "," + number(1e8 * x);
                    }));
  CHECK(has(describe_layout(csv), R"("height_pixels": 900)"));
  const auto png = scratch("scales.png");
  const CommandResult r = run_cli("plot " + csv + " -o " + png.string() + " --logx --logy");
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK(has(r.output, "note: scales.csv: 1 rows at time <= 0 skipped (log time axis)"));
  CHECK(png_size(png) == std::make_pair(1000U, 900U));

  // A panel with nothing above 0 is drawn empty, with a note, not a failure.
  const std::string negative = write_scratch("negative.csv", "time,microstep,a.out\n1,0,-1\n2,0,-2\n");
  const CommandResult empty = run_cli("plot " + negative + " -o " + png.string() + " --logy");
  CHECK_MESSAGE(empty.status == 0, empty.output);
  CHECK(has(empty.output, "note: negative.csv: 2 values <= 0 of a.out skipped (log value axes)"));
}

TEST_CASE("ctde plot exits 2 for a missing or foreign file, an unknown signal or a bad name") {
  const std::string csv = motor_csv();
  const CommandResult missing =
      run_cli("plot " + csv + " /nonexistent/run.csv -o " + scratch("x.png").string());
  CHECK(missing.status == 2);
  CHECK(has(missing.output, "cannot read RESULTS '/nonexistent/run.csv': No such file or directory"));

  const std::string foreign = write_scratch("foreign.csv", "a,b,c\n1,2,3\n");
  const CommandResult not_results = run_cli("plot " + foreign + " -o " + scratch("x.png").string());
  CHECK(not_results.status == 2);
  CHECK(has(not_results.output, "'" + foreign + "' is not a ctde results file"));

  const CommandResult unknown = run_cli("plot " + csv + " --signals motor.speed,motor.torque --describe");
  CHECK(unknown.status == 2);
  CHECK(has(unknown.output,
            "--signals: no signal 'motor.torque' in the results; they have: "
            "motor.speed, motor.current, motor.voltage, setpoint.out"));

  const std::string broken = write_scratch("broken.csv", "time,microstep,x.out\n0,0,1\n0.1,0,oops\n");
  const CommandResult bad_row = run_cli("plot " + broken + " -o " + scratch("x.png").string());
  CHECK(bad_row.status == 2);
  CHECK(has(bad_row.output, broken + ":3: could not convert string to float: 'oops'"));
  CHECK(has(bad_row.output, "the results cannot be plotted"));

  const CommandResult bad_name = run_cli("plot " + csv + " -o plot.jpeg");
  CHECK(bad_name.status == 2);
  CHECK(has(bad_name.output, "-o plot.jpeg: the file name must end in .png, .svg or .pdf"));

  const CommandResult no_output = run_cli("plot " + csv);
  CHECK(no_output.status == 2);
  CHECK(has(no_output.output, "give -o FILE"));

  const CommandResult no_python =
      run_cli_env("CTDE_PYTHON=/nonexistent/python3", "plot " + csv + " --describe");
  CHECK(no_python.status == 2);
  CHECK(has(no_python.output, "plot needs Python 3 with matplotlib"));
}

TEST_CASE("ctde plot exits 3 and leaves no file when drawing fails") {
  const auto png = scratch("never_drawn.png");
  std::filesystem::remove(png);
  const CommandResult r =
      run_cli_env("CTDE_PYTHON=/bin/false", "plot " + motor_csv() + " -o " + png.string());
  CHECK(r.status == 3);
  CHECK(has(r.output, "the plot was not drawn"));
  CHECK(has(r.output, "exit status 1"));
  CHECK_FALSE(std::filesystem::exists(png));
}

TEST_CASE(
    "ctde plot of an M/M/1 queue: the arrival ticks a raster, the customers' numbers and service times "
    "dots") {
  // About 1000 customers in 2000 s: far too many for stems.
  const auto csv = scratch("mm1.csv");
  REQUIRE(run_cli("run " + example_models() + "mm1_queue.json --quiet --stop-time 2000 --record " +
                  "arrivals.out,id.out,service.out,server.out -o " + csv.string())
              .status == 0);
  const std::string layout = describe_layout(csv.string());
  // Numbers 1..1000 (arrivals and departures) together; service times of a few seconds apart.
  CHECK(has(layout, R"("panels": [{"kind": "points", "signals": ["id.out", "server.out"]}, )"
                    R"({"kind": "points", "signals": ["service.out"]}, )"
                    R"({"kind": "raster", "signals": ["arrivals.out"]}])"));
  const auto png = scratch("mm1.png");
  const CommandResult r = run_cli("plot " + csv.string() + " -o " + png.string());
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK(png_size(png) == std::make_pair(1000U, 600U));
}

// ---- HDF5 and MAT results: the same drawing as the CSV's, a sweep's runs, and the errors

namespace {

/// Check `check` of tests/cli/plot_checks.py on `arguments`: what it printed,
/// status 0 when its assertions held.
CommandResult plot_check(const std::string& check, const std::string& arguments) {
  return ctde::test::run_shell("/usr/bin/python3 " + std::string(CTDE_SOURCE_DIR) +
                               "/tests/cli/plot_checks.py " + check + " " + arguments + " 2>&1");
}

/// The layout --describe prints from its panels on (the runs' labels are the files' names).
std::string panels_of(const std::string& layout) { return layout.substr(layout.find("\"panels\"")); }

/// Writes the sweep of the ball over `e` (stop time 3 s) to the scratch file `name`.
std::string ball_sweep(const std::string& name, const std::string& values) {
  const std::string spec = write_scratch(
      name + ".json", R"({"ctde_sweep": 1, "grid": {"e": [)" + values + R"(]}, "stop_time": 3})");
  const std::string out = scratch(name).string();
  const CommandResult r = run_cli("sweep " + example_models() + "bouncing_ball.json " + spec + " -o " + out +
                                  " --jobs 1 --quiet");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return out;
}

}  // namespace

TEST_CASE("ctde plot draws a run's HDF5 and MAT results as it draws its CSV") {
  // The ball: a discrete signal (absent values: empty cells, NaN); the spring: a vector signal
  // (spring.out[0] and [1] in the CSV, one dataset of rows x 2 in HDF5 and MAT).
  const std::vector<std::pair<std::string, std::string>> models = {
      {"bouncing_ball", "h.out:0 v.out:0 ground.out:"},
      {"spring_mass", "force.out:0 spring.out[0]:0 spring.out[1]:0"}};
  for (const auto& [model, columns] : models) {
    CAPTURE(model);
    std::vector<std::string> files;
    for (const std::string extension : {".csv", ".h5", ".mat"}) {
      files.push_back(scratch(model + extension).string());
      const CommandResult r = run_cli("run " + example_models() + model + ".json --quiet -o " + files.back());
      REQUIRE_MESSAGE(r.status == 0, r.output);
    }
    // The script loads the three into the same columns, in the record's order, absent values alike.
    const CommandResult same = plot_check("same_columns", files[0] + " " + files[1] + " " + files[2]);
    CHECK_MESSAGE(same.status == 0, same.output);
    CHECK(has(same.output, columns));
    CHECK_FALSE(has(same.output, "ground.out:0"));  // absent but at its events

    std::vector<std::string> drawn;
    for (const auto& file : files) {
      CAPTURE(file);
      CHECK(panels_of(describe_layout(file)) == panels_of(describe_layout(files[0])));
      const auto png = scratch(std::filesystem::path(file).filename().string() + ".png");
      std::filesystem::remove(png);
      const CommandResult r = run_cli("plot " + file + " -o " + png.string());
      CHECK_MESSAGE(r.status == 0, r.output);
      CHECK(png_size(png) == std::make_pair(1000U, 600U));
      drawn.push_back(read_text(png));
    }
    CHECK(drawn[1] == drawn[0]);  // the same picture, byte for byte
    CHECK(drawn[2] == drawn[0]);
  }
}

TEST_CASE("ctde run --plot draws from -o x.h5 or x.mat, and keeps it") {
  std::vector<std::string> drawn;
  for (const std::string extension : {".csv", ".h5", ".mat"}) {
    CAPTURE(extension);
    const auto results = scratch("pi_plotted" + extension);
    const auto png = scratch("pi_plotted" + extension + ".png");
    std::filesystem::remove(results);
    std::filesystem::remove(png);
    const CommandResult r = run_cli("run " + example_models() + "sampled_pi.json --quiet -o " +
                                    results.string() + " --plot " + png.string());
    CHECK_MESSAGE(r.status == 0, r.output);
    CHECK(std::filesystem::file_size(results) > 0);
    CHECK(png_size(png) == std::make_pair(1000U, 600U));
    drawn.push_back(read_text(png));
  }
  CHECK(read_text(scratch("pi_plotted.h5")).rfind("\x89HDF\r\n\x1a\n", 0) == 0);
  CHECK(read_text(scratch("pi_plotted.mat")).rfind("MATLAB 5.0 MAT-file", 0) == 0);
  CHECK(drawn[1] == drawn[0]);  // the discrete u.out as stems from all three
  CHECK(drawn[2] == drawn[0]);
}

TEST_CASE("ctde plot of a sweep file draws every run, labelled with its values; --runs chooses some") {
  const std::string sweep = ball_sweep("sweep_e.h5", "0.6, 0.7, 0.8, 0.9, 1.0");
  const std::string layout = describe_layout(sweep);
  CHECK(has(layout,
            R"("runs": ["run 0: e=0.6", "run 1: e=0.7", "run 2: e=0.8", "run 3: e=0.9", "run 4: e=1"])"));
  // More runs than line styles: a signal per panel, its runs in colours.
  CHECK(has(layout,
            R"("panels": [{"kind": "lines", "signals": ["v.out"]}, )"
            R"({"kind": "lines", "signals": ["h.out"]}, {"kind": "raster", "signals": ["ground.out"]}])"));
  const auto png = scratch("sweep_e.png");
  std::filesystem::remove(png);
  const CommandResult r = run_cli("plot " + sweep + " -o " + png.string());
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK(png_size(png) == std::make_pair(1000U, 600U));

  // Three runs share panels again.
  const std::string chosen = describe_layout(sweep + " --runs 0,2-3");
  CHECK(has(chosen, R"("runs": ["run 0: e=0.6", "run 2: e=0.8", "run 3: e=0.9"])"));
  CHECK(has(chosen, R"({"kind": "lines", "signals": ["h.out", "v.out"]})"));

  // Run 1 is what the model run alone with e = 0.7 gives, read from a CSV.
  const auto alone = scratch("ball_e07.csv");
  REQUIRE(run_cli("run " + example_models() + "bouncing_ball.json --quiet --set e=0.7 --stop-time 3 -o " +
                  alone.string())
              .status == 0);
  const CommandResult same = plot_check("sweep_run", sweep + " 1 " + alone.string());
  CHECK_MESSAGE(same.status == 0, same.output);

  // With other files, a run's label starts with its file's name.
  CHECK(has(describe_layout(sweep + " " + alone.string() + " --runs 1"),
            R"("runs": ["sweep_e.h5 run 1: e=0.7", "ball_e07.csv"])"));

  const CommandResult missing = run_cli("plot " + sweep + " --runs 2,7 --describe");
  CHECK(missing.status == 2);
  CHECK(has(missing.output, "--runs: " + sweep + " has no run 7 (its runs: 0-4)"));
  const CommandResult bad = run_cli("plot " + sweep + " --runs 3-1 --describe");
  CHECK(bad.status == 2);
  CHECK(has(bad.output, "--runs 3-1: expects run numbers and ranges such as 0,3-5"));
  const CommandResult no_sweep = run_cli("plot " + alone.string() + " --runs 1 --describe");
  CHECK(no_sweep.status == 2);
  CHECK(has(no_sweep.output, "--runs 1: chooses runs of a sweep's HDF5 file, and no file is one"));
}

TEST_CASE("ctde plot names a file that is neither CSV nor ctde's HDF5 or MAT, and a signal HDF5 lacks") {
  const std::string h5 = scratch("foreign.h5").string();
  const std::string mat = scratch("foreign.mat").string();
  REQUIRE(plot_check("foreign_hdf5", h5).status == 0);
  REQUIRE(plot_check("foreign_mat", mat).status == 0);
  const CommandResult not_h5 = run_cli("plot " + h5 + " -o " + scratch("x.png").string());
  CHECK(not_h5.status == 2);
  CHECK(has(not_h5.output, h5 + ": not a ctde results file (an HDF5 file without /time;"));
  CHECK(has(not_h5.output, "the results cannot be plotted"));
  const CommandResult not_mat = run_cli("plot " + mat + " -o " + scratch("x.png").string());
  CHECK(not_mat.status == 2);
  CHECK(has(not_mat.output,
            mat + ": not a ctde results file (a MAT file without time, signals and signal_names;"));

  // A binary file of another kind: refused before the script runs.
  const auto png = scratch("not_results.png");
  REQUIRE(run_cli("plot " + motor_csv() + " -o " + png.string()).status == 0);
  const CommandResult binary = run_cli("plot " + png.string() + " -o " + scratch("x.png").string());
  CHECK(binary.status == 2);
  CHECK(has(binary.output, "RESULTS '" + png.string() +
                               "' is not a ctde results file: neither a CSV whose first line starts with "
                               "time,microstep (ctde run -o x.csv) nor an HDF5 (-o x.h5, ctde sweep) or MAT "
                               "file (-o x.mat)"));

  // The script checks an HDF5 file's signal names, with the message of a CSV's.
  const std::string ball = scratch("bouncing_ball.h5").string();
  REQUIRE(run_cli("run " + example_models() + "bouncing_ball.json --quiet -o " + ball).status == 0);
  const CommandResult unknown = run_cli("plot " + ball + " --signals h.out,height --describe");
  CHECK(unknown.status == 2);
  CHECK(has(unknown.output,
            "--signals: no signal 'height' in the results; they have: h.out, v.out, ground.out"));
}
