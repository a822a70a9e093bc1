// A run's record: filled from the in-memory columns, and through bytes and back.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "results/run_record.hpp"

using ctde::results::RunRecord;

namespace {

RunRecord sample_record() {
  ctde::ColumnarResults rows(
      {{"h.out", ctde::FlatIndex{0}, 0, 1, false}, {"x.out", ctde::FlatIndex{1}, 0, 2, true}});
  const std::array<double, 1> h{{2.5}};
  const std::array<double, 2> x{{1, 2}};
  rows.begin_row(ctde::RowTime::between_ticks(0), 0);
  rows.value(h);
  rows.absent(2);
  rows.end_row();
  rows.begin_row(ctde::RowTime::between_ticks(0.5), 1);
  rows.value(h);
  rows.value(x);
  rows.end_row();
  ctde::RunResult result;
  result.status = ctde::RunStatus::kError;
  result.message = "Zeno";
  result.time = 0.5;
  result.stats.steps = 3;
  result.stats.events = 4;
  RunRecord record;
  record.index = 17;
  record.parameters = {{"e", 0.5}, {"h0", 10}};
  record.wall_time = 0.25;
  ctde::results::fill_record(record, result, rows);
  return record;
}

}  // namespace

TEST_CASE("a record holds each signal column-major with NaN where a discrete signal is absent") {
  const RunRecord r = sample_record();
  CHECK(r.status == "error");
  CHECK(r.message == "Zeno");
  CHECK(r.end_time == 0.5);
  CHECK(r.time == std::vector<double>{0, 0.5});
  CHECK(r.microstep == std::vector<std::uint32_t>{0, 1});
  REQUIRE(r.signals.size() == 2);
  CHECK(r.signals[0].values == std::vector<double>{2.5, 2.5});
  CHECK_FALSE(r.signals[0].discrete);
  CHECK(r.signals[1].discrete);
  CHECK(r.signals[1].width == 2);
  REQUIRE(r.signals[1].values.size() == 4);  // element 0 of both rows, then element 1
  CHECK(std::isnan(r.signals[1].values[0]));
  CHECK(r.signals[1].values[1] == 1);
  CHECK(std::isnan(r.signals[1].values[2]));
  CHECK(r.signals[1].values[3] == 2);
}

TEST_CASE("a record comes back whole from its bytes, and cut bytes are refused") {
  const RunRecord r = sample_record();
  const std::vector<char> bytes = ctde::results::serialize(r);
  const RunRecord back = ctde::results::deserialize(bytes);
  CHECK(back.index == 17);
  CHECK(back.parameters == r.parameters);
  CHECK(back.status == r.status);
  CHECK(back.message == r.message);
  CHECK(back.stats.steps == 3);
  CHECK(back.stats.events == 4);
  CHECK(back.wall_time == 0.25);
  CHECK(back.time == r.time);
  CHECK(back.microstep == r.microstep);
  REQUIRE(back.signals.size() == 2);
  CHECK(back.signals[1].name == "x.out");
  CHECK(back.signals[1].width == 2);
  CHECK(back.signals[1].discrete);
  CHECK_FALSE(back.signals[0].discrete);
  CHECK(std::isnan(back.signals[1].values[0]));
  CHECK(back.signals[1].values[3] == 2);
  for (const std::size_t cut : {std::size_t{0}, std::size_t{5}, bytes.size() / 2, bytes.size() - 1}) {
    const std::vector<char> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    CHECK_THROWS_AS((void)ctde::results::deserialize(part), std::runtime_error);
  }
}
