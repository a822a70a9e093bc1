// `ctde run` end to end: files written, exit statuses, results kept on failure.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Result = ctde::test::CommandResult;

Result run(const std::string& arguments) { return ctde::test::run_cli(arguments); }

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kModels = std::string(CTDE_SOURCE_DIR) + "/examples/models/";

std::filesystem::path scratch(const std::string& name) {
  const auto dir = ctde::test::scratch_root() / "ctde_cli_run_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST_CASE("ctde run writes results and a trace and exits 0") {
  const auto csv = scratch("pi.csv");
  const auto trace = scratch("pi.jsonl");
  const Result r =
      run("run " + kModels + "sampled_pi.json -o " + csv.string() + " --trace " + trace.string());
  CHECK(r.status == 0);
  CHECK(r.output.find("ctde: run ok at t = 6 s") != std::string::npos);
  const std::string results = read(csv);
  CHECK(results.rfind("time,microstep,plant.x.out,hold.out,u.out\n", 0) == 0);
  const std::string lines = read(trace);
  CHECK(lines.rfind("{\"kind\":\"run_start\",\"model\":\"sampled_pi\"", 0) == 0);
  CHECK(lines.find("{\"kind\":\"run_end\",\"status\":\"ok\"") != std::string::npos);
}

TEST_CASE("ctde run --set and --stop-time change the run; --quiet silences it") {
  const auto csv = scratch("short.csv");
  const Result r =
      run("run " + kModels + "spring_mass.json -o " + csv.string() + " --set k=9 --stop-time 1 --quiet");
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const std::string results = read(csv);
  const auto last_line = results.substr(results.rfind('\n', results.size() - 2) + 1);
  CHECK(last_line.rfind("1,", 0) == 0);
}

TEST_CASE("ctde run --record replaces the model's record list; the same columns as the model's own") {
  const auto all = scratch("ball_all.csv");
  const auto some = scratch("ball_some.csv");
  REQUIRE(run("run " + kModels + "bouncing_ball.json --quiet -o " + all.string()).status == 0);
  REQUIRE(run("run " + kModels + "bouncing_ball.json --quiet --record ground.out,v.out -o " + some.string())
              .status == 0);
  // The model records h.out, v.out, ground.out: the chosen columns, in the order given, hold the same values.
  std::istringstream a(read(all));
  std::istringstream b(read(some));
  std::string row_a;
  std::string row_b;
  std::size_t rows = 0;
  while (std::getline(a, row_a) && std::getline(b, row_b)) {
    const auto cells = ctde::test::split_csv_line(row_a);
    REQUIRE(cells.size() == 5);
    CHECK(row_b == cells[0] + "," + cells[1] + "," + cells[4] + "," + cells[3]);
    ++rows;
  }
  CHECK(rows > 10);
  CHECK_FALSE(std::getline(b, row_b));
  const Result unknown = run("run " + kModels + "bouncing_ball.json --record v.out,h.nope");
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("--record v.out,h.nope: record: actor 'h' (Integrator) has no output 'nope'") !=
        std::string::npos);
  const Result empty = run("run " + kModels + "bouncing_ball.json --record v.out,");
  CHECK(empty.status == 2);
  CHECK(empty.output.find("expects actor.port names separated by commas") != std::string::npos);
}

namespace {

/// The data lines of a CSV file (no header), split into cells.
std::vector<std::vector<std::string>> csv_rows(const std::filesystem::path& path) {
  std::istringstream in(read(path));
  std::string line;
  std::getline(in, line);  // the header
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(ctde::test::split_csv_line(line));
  return rows;
}

}  // namespace

TEST_CASE("ctde run --rows writes a subset of the rows of --rows all, chosen by tag") {
  const auto path = [](const std::string& rows) { return scratch("ball_rows_" + rows + ".csv"); };
  for (const std::string rows : {"all", "output", "events", "final"}) {
    REQUIRE(run("run " + kModels + "bouncing_ball.json --quiet --rows " + rows + " -o " + path(rows).string())
                .status == 0);
  }
  const auto all = csv_rows(path("all"));
  // output: the (t, 0) rows at k * 0.02 s (the model's output_interval), 0 to 10 s: at
  // ticks of 1e-12 s that are multiples of 20000000000 (times written exactly, so the
  // tick is the time read back, times 1e12, rounded).
  std::vector<std::vector<std::string>> grid;
  for (const auto& row : all) {
    const long long tick = std::llround(std::stod(row[0]) * 1e12);
    if (row[1] == "0" && tick % 20'000'000'000LL == 0) grid.push_back(row);
  }
  CHECK(grid.size() == 501);
  CHECK(csv_rows(path("output")) == grid);
  // events: every row with n > 0 and the (t, 0) row before it; 7 impacts, 3 rows each.
  std::vector<std::vector<std::string>> events;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool next_is_event = i + 1 < all.size() && all[i + 1][1] != "0" && all[i + 1][0] == all[i][0];
    if (all[i][1] != "0" || next_is_event) events.push_back(all[i]);
  }
  CHECK(events.size() == 21);
  CHECK(csv_rows(path("events")) == events);
  // final: the last row alone.
  CHECK(csv_rows(path("final")) == std::vector<std::vector<std::string>>{all.back()});
  CHECK(all.back()[0] == "10");

  const Result bad = run("run " + kModels + "bouncing_ball.json --rows some");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("--rows some: expects all, output, events or final") != std::string::npos);
  const auto no_grid = scratch("no_grid.json");
  std::ofstream(no_grid) << R"json({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"}],
    "connections": [["c.out", "x.in"]]})json";
  const Result none = run("run " + no_grid.string() + " --rows output -o " + scratch("no_grid.csv").string());
  CHECK(none.status == 2);
  CHECK(none.output.find("--rows output: the model sets no output_interval") != std::string::npos);
}

TEST_CASE("ctde run exits 2 on a bad model or command line and runs nothing") {
  const Result bad = run("run " + std::string(CTDE_SOURCE_DIR) + "/tests/cli/data/bad_width.json");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("width mismatch") != std::string::npos);
  CHECK(run("run " + kModels + "spring_mass.json --set nothing=1").status == 2);
  CHECK(run("run " + kModels + "spring_mass.json --stop-time -1").status == 2);
  CHECK(run("run " + kModels + "spring_mass.json -o /nonexistent/dir/out.csv").status == 2);
}

TEST_CASE(
    "ctde run takes --stop-time with or without its unit, and refuses a results format it does not write") {
  const auto csv = scratch("units.csv");
  const auto ten = scratch("ten.csv");
  REQUIRE(run("run " + kModels + "spring_mass.json --quiet --stop-time 1s -o " + csv.string()).status == 0);
  REQUIRE(run("run " + kModels + "spring_mass.json --quiet --stop-time 1 -o " + ten.string()).status == 0);
  CHECK(read(csv) == read(ten));
  for (const std::string value : {"ten", "5x", "1ss", "s"}) {
    CAPTURE(value);
    const Result r = run("run " + kModels + "spring_mass.json --stop-time " + value);
    CHECK(r.status == 2);
    CHECK(r.output.find("--stop-time: expects a time in seconds, such as 10, 2.5e3 or 10s, not '" + value +
                        "'") != std::string::npos);
  }
  // A .xlsx was written as CSV under that name.
  const auto sheet = scratch("results.xlsx");
  const Result r = run("run " + kModels + "spring_mass.json -o " + sheet.string());
  CHECK(r.status == 2);
  CHECK(r.output == "ctde: error: -o " + sheet.string() +
                        ": ctde writes results as CSV (.csv, .txt or no extension), HDF5 (.h5, .hdf5) or MAT "
                        "(.mat), not .xlsx\n");
  CHECK(!std::filesystem::exists(sheet));
}

TEST_CASE("ctde run's summary counts state events, time events and tokens as the trace has them") {
  // It said "0 events" for a run of 18 state events: it counted tokens only.
  const auto trace = scratch("summary.jsonl");
  const Result r = run("run " + kModels + "thermostat.json -o /dev/null --trace " + trace.string());
  REQUIRE(r.status == 0);
  const auto count = [&](const std::string& kind) {
    const std::string text = read(trace);
    std::size_t n = 0;
    for (auto at = text.find("\"kind\":\"" + kind + "\""); at != std::string::npos;
         at = text.find("\"kind\":\"" + kind + "\"", at + 1))
      ++n;
    return n;
  };
  const std::size_t state_events = count("state_event");
  REQUIRE(state_events > 0);
  CHECK(r.output.find(" RHS evaluations, " + std::to_string(state_events) + " state events, " +
                      std::to_string(count("time_event")) + " time events, " +
                      std::to_string(count("event")) + " tokens\n") != std::string::npos);
}

TEST_CASE("ctde run exits 3 on a run-time failure and keeps results and trace up to it") {
  const auto model = scratch("zeno.json");
  {
    std::ofstream out(model);
    out << R"({"ctde": 1, "director": {"stop_time": 5, "max_microsteps": 20},
      "actors": [{"name": "x", "type": "Integrator", "params": {"initial": 0}},
                 {"name": "one", "type": "Constant", "params": {"value": 1}},
                 {"name": "kick", "type": "SingleEvent", "params": {"time": 2}},
                 {"name": "merge", "type": "Merge"},
                 {"name": "echo", "type": "TimeDelay"}],
      "connections": [["one.out", "x.in"], ["kick.out", "merge.in0"], ["merge.out", "echo.in"],
                      ["echo.out", "merge.in1"]],
      "record": ["x.out"]})";
  }
  const auto csv = scratch("zeno.csv");
  const auto trace = scratch("zeno.jsonl");
  const Result r = run("run " + model.string() + " -o " + csv.string() + " --trace " + trace.string());
  CHECK(r.status == 3);
  CHECK(r.output.find("Zeno behaviour") != std::string::npos);
  CHECK(r.output.find("t=2 s") != std::string::npos);
  const std::string results = read(csv);
  const auto row = results.find("\n2,0,");  // the row before the failure: x = t = 2
  REQUIRE(row != std::string::npos);
  CHECK(std::stod(results.substr(row + 5)) == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(results.back() == '\n');  // complete lines only
  const std::string lines = read(trace);
  CHECK(lines.find("\"kind\":\"error\"") != std::string::npos);
  CHECK(lines.find("{\"kind\":\"run_end\",\"status\":\"error\"") != std::string::npos);
}
