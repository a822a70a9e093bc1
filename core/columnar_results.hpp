#pragma once
/// Results in memory, by column: what the results file holds (CsvResults),
/// as numbers a C++ caller reads without parsing text. One contiguous
/// std::vector<double> per column, one column per scalar element of each
/// recorded signal, named as in the CSV header (`actor.port`,
/// `actor.port[i]`), plus the time and microstep columns; a discrete
/// column holds NaN on rows without its token (an empty CSV cell).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "results_sink.hpp"

namespace ctde {

/// Collects rows into columns. Copyable and movable value type.
class ColumnarResults final : public ResultsSink {
 public:
  /// Room for `reserve_rows` rows is reserved up front; the columns grow
  /// (amortized, like any vector) beyond it.
  explicit ColumnarResults(std::vector<RecordedSignal> signals, std::size_t reserve_rows = 1024);
  ColumnarResults(const ColumnarResults&) = default;
  ColumnarResults& operator=(const ColumnarResults&) = default;
  ColumnarResults(ColumnarResults&&) = default;
  ColumnarResults& operator=(ColumnarResults&&) = default;
  ~ColumnarResults() override = default;

  [[nodiscard]] const std::vector<RecordedSignal>& signals() const override { return signals_; }
  void begin_row(const RowTime& time, std::uint32_t microstep) override;
  void value(std::span<const double> values) override;
  void absent(std::uint32_t width) override;
  void end_row() override;
  void flush() override {}
  /// Never: memory that cannot be had throws std::bad_alloc instead.
  [[nodiscard]] bool failed() const override { return false; }

  /// Whole rows written so far.
  [[nodiscard]] std::size_t rows() const { return time_.size(); }
  /// The time of each row, s.
  [[nodiscard]] const std::vector<double>& time() const { return time_; }
  /// The microstep of each row.
  [[nodiscard]] const std::vector<std::uint32_t>& microstep() const { return microstep_; }

  /// The number of signal columns (time and microstep not counted).
  [[nodiscard]] std::size_t columns() const { return columns_.size(); }
  /// The signal columns' names, in order (the CSV header after `time,microstep`).
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  /// Signal column `index` (< columns()). @throws std::out_of_range otherwise.
  [[nodiscard]] const std::vector<double>& column(std::size_t index) const;
  /// The signal column named `name` ("h.out", "x.out[1]").
  /// @throws std::out_of_range naming it when there is none.
  [[nodiscard]] const std::vector<double>& column(std::string_view name) const;
  /// The index of the column named `name`, or columns() when there is none.
  [[nodiscard]] std::size_t find(std::string_view name) const;

 private:
  std::vector<RecordedSignal> signals_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::vector<double> time_;
  std::vector<std::uint32_t> microstep_;
  std::vector<std::vector<double>> columns_;
  std::size_t next_ = 0;  ///< the column the next value() or absent() fills
};

}  // namespace ctde
