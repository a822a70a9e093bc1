#include "actors/sources/time_table.hpp"
#include "core/csv_table.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

TimeTable::TimeTable(std::string name) : Actor(std::move(name), "TimeTable", TimeMode::kContinuous) {
  out_ = declare_output("out", PortKind::kContinuous);
  points_ = declare_optional_parameter("points", ParamKind::kMatrix);
  file_ = declare_optional_parameter("file", ParamKind::kFile);
  interpolation_ = declare_parameter("interpolation", ParamKind::kString, "linear");
  set_feedthrough(false);
}

void TimeTable::configure(const ParameterScope& scope) {
  (void)scope;
  if (text(interpolation_) != "linear" && text(interpolation_) != "hold") {
    fail(interpolation_, "must be \"linear\" or \"hold\", got \"" + text(interpolation_) + "\"");
  }
  const bool has_points = is_set(points_);
  const bool has_file = is_set(file_);
  if (has_points == has_file) fail("give exactly one of 'points' and 'file'");
  if (has_file) {
    try {
      table_ = read_csv_table(text(file_));
    } catch (const ModelError& e) {
      fail(file_, e.message());
    }
  } else {
    table_ = matrix(points_);
  }
  if (table_.cols < 2) fail("each point needs a time and at least one value: [t, v...]");
  if (table_.rows < 1) fail("needs at least one point");
  for (std::size_t r = 1; r < table_.rows; ++r) {
    if (table_(r, 0) < table_(r - 1, 0)) {
      fail("times must not decrease: point " + std::to_string(r) + " has t = " +
           format_double(table_(r, 0)) + " after t = " + format_double(table_(r - 1, 0)));
    }
    if (r >= 2 && table_(r, 0) == table_(r - 2, 0)) {
      fail("time " + format_double(table_(r, 0)) + " appears three times; a jump is one time given twice");
    }
  }
  set_width(out_, static_cast<int>(table_.cols - 1));
}

}  // namespace ctde
