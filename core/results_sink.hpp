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
#include <vector>

#include "recorded_signal.hpp"

namespace ctde {

/// A row-by-row results consumer. Abstract; copy and move are left to the
/// implementations (protected here, so that a sink is never sliced).
class ResultsSink {
 public:
  virtual ~ResultsSink() = default;

  /// The recorded signals, in column order; fixed for the sink's life.
  [[nodiscard]] virtual const std::vector<RecordedSignal>& signals() const = 0;

  /// Starts a row at time `t` (s) and `microstep`. Each signal follows, in
  /// the order of signals(), through exactly one value() or absent() call;
  /// then end_row().
  virtual void begin_row(double t, std::uint32_t microstep) = 0;
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
