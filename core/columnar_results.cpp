#include "core/columnar_results.hpp"

#include <cassert>
#include <limits>
#include <stdexcept>

namespace ctde {

ColumnarResults::ColumnarResults(std::vector<RecordedSignal> signals, std::size_t reserve_rows)
    : signals_(std::move(signals)), names_(column_names(signals_)), columns_(names_.size()) {
  for (std::size_t i = 0; i < names_.size(); ++i) by_name_.emplace(names_[i], i);
  time_.reserve(reserve_rows);
  microstep_.reserve(reserve_rows);
  for (auto& column : columns_) column.reserve(reserve_rows);
}

void ColumnarResults::begin_row(const RowTime& time, std::uint32_t microstep) {
  assert(next_ == 0 && "begin_row inside a row");
  time_.push_back(time.seconds);
  microstep_.push_back(microstep);
}

void ColumnarResults::value(std::span<const double> values) {
  assert(next_ + values.size() <= columns_.size() && "more values than columns");
  for (const double v : values) columns_[next_++].push_back(v);
}

void ColumnarResults::absent(std::uint32_t width) {
  assert(next_ + width <= columns_.size() && "more values than columns");
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::uint32_t i = 0; i < width; ++i) columns_[next_++].push_back(nan);
}

void ColumnarResults::end_row() {
  assert(next_ == columns_.size() && "a row ended before its last column");
  next_ = 0;
}

const std::vector<double>& ColumnarResults::column(std::size_t index) const {
  if (index >= columns_.size()) {
    throw std::out_of_range("results column " + std::to_string(index) + " of " +
                            std::to_string(columns_.size()));
  }
  return columns_[index];
}

const std::vector<double>& ColumnarResults::column(std::string_view name) const {
  const std::size_t index = find(name);
  if (index == columns_.size()) throw std::out_of_range("no results column '" + std::string(name) + "'");
  return columns_[index];
}

std::size_t ColumnarResults::find(std::string_view name) const {
  const auto found = by_name_.find(std::string(name));
  return found == by_name_.end() ? columns_.size() : found->second;
}

}  // namespace ctde
