#pragma once
/// The results file (docs/model-format.md, "Results file"): a CSV with
/// `time,microstep,` and one column per scalar element of each recorded
/// signal (core/recorded_signal.hpp names them). Numbers read back to the
/// same double; a discrete column holds its token on rows at its event
/// tags and is empty elsewhere.

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "results_sink.hpp"

namespace ctde {

/// Writes the results as CSV text, a line per row. Not copyable; movable.
class CsvResults final : public ResultsSink {
 public:
  /// Whether the sink writes the header line: a file continued after a
  /// checkpoint has it already (docs/snapshots.md, "Checkpoints").
  enum class Header { kWrite, kAlreadyWritten };
  /// Writes to `out` (which must outlive the sink); writes the header line
  /// unless `header` says it is there.
  CsvResults(std::ostream& out, std::vector<RecordedSignal> signals, Header header = Header::kWrite);
  /// Writes to file `path` (truncated); writes the header line.
  /// @throws std::runtime_error when it cannot be opened.
  CsvResults(const std::string& path, std::vector<RecordedSignal> signals);
  CsvResults(CsvResults&&) = default;
  CsvResults& operator=(CsvResults&&) = default;
  CsvResults(const CsvResults&) = delete;
  CsvResults& operator=(const CsvResults&) = delete;
  ~CsvResults() override = default;

  [[nodiscard]] const std::vector<RecordedSignal>& signals() const override { return signals_; }
  void begin_row(const RowTime& time, std::uint32_t microstep) override;
  void value(std::span<const double> values) override;
  void absent(std::uint32_t width) override;
  /// Writes the line.
  void end_row() override;
  void flush() override;
  /// The stream's state, which stays failed once a write or a flush has failed.
  [[nodiscard]] bool failed() const override { return out_->fail(); }

 private:
  void header();
  std::unique_ptr<std::ofstream> file_;
  std::ostream* out_;
  std::vector<RecordedSignal> signals_;
  std::string line_;  ///< the row being written; its capacity is kept from row to row
};

}  // namespace ctde
