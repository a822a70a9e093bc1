// ColumnarResults (core/columnar_results.hpp): one vector per column, the
// same numbers as the CSV text.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/columnar_results.hpp"
#include "core/csv_results.hpp"
#include "core/model_file.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde;

namespace {

/// Hands every call to two sinks: one run fills both.
class TeeResults final : public ResultsSink {
 public:
  TeeResults(ResultsSink& a, ResultsSink& b) : a_(a), b_(b) {}
  [[nodiscard]] const std::vector<RecordedSignal>& signals() const override { return a_.signals(); }
  void begin_row(const RowTime& time, std::uint32_t microstep) override {
    a_.begin_row(time, microstep);
    b_.begin_row(time, microstep);
  }
  void value(std::span<const double> values) override {
    a_.value(values);
    b_.value(values);
  }
  void absent(std::uint32_t width) override {
    a_.absent(width);
    b_.absent(width);
  }
  void end_row() override {
    a_.end_row();
    b_.end_row();
  }
  void flush() override {
    a_.flush();
    b_.flush();
  }
  [[nodiscard]] bool failed() const override { return a_.failed() || b_.failed(); }

 private:
  ResultsSink& a_;
  ResultsSink& b_;
};

/// Runs `model` with its director options into a CSV and a columnar sink
/// at once, then checks that the columns hold every cell of the text: the
/// same header, the same rows, each number the same double (the CSV text
/// reads back exactly) and NaN for each empty cell. Returns the columns.
ColumnarResults check_same_as_csv(Model& model, std::size_t expected_discrete_columns) {
  const FlatModel flat = validate(model);
  const RunOptions options = make_run_options(model.director(), model.parameters());
  std::ostringstream text;
  ColumnarResults columns(resolve_record(flat, model.record()), 16);  // small: the columns grow
  {
    CsvResults csv(text, resolve_record(flat, model.record()));
    TeeResults both(csv, columns);
    Director director(flat, options, model.name(), nullptr, &both);
    REQUIRE(director.run().status == RunStatus::kOk);
  }
  std::istringstream in(text.str());
  std::string line;
  REQUIRE(std::getline(in, line));
  const std::vector<std::string> header = ctde::test::split_csv_line(line);
  REQUIRE(header.size() == columns.columns() + 2);
  CHECK(header[0] == "time");
  CHECK(header[1] == "microstep");
  for (std::size_t c = 0; c < columns.columns(); ++c) {
    CHECK(header[c + 2] == columns.names()[c]);
    CHECK(columns.find(header[c + 2]) == c);
    CHECK(&columns.column(header[c + 2]) == &columns.column(c));
    CHECK(columns.column(c).size() == columns.rows());
  }
  std::size_t row = 0;
  std::size_t empty_cells = 0;
  std::vector<bool> discrete_seen(columns.columns(), false);
  for (; std::getline(in, line); ++row) {
    CAPTURE(line);
    REQUIRE(row < columns.rows());
    const std::vector<std::string> cells = ctde::test::split_csv_line(line);
    REQUIRE(cells.size() == header.size());
    CHECK(std::stod(cells[0]) == columns.time()[row]);
    CHECK(std::stoul(cells[1]) == columns.microstep()[row]);
    for (std::size_t c = 0; c < columns.columns(); ++c) {
      const double value = columns.column(c)[row];
      if (cells[c + 2].empty()) {
        CHECK(std::isnan(value));
        ++empty_cells;
        discrete_seen[c] = true;
      } else {
        CHECK(std::stod(cells[c + 2]) == value);
      }
    }
  }
  CHECK(row == columns.rows());
  CHECK(row > 50);
  CHECK(empty_cells > 0);
  CHECK(static_cast<std::size_t>(std::count(discrete_seen.begin(), discrete_seen.end(), true)) ==
        expected_discrete_columns);
  return columns;
}

}  // namespace

TEST_CASE("ColumnarResults keeps a vector per element, NaN where a discrete signal is absent") {
  ColumnarResults results({{"x.out", FlatIndex{0}, 0, 1, false}, {"s.out", FlatIndex{1}, 0, 2, true}});
  CHECK(results.columns() == 3);
  CHECK(results.names() == std::vector<std::string>{"x.out", "s.out[0]", "s.out[1]"});
  CHECK(results.rows() == 0);
  const std::array<double, 1> x{0.25};
  const std::array<double, 2> s{1, -2};
  results.begin_row(RowTime::between_ticks(0), 0);
  results.value(x);
  results.absent(2);
  results.end_row();
  results.begin_row(RowTime::between_ticks(0), 1);
  results.value(x);
  results.value(s);
  results.end_row();
  results.flush();
  CHECK_FALSE(results.failed());
  REQUIRE(results.rows() == 2);
  CHECK(results.time() == std::vector<double>{0, 0});
  CHECK(results.microstep() == std::vector<std::uint32_t>{0, 1});
  CHECK(results.column("x.out") == std::vector<double>{0.25, 0.25});
  CHECK(std::isnan(results.column("s.out[0]")[0]));
  CHECK(std::isnan(results.column(2)[0]));
  CHECK(results.column("s.out[0]")[1] == 1);
  CHECK(results.column(2)[1] == -2);
  CHECK(results.find("s.out") == results.columns());  // a width-2 signal's columns are its elements
  CHECK_THROWS_AS((void)results.column("s.out"), std::out_of_range);
  CHECK_THROWS_AS((void)results.column(3), std::out_of_range);
  const ColumnarResults copy = results;  // a value: the results outlive the run
  CHECK(copy.column(0) == results.column(0));
}

TEST_CASE("ColumnarResults holds every cell of the CSV text for the bouncing ball") {
  Model model =
      load_model_file(std::string(CTDE_SOURCE_DIR) + "/examples/models/bouncing_ball.json", builtin_actors());
  const ColumnarResults columns = check_same_as_csv(model, 1);
  CHECK(columns.names() == std::vector<std::string>{"h.out", "v.out", "ground.out"});
  // The ball falls from h0 = 10 and bounces: rows at the impacts (t, 1) carry the event.
  CHECK(columns.column("h.out").front() == 10.0);
  std::size_t impacts = 0;
  for (const double g : columns.column("ground.out")) impacts += std::isnan(g) ? 0 : 1;
  CHECK(impacts >= 5);
}

TEST_CASE("ColumnarResults holds every cell of the CSV text for a width-2 discrete signal") {
  // x = t (1, -2), sampled every 0.3 s from 0.1: s.out holds x at the ticks.
  Model model = load_model_text(R"({"ctde": 1, "name": "sampled_vector",
    "director": {"stop_time": 3, "output_interval": 0.05},
    "actors": [{"name": "rate", "type": "Constant", "params": {"value": [1, -2]}},
               {"name": "x", "type": "Integrator"},
               {"name": "s", "type": "PeriodicSampler", "params": {"period": 0.3, "offset": 0.1}}],
    "connections": [["rate.out", "x.in"], ["x.out", "s.in"]],
    "record": ["x.out", "s.out"]})",
                                "test.json", builtin_actors());
  const ColumnarResults columns = check_same_as_csv(model, 2);
  CHECK(columns.names() == std::vector<std::string>{"x.out[0]", "x.out[1]", "s.out[0]", "s.out[1]"});
  std::size_t samples = 0;
  for (std::size_t row = 0; row < columns.rows(); ++row) {
    const double s0 = columns.column("s.out[0]")[row];
    CHECK(std::isnan(s0) == std::isnan(columns.column("s.out[1]")[row]));  // a token has both elements
    if (std::isnan(s0)) continue;
    ++samples;
    CHECK(s0 == doctest::Approx(columns.time()[row]).epsilon(1e-9));
    CHECK(columns.column("s.out[1]")[row] == doctest::Approx(-2 * columns.time()[row]).epsilon(1e-9));
  }
  CHECK(samples == 10);  // 0.1, 0.4, ..., 2.8
}
