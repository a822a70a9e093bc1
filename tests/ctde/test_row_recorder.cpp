// The director's results rows on their own (domains/ctde/row_recorder.hpp):
// which columns a row holds, a discrete signal present only on the row
// after the microstep that sent it, and the checks of its layout.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/csv_results.hpp"
#include "domains/ctde/row_recorder.hpp"

namespace ctde {
namespace {

RecordedSignal signal(const char* name, std::uint32_t width, bool discrete) {
  RecordedSignal s;
  s.name = name;
  s.width = width;
  s.discrete = discrete;
  return s;
}

/// A run's buffer with two signals: "x" (continuous, width 2, values 0..1)
/// on port 3 and "k" (discrete, width 1, value 2) on port 0 of 4 ports.
struct TwoSignals {
  std::ostringstream text;
  CsvResults csv{text, {signal("x", 2, false), signal("k", 1, true)}};
  RowRecorder rows{&csv};
  std::vector<double> values{1.5, -2.0, 7.0};
  TwoSignals() { rows.lay_out({{OutputId{3}, {SignalIndex{0}, 2}}, {OutputId{0}, {SignalIndex{2}, 1}}}, 4); }
};

}  // namespace

TEST_CASE("a row holds every continuous signal and a discrete one only after the microstep that sent it") {
  TwoSignals run;
  const TimeResolution resolution;
  run.rows.write(RowTime::at_tick(0, resolution), 0, 0, run.values);  // before any token
  run.rows.token_sent(OutputId{0}, Tag{0, 0});                        // k sent at (0, 0)
  run.rows.write(RowTime::at_tick(0, resolution), 0, 1, run.values);  // its row: (0, 1)
  run.rows.write(RowTime::at_tick(0, resolution), 0, 2, run.values);  // not the next one
  run.rows.token_sent(OutputId{3}, Tag{0, 2});  // a continuous port's token changes nothing
  run.rows.write(RowTime::between_ticks(0.25), 0, 0, run.values);  // a row between events
  CHECK(run.text.str() ==
        "time,microstep,x[0],x[1],k\n"
        "0,0,1.5,-2,\n"
        "0,1,1.5,-2,7\n"
        "0,2,1.5,-2,\n"
        "0.25,0,1.5,-2,\n");
}

TEST_CASE("a token at another time is not on a row of this time, even at the same microstep") {
  TwoSignals run;
  const TimeResolution resolution;
  run.rows.token_sent(OutputId{0}, Tag{5, 0});
  run.rows.write(RowTime::at_tick(6, resolution), 6, 1, run.values);
  run.rows.write(RowTime::at_tick(5, resolution), 5, 1, run.values);
  const std::string text = run.text.str();
  CHECK(text.substr(text.find('\n') + 1) ==
        resolution.seconds_text(6) + ",1,1.5,-2,\n" + resolution.seconds_text(5) + ",1,1.5,-2,7\n");
}

TEST_CASE("a recorder without a sink writes nothing and takes tokens") {
  RowRecorder rows;
  CHECK_FALSE(rows.active());
  CHECK(rows.signals().empty());
  rows.lay_out({}, 4);
  rows.token_sent(OutputId{1}, Tag{0, 0});
  const std::vector<double> values{1.0};
  rows.write(RowTime::between_ticks(0), 0, 1, values);
  rows.flush();
  CHECK_THROWS_WITH_AS(rows.lay_out({{OutputId{0}, {SignalIndex{0}, 1}}}, 4),
                       "RowRecorder: columns without a results sink", std::invalid_argument);
}

TEST_CASE("a recorder refuses a layout that does not match its sink's signals") {
  std::ostringstream text;
  CsvResults csv{text, {signal("x", 2, false)}};
  RowRecorder rows{&csv};
  CHECK_THROWS_WITH_AS(rows.lay_out({}, 4), "RowRecorder: 0 columns for 1 recorded signals",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(rows.lay_out({{OutputId{4}, {SignalIndex{0}, 2}}}, 4),
                       "RowRecorder: the port of 'x' is out of range", std::invalid_argument);
  CHECK_THROWS_WITH_AS(rows.lay_out({{OutputId{1}, {SignalIndex{0}, 1}}}, 4),
                       "RowRecorder: 'x' has width 2, its values 1", std::invalid_argument);
}

}  // namespace ctde
