#pragma once
/// Results in HDF5 (libhdf5, the serial flavour: only one process writes;
/// docs/sweep.md). One run is a group: datasets `time`, `microstep` and one
/// per recorded signal named `actor.port` (rows, or rows x width; NaN where a
/// discrete signal is absent), attributes `status`, `message`, each swept
/// parameter's value and the run's counters. A single run (`ctde run -o
/// x.h5`) is the root group; a sweep's runs are `/runs/<k>`, with a
/// `/summary` table of one row per run.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "results/run_record.hpp"

namespace ctde::results {

/// One row of a sweep's `/summary` table. Copyable value type.
struct SummaryRow {
  std::uint64_t index = 0;
  std::vector<double> values;  ///< the swept parameters' values, in the sweep's order
  std::string status;
  std::string message;
  std::uint64_t steps = 0;
  std::uint64_t events = 0;
  double wall_time = 0;
};

/// The summary row of `record`.
[[nodiscard]] SummaryRow summary_row(const RunRecord& record);

/// True when `name` is an attribute or summary column the writer uses
/// itself ("status", "steps"...): a swept parameter cannot be named so.
[[nodiscard]] bool is_reserved_name(std::string_view name);

/// An HDF5 file being written. Not copyable, not movable.
class Hdf5File {
 public:
  /// Creates (truncates) `path`.
  /// @throws WriteError naming the file.
  explicit Hdf5File(std::string path);
  /// Closes the file if close() was not called (errors then ignored).
  ~Hdf5File();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  Hdf5File(Hdf5File&&) = delete;
  Hdf5File& operator=(Hdf5File&&) = delete;

  /// A text attribute of the root group (UTF-8, variable length).
  /// @throws WriteError.
  void set_text(const std::string& name, const std::string& text);

  /// Writes `record` as the group `group` ("/" for the root, "/runs/3";
  /// missing parents are created).
  /// @throws WriteError naming the file and the dataset or attribute.
  void write_run(const std::string& group, const RunRecord& record);

  /// Writes the `/summary` table: columns `index`, each of `parameters`,
  /// `status`, `message`, `steps`, `events`, `wall_time`, one row per entry.
  /// @throws WriteError.
  void write_summary(const std::vector<std::string>& parameters, const std::vector<SummaryRow>& rows);

  /// Closes the file. @throws WriteError when the close (the final write) fails.
  void close();

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::int64_t file_ = -1;  ///< hid_t
};

}  // namespace ctde::results
