#pragma once
/// Where a run's results go. The director writes one row at each results
/// point (docs/semantics.md): the time and microstep, then the recorded
/// signals in order, each either its values (a continuous signal, or a
/// discrete one with a token at this tag) or absent (a discrete signal
/// without one). Implementations: CsvResults (core/csv_results.hpp, the
/// results file) and ColumnarResults (core/columnar_results.hpp, in memory).
///
/// Rows are written between solver steps and DE phases, never on the
/// right-hand-side path.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "format.hpp"
#include "recorded_signal.hpp"
#include "time.hpp"

namespace ctde {

/// The time of a row: in seconds, and the tick it is at, when it is at one
/// (every row but those of an `output_interval` grid that falls between
/// ticks). Copyable value type; it refers to the run's resolution, which
/// outlives the rows.
struct RowTime {
  double seconds = 0;
  /// Set: the row is at `tick` of this resolution.
  const TimeResolution* resolution = nullptr;
  Tick tick = 0;

  /// The row at `tick`.
  [[nodiscard]] static RowTime at_tick(Tick tick, const TimeResolution& resolution) {
    return {resolution.to_seconds(tick), &resolution, tick};
  }
  /// A row between ticks, at `seconds`.
  [[nodiscard]] static RowTime between_ticks(double seconds) { return {seconds, nullptr, 0}; }

  /// Appends the time as text: TimeResolution::append_seconds at a tick
  /// (exact at a resolution of 10^-n s), else the shortest text that reads
  /// back to `seconds`.
  void append_text(std::string& out) const {
    if (resolution != nullptr) {
      resolution->append_seconds(out, tick);
    } else {
      append_double(out, seconds);
    }
  }
};

/// A row-by-row results consumer. Abstract; copy and move are left to the
/// implementations (protected here, so that a sink is never sliced).
class ResultsSink {
 public:
  virtual ~ResultsSink() = default;

  /// The recorded signals, in column order; fixed for the sink's life.
  [[nodiscard]] virtual const std::vector<RecordedSignal>& signals() const = 0;

  /// Starts a row at `time` and `microstep`. Each signal follows, in
  /// the order of signals(), through exactly one value() or absent() call;
  /// then end_row().
  virtual void begin_row(const RowTime& time, std::uint32_t microstep) = 0;
  /// The next signal's values (its width of them).
  virtual void value(std::span<const double> values) = 0;
  /// The next signal is a discrete one without a token: `width` empty cells.
  virtual void absent(std::uint32_t width) = 0;
  /// Ends the row.
  virtual void end_row() = 0;
  /// Pushes what is buffered to its destination (the director calls it when the run ends).
  virtual void flush() = 0;
  /// True once a write has failed, for good: the caller ends the run and
  /// reports it (Director::set_stop_check).
  [[nodiscard]] virtual bool failed() const = 0;

 protected:
  ResultsSink() = default;
  ResultsSink(const ResultsSink&) = default;
  ResultsSink& operator=(const ResultsSink&) = default;
  ResultsSink(ResultsSink&&) = default;
  ResultsSink& operator=(ResultsSink&&) = default;
};

}  // namespace ctde
