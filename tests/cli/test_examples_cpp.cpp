// The C++ examples of the user guide (examples/cpp/), run as programs and
// checked against closed-form answers: the bouncing ball's impacts and the
// thermostat's switching times.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_helpers.hpp"

namespace {

/// A results CSV: the header's signal columns and the rows (NaN: an empty cell).
struct Results {
  std::vector<std::string> columns;
  struct Row {
    double t = 0;
    int n = 0;
    std::vector<double> values;
  };
  std::vector<Row> rows;

  [[nodiscard]] std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return i;
    }
    FAIL("no column " << name);
    return 0;
  }
  /// The rows where discrete column `name` holds a token, as (t, token).
  [[nodiscard]] std::vector<std::pair<double, double>> events(const std::string& name) const {
    const std::size_t c = column(name);
    std::vector<std::pair<double, double>> out;
    for (const auto& row : rows) {
      if (!std::isnan(row.values[c])) out.emplace_back(row.t, row.values[c]);
    }
    return out;
  }
};

Results parse_results(const std::string& text) {
  Results results;
  std::istringstream in(text);
  std::string line;
  REQUIRE(std::getline(in, line));
  const auto header = ctde::test::split_csv_line(line);
  REQUIRE(header.size() >= 2);
  CHECK(header[0] == "time");
  CHECK(header[1] == "microstep");
  results.columns.assign(header.begin() + 2, header.end());
  while (std::getline(in, line)) {
    const auto cells = ctde::test::split_csv_line(line);
    REQUIRE(cells.size() == header.size());
    Results::Row row;
    row.t = std::stod(cells[0]);
    row.n = std::stoi(cells[1]);
    for (std::size_t i = 2; i < cells.size(); ++i) {
      row.values.push_back(cells[i].empty() ? std::nan("") : std::stod(cells[i]));
    }
    results.rows.push_back(std::move(row));
  }
  return results;
}

/// Runs an example program with `arguments`; returns what it printed and its exit status.
ctde::test::CommandResult run_program(const std::string& program, const std::string& arguments) {
  return ctde::test::run_shell(program + " " + arguments + " 2>&1");
}

/// The room and the thermostat of examples/cpp/thermostat.cpp with the
/// parameters its model gives them. T' = k (ambient - T) + rate u relaxes to
/// T_u = ambient + rate u / k.
struct RoomModel {
  double k = 0.5;       ///< 1/h
  double ambient = 12;  ///< the outside temperature
  double rate = 10;     ///< K/h at full heating
  double low = 19;      ///< the heater goes on when T falls through it
  double high = 21;     ///< and off when T rises through it
  double initial = 15;  ///< T(0), the heater on

  /// Hours for T to go from `from` to `to` with the heater at u:
  /// (1/k) ln((T_u - from) / (T_u - to)).
  [[nodiscard]] double duration(double from, double to, double u) const {
    const double target = ambient + rate * u / k;
    return std::log((target - from) / (target - to)) / k;
  }
};

}  // namespace

#if defined(CTDE_EXAMPLE_FIRST_MODEL) && defined(CTDE_EXAMPLE_THERMOSTAT)

TEST_CASE("the C++ bouncing ball of the user guide bounces at the closed-form impact times") {
  const auto csv = ctde::test::scratch_file("ctde_examples_cpp", "bouncing_ball.csv");
  const auto trace = ctde::test::scratch_file("ctde_examples_cpp", "bouncing_ball.jsonl");
  const auto run = run_program(CTDE_EXAMPLE_FIRST_MODEL, csv.string() + " " + trace.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("status ok") != std::string::npos);

  // A drop from h0: the first impact at t1 = sqrt(2 h0 / g) with speed v1 = g t1;
  // the k-th rebound leaves at e^k v1 and flies 2 e^k v1 / g.
  const double g = 9.81;
  const double e = 0.8;
  const double h0 = 10.0;
  const double stop = 10.0;
  const double v1 = std::sqrt(2 * g * h0);
  std::vector<double> impacts{v1 / g};
  std::vector<double> speeds{v1};  // just before each impact
  while (impacts.back() + 2 * e * speeds.back() / g < stop) {
    impacts.push_back(impacts.back() + 2 * e * speeds.back() / g);
    speeds.push_back(e * speeds.back());
  }

  const Results results = parse_results(ctde::test::read_text(csv));
  const auto ground = results.events("ground.out");
  REQUIRE(ground.size() == impacts.size());
  const std::size_t v = results.column("v.out");
  for (std::size_t k = 0; k < impacts.size(); ++k) {
    CHECK(ground[k].first == doctest::Approx(impacts[k]).epsilon(1e-7));
    CHECK(std::abs(ground[k].second) < 1e-6);  // the height at the impact
    // The two sides of the impact: v⁻ on the row (te, 0), v⁺ = -e v⁻ on the last row at te.
    double before = NAN;
    double after = NAN;
    for (const auto& row : results.rows) {
      if (row.t != ground[k].first) continue;
      if (row.n == 0) before = row.values[v];
      after = row.values[v];
    }
    CHECK(before == doctest::Approx(-speeds[k]).epsilon(1e-6));
    CHECK(after == doctest::Approx(e * speeds[k]).epsilon(1e-6));
  }

  // The trace has one located state event per impact.
  const std::string lines = ctde::test::read_text(trace);
  std::size_t state_events = 0;
  for (std::size_t at = lines.find("\"kind\":\"state_event\""); at != std::string::npos;
       at = lines.find("\"kind\":\"state_event\"", at + 1)) {
    ++state_events;
  }
  CHECK(state_events == impacts.size());
}

TEST_CASE("the C++ room and thermostat of the user guide switch at the closed-form times") {
  const auto csv = ctde::test::scratch_file("ctde_examples_cpp", "thermostat.csv");
  const auto run = run_program(CTDE_EXAMPLE_THERMOSTAT, csv.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);

  const RoomModel room;
  const double stop = 5;
  std::vector<std::pair<double, double>> expected;  // (time, heater after it)
  double t = room.duration(room.initial, room.high, 1);
  while (t < stop) {
    const bool heating = expected.empty() || expected.back().second == 1.0;
    expected.emplace_back(t, heating ? 0.0 : 1.0);
    t += heating ? room.duration(room.high, room.low, 0) : room.duration(room.low, room.high, 1);
  }
  REQUIRE(expected.size() >= 6);

  const Results results = parse_results(ctde::test::read_text(csv));
  const auto switches = results.events("thermostat.out");
  REQUIRE(switches.size() == expected.size());
  const std::size_t temperature = results.column("room.temperature");
  const std::size_t heater = results.column("heater.out");
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(switches[i].first == doctest::Approx(expected[i].first).epsilon(1e-7));
    CHECK(switches[i].second == expected[i].second);
    for (const auto& row : results.rows) {  // at the switch: T at the threshold, the heater switched
      if (row.t != switches[i].first) continue;
      CHECK(row.values[temperature] ==
            doctest::Approx(expected[i].second == 0.0 ? room.high : room.low).epsilon(1e-8));
      if (&row == &results.rows.back() || (&row + 1)->t != row.t)
        CHECK(row.values[heater] == expected[i].second);
    }
  }
}

#else

TEST_CASE("the C++ examples are not built (CTDE_BUILD_EXAMPLES=OFF)" * doctest::skip()) {}

#endif
