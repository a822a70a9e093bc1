#pragma once
/// The director's results rows: where each recorded signal's values are in
/// the run's buffers, the tag of each discrete signal's last token, and the
/// writing of a row to the ResultsSink (docs/semantics.md, "Results").
///
/// The director tells it two things: a token was sent on an output port
/// (token_sent), and a row is due at a time and microstep (write, with the
/// run's signal values). A discrete signal has a value on the row after the
/// microstep that sent it, and is absent on every other row; a continuous
/// signal always has one. Allocates only when constructed.

#include <cstdint>
#include <span>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/results_sink.hpp"
#include "../../core/run_buffers.hpp"
#include "../../core/time.hpp"

namespace ctde {

/// One recorded signal as a run lays it out: its output port and the slice
/// of the signal buffer that holds its values.
struct RecordedColumn {
  OutputId port;
  SignalSlice values;
};

/// The rows of one run, to `results` (null: no rows, and every call is a
/// no-op). Made before the run's layout, which reads signals(); laid out
/// once the buffers are. Not copyable (it refers to the sink); movable.
class RowRecorder {
 public:
  RowRecorder() = default;
  explicit RowRecorder(ResultsSink* results) : results_(results) {}
  RowRecorder(const RowRecorder&) = delete;
  RowRecorder& operator=(const RowRecorder&) = delete;
  RowRecorder(RowRecorder&&) = default;
  RowRecorder& operator=(RowRecorder&&) = default;
  ~RowRecorder() = default;

  /// Where the values are.
  /// @param columns per signal of signals(): its port and values.
  /// @param output_ports the run's number of output ports (OutputId bound).
  /// @throws std::invalid_argument when `columns` does not match the
  ///         signals (their number, a width), or a port is out of range.
  void lay_out(std::vector<RecordedColumn> columns, std::size_t output_ports);

  /// The recorded signals, in column order (none without a sink).
  [[nodiscard]] const std::vector<RecordedSignal>& signals() const;

  /// True when the run has a results sink.
  [[nodiscard]] bool active() const { return results_ != nullptr; }

  /// A token on `port`, sent at microstep n of `time`: a recorded discrete
  /// signal on it has its value on the row at (time, n + 1). Inline: every
  /// token of the run passes here.
  void token_sent(OutputId port, Tag sent) {
    if (column_of_.empty()) return;
    const int column = column_of_[port.index()];
    if (column >= 0) token_tag_[static_cast<std::size_t>(column)] = {sent.time, sent.microstep + 1};
  }

  /// A row at `time` (its tick is the current event time `now`, or a time
  /// between events for an output_interval row) and `microstep`, with the
  /// values in `signals` (the run's signal buffer).
  void write(const RowTime& time, Tick now, std::uint32_t microstep, std::span<const double> signals);

  /// output_interval rows are written up to this time (seconds) in the
  /// current phase.
  [[nodiscard]] double interval_until() const { return until_; }
  void set_interval_until(double t) { until_ = t; }

  /// Pushes what the sink buffers (at the run's end).
  void flush() {
    if (results_ != nullptr) results_->flush();
  }

 private:
  ResultsSink* results_ = nullptr;
  std::vector<RecordedColumn> columns_;
  std::vector<int> column_of_;  ///< per output port: its column, or -1
  std::vector<Tag> token_tag_;  ///< per column: the row its last token is on
  double until_ = 0;
};

}  // namespace ctde
