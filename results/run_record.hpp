#pragma once
/// One run's results as plain data: what the HDF5 and MAT writers store and
/// what a sweep worker sends back to the process that writes the file. The
/// signals come from a ColumnarResults (the in-memory sink); each signal's
/// values are kept column-major (element 0 of every row, then element 1...),
/// NaN where a discrete signal is absent.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/columnar_results.hpp"
#include "core/run_statistics.hpp"
#include "domains/ctde/run_result.hpp"

namespace ctde::results {

/// One recorded signal's values. Copyable value type.
struct SignalData {
  std::string name;            ///< "actor.port"
  std::uint32_t width = 1;     ///< elements per row
  std::vector<double> values;  ///< rows x width, column-major
  bool discrete = false;       ///< a discrete signal: NaN on the rows without a token
};

/// One run: its parameters, how it ended, its counters and its rows.
/// Copyable value type.
struct RunRecord {
  std::uint64_t index = 0;  ///< the run's index k in a sweep (0 for a single run)
  std::vector<std::pair<std::string, double>> parameters;  ///< swept values, in the sweep's order
  /// A run of a warm-started sweep: the time T (s) it branched from the
  /// warm-up at (its rows are those after T); unset otherwise.
  std::optional<double> warm_start_until;
  std::string status = "ok";  ///< to_string(RunStatus), or "error" for a model the run's values break
  std::string message;        ///< why it failed, or empty
  RunStatistics stats;
  double end_time = 0;   ///< s, where the run ended
  double wall_time = 0;  ///< s, the run's wall-clock time
  std::vector<double> time;
  std::vector<std::uint32_t> microstep;
  std::vector<SignalData> signals;
};

/// Fills `record`'s status, message, statistics, end time and rows from a run.
void fill_record(RunRecord& record, const RunResult& result, const ColumnarResults& rows);

/// The record as bytes (for a pipe or an MPI message) and back.
[[nodiscard]] std::vector<char> serialize(const RunRecord& record);
/// @throws std::runtime_error when `bytes` is not a whole record.
[[nodiscard]] RunRecord deserialize(const std::vector<char>& bytes);

}  // namespace ctde::results
