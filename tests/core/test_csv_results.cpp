// CsvResults (core/csv_results.hpp): the results file's text, written by
// hand through the sink and by the director.
#include <doctest/doctest.h>

#include <array>
#include <limits>
#include <sstream>
#include <string>

#include "core/csv_results.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;

TEST_CASE("CsvResults writes a header of one column per element and a line per row") {
  std::ostringstream out;
  {
    CsvResults results(out, {{"x.out", FlatIndex{0}, 0, 1, false},
                             {"v.out", FlatIndex{1}, 0, 2, false},
                             {"s.out", FlatIndex{2}, 0, 2, true}});
    CHECK(results.signals().size() == 3);
    const std::array<double, 1> x{0.1};
    const std::array<double, 2> v{-2.5, 1e-12};
    const std::array<double, 2> s{std::numeric_limits<double>::infinity(), 3};
    results.begin_row(RowTime::between_ticks(0), 0);
    results.value(x);
    results.value(v);
    results.absent(2);
    results.end_row();
    results.begin_row(RowTime::between_ticks(1.25), 7);
    results.value(x);
    results.value(v);
    results.value(s);
    results.end_row();
    results.flush();
    CHECK_FALSE(results.failed());
  }
  CHECK(out.str() ==
        "time,microstep,x.out,v.out[0],v.out[1],s.out[0],s.out[1]\n"
        "0,0,0.1,-2.5,1e-12,,\n"
        "1.25,7,0.1,-2.5,1e-12,inf,3\n");
}

TEST_CASE("CsvResults with no signals writes the time and microstep columns only") {
  std::ostringstream out;
  CsvResults results(out, {});
  results.begin_row(RowTime::between_ticks(0.5), 1);
  results.end_row();
  CHECK(out.str() == "time,microstep\n0.5,1\n");
}

TEST_CASE("the director writes the results text of docs/semantics.md through CsvResults") {
  // A width-2 constant, a ramp 0.25 t (continuous), and a width-2 sampler of
  // the constant every 0.5 s (discrete). No states: the rows are the ends of
  // the (solver-less) continuous phases at the queued times, (t, 0), and
  // after each microstep of a DE phase, (t, 1), where the sampler's token
  // shows; elsewhere its cells are empty. Every number is exact.
  const test::Run run = test::run_model(R"({"ctde": 1, "name": "csv", "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": [0.5, -2]}},
               {"name": "r", "type": "Ramp", "params": {"slope": 0.25}},
               {"name": "s", "type": "PeriodicSampler", "params": {"period": 0.5}}],
    "connections": [["c.out", "s.in"]],
    "record": ["c.out", "r.out", "s.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(run.csv ==
        "time,microstep,c.out[0],c.out[1],r.out,s.out[0],s.out[1]\n"
        "0,0,0.5,-2,0,,\n"
        "0,1,0.5,-2,0,0.5,-2\n"
        "0.5,0,0.5,-2,0.125,,\n"
        "0.5,1,0.5,-2,0.125,0.5,-2\n"
        "1,0,0.5,-2,0.25,,\n"
        "1,1,0.5,-2,0.25,0.5,-2\n");
}

TEST_CASE("CsvResults writes a row at a tick as the tick's exact decimal value") {
  std::ostringstream out;
  CsvResults results(out, {});
  const TimeResolution ps(1e-12);
  results.begin_row(RowTime::at_tick(100'000'000'000, ps), 0);  // 0.1 s
  results.end_row();
  results.begin_row(RowTime::at_tick(9'007'199'254'740'993, ps), 2);  // 2^53 + 1 ticks
  results.end_row();
  results.begin_row(RowTime::at_tick(-1'250'000'000'000, ps), 0);
  results.end_row();
  results.begin_row(RowTime::between_ticks(0.1 + 0.2), 0);  // between ticks: the double's shortest text
  results.end_row();
  CHECK(out.str() == "time,microstep\n0.1,0\n9007.199254740993,2\n-1.25,0\n0.30000000000000004,0\n");
}
