// Times in the results file and the trace are the tick's exact decimal value
// at a resolution of 10^-n s (docs/model-format.md, "Times";
// docs/trace-format.md, "Times").
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ctde::test::CommandResult;
using ctde::test::contains;
using ctde::test::read_text;
using ctde::test::run_cli;

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_exact_times_test", name);
}

std::filesystem::path write_model(const std::string& name, const std::string& text) {
  auto path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

/// The first column of each data line of a results file.
std::vector<std::string> times_of(const std::string& csv) {
  std::vector<std::string> times;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) times.push_back(line.substr(0, line.find(',')));
  return times;
}

}  // namespace

TEST_CASE("ctde run writes times above 2^53 ticks exactly: neighbouring ticks stay distinct") {
  // 9008 s is 9008000000000000 ticks of 1e-12 s, past 2^53 (9007199254740992):
  // doubles there are 2 ticks apart, so tick / 1e12 in doubles would repeat.
  const auto model = write_model("late.json", R"({"ctde": 1, "name": "late",
    "director": {"start_time": 9008, "stop_time": 9008.00000000001},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1e-12}}],
    "record": ["clock.out"]})");
  const auto csv = scratch("late.csv");
  const auto trace = scratch("late.jsonl");
  const CommandResult r =
      run_cli("run " + model.string() + " -o " + csv.string() + " --trace " + trace.string() + " --quiet");
  REQUIRE(r.status == 0);
  std::vector<std::string> times = times_of(read_text(csv));
  REQUIRE(times.size() >= 8);
  // Each tick has a row (t, 0) and, for its token, (t, 1).
  CHECK(times[0] == "9008");
  CHECK(times[1] == "9008");
  CHECK(times[2] == "9008.000000000001");
  CHECK(times[3] == "9008.000000000001");
  CHECK(times[4] == "9008.000000000002");
  CHECK(times[6] == "9008.000000000003");
  // The text reads back to the double nearest the tick's value (the
  // compiler's reading of the same literal).
  CHECK(std::strtod(times[2].c_str(), nullptr) == 9008.000000000001);

  const std::string lines = read_text(trace);
  CHECK(contains(lines, R"({"kind":"event","t":9008,"tick":9008000000000000,"n":0,"actor":"clock")"));
  CHECK(contains(lines, R"({"kind":"event","t":9008.000000000001,"tick":9008000000000001,"n":0,)"));
  CHECK(contains(lines, R"({"kind":"time_event","t":9008.000000000003,"tick":9008000000000003,"n":0,)"));
}

TEST_CASE("ctde run writes 0.1 s as 0.1 and the output grid in ticks, from a negative start time") {
  const auto model = write_model("grid.json", R"({"ctde": 1, "name": "grid",
    "director": {"start_time": -0.3, "stop_time": 0.2, "output_interval": 0.1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.25}}],
    "connections": [["one.out", "x.in"]],
    "record": ["x.out"]})");
  const auto csv = scratch("grid.csv");
  const auto trace = scratch("grid.jsonl");
  const CommandResult r = run_cli("run " + model.string() + " -o " + csv.string() + " --trace " +
                                  trace.string() + " --rows output --quiet");
  REQUIRE(r.status == 0);
  // start + k * 0.1 in doubles would give -0.19999999999999998, 0.10000000000000003...
  CHECK(times_of(read_text(csv)) == std::vector<std::string>{"-0.3", "-0.2", "-0.1", "0", "0.1", "0.2"});
  const std::string lines = read_text(trace);
  // The clock ticks at -0.3 + k * 0.25; the grid rows between come from the solver's dense output.
  CHECK(contains(lines, R"({"kind":"time_event","t":-0.3,"tick":-300000000000,"n":0,"actor":"clock"})"));
  CHECK(contains(lines, R"({"kind":"time_event","t":-0.05,"tick":-50000000000,"n":0,"actor":"clock"})"));
  CHECK(contains(lines, R"({"kind":"time_event","t":0.2,"tick":200000000000,"n":0,"actor":"clock"})"));
}

TEST_CASE("ctde run writes an output grid between ticks at its doubles") {
  // 1/3 s is no whole number of ticks: the grid is start + k h in doubles.
  const auto model = write_model("third.json", R"({"ctde": 1, "name": "third",
    "director": {"stop_time": 1, "output_interval": 0.3333333333333333},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"}],
    "connections": [["one.out", "x.in"]],
    "record": ["x.out"]})");
  const auto csv = scratch("third.csv");
  const CommandResult r = run_cli("run " + model.string() + " -o " + csv.string() + " --rows output --quiet");
  REQUIRE(r.status == 0);
  CHECK(times_of(read_text(csv)) == std::vector<std::string>{"0", "0.3333333333333333", "0.6666666666666666",
                                                             "1"});  // 3 h is 1 in doubles
}
