#pragma once
/// Which of a run's rows reach the results (`ctde run --rows`): a results
/// sink in front of another that passes some rows on.
///
/// - all: every row (docs/semantics.md, "Recording");
/// - output: the rows on the `output_interval` grid, start + k h (the row
///   (t, 0) there), and nothing else;
/// - events: the rows of the tags where something happened: every (t, n)
///   with n > 0 and the row (t, 0) before them (the values just before the
///   events at t);
/// - final: the last row of the run only.
///
/// Rows held back (the (t, 0) row until the next tells whether events
/// follow; the last row until the run ends) are copied into a buffer sized
/// once: nothing allocates per row.

#include <optional>
#include <string>
#include <vector>

#include "results_sink.hpp"

namespace ctde {

enum class RowSelection { kAll, kOutput, kEvents, kFinal };

/// "all", "output", "events", "final"; nothing for another text.
[[nodiscard]] std::optional<RowSelection> parse_row_selection(const std::string& text);

/// Passes the selected rows of a run to `next` (which must outlive it). Not
/// copyable (it refers to `next`).
class SelectedRows final : public ResultsSink {
 public:
  /// `start` and `interval`: the run's start time and output_interval
  /// (needed by kOutput only).
  SelectedRows(ResultsSink& next, RowSelection selection, double start = 0,
               std::optional<double> interval = std::nullopt);
  SelectedRows(const SelectedRows&) = delete;
  SelectedRows& operator=(const SelectedRows&) = delete;
  ~SelectedRows() override = default;

  [[nodiscard]] const std::vector<RecordedSignal>& signals() const override { return next_.signals(); }
  void begin_row(const RowTime& time, std::uint32_t microstep) override;
  void value(std::span<const double> values) override;
  void absent(std::uint32_t width) override;
  void end_row() override;
  /// Passes on the row held back for kFinal, then flushes `next`.
  void flush() override;
  [[nodiscard]] bool failed() const override { return next_.failed(); }

 private:
  /// A row held back: its tag, each cell's value, whether each signal is present.
  struct Held {
    bool full = false;
    RowTime time;
    std::uint32_t microstep = 0;
    std::vector<double> cells;
    std::vector<std::uint8_t> present;
  };
  [[nodiscard]] bool on_grid(const RowTime& time) const;
  void pass(const Held& row);

  ResultsSink& next_;
  RowSelection selection_;
  double start_;
  std::optional<double> interval_;
  enum class Fate { kPass, kHold, kDrop } fate_ = Fate::kDrop;  ///< of the row being written
  Held row_;                                                    ///< the row being written, when held
  Held waiting_;                                                ///< the row held back
  std::size_t cell_ = 0;
  std::size_t signal_ = 0;
};

}  // namespace ctde
