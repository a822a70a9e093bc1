#pragma once
/// The pieces of `ctde sweep` that ctde.sweep() (python/ctde/_sweep.py)
/// runs, locally or on Dask workers: the sweep file (SweepSpec: run k's
/// values and random-actor seeds), the checked model (SweepModel, with the
/// warm-up of a warm-started sweep, sweep/warm_start.hpp), one run
/// in memory (sweep::run_one, with the GIL released) giving a RunRecord
/// (numpy views of its rows; pickled as results::serialize's bytes, so a
/// Dask worker sends it back whole), and the HDF5 sweep file, written by
/// the command's own writer.

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/hdf5_file.hpp"
#include "results/run_record.hpp"
#include "run/output_file.hpp"

namespace ctde::python {

/// A sweep file being written as `ctde sweep -o` writes it: under a
/// temporary name, renamed by close(). Not copyable, not movable.
class SweepFileWriter {
 public:
  /// Checks the paths (as the command does: an output that is a folder, in
  /// a missing folder, or one of the inputs is refused), creates the file
  /// and writes the root attributes `model`, `sweep` and `model_file`.
  /// @param inputs (name, path) of the input files, for the check.
  /// @throws OSError (a WriteError or a CommandError) naming the file.
  SweepFileWriter(const std::string& path, const std::vector<std::pair<std::string, std::string>>& inputs,
                  const std::string& model_file, const std::string& model_text,
                  const std::string& sweep_text);
  ~SweepFileWriter() = default;
  SweepFileWriter(const SweepFileWriter&) = delete;
  SweepFileWriter& operator=(const SweepFileWriter&) = delete;
  SweepFileWriter(SweepFileWriter&&) = delete;
  SweepFileWriter& operator=(SweepFileWriter&&) = delete;

  /// Writes `record` as /runs/<index> and keeps its summary row.
  /// @throws OSError.
  void add(const results::RunRecord& record);
  /// Writes /summary (rows in index order; columns `names`, the swept
  /// parameters), closes the file and renames it onto its name.
  /// @throws OSError.
  void close(const std::vector<std::string>& names);

 private:
  OutputFile file_;
  std::optional<results::Hdf5File> hdf5_;
  std::vector<results::SummaryRow> summary_;
};

/// Binds SweepSpec, SweepModel (with the warm-up's bytes), RunRecord, the
/// checks, warm_up (the warm-up's bytes), run_one and SweepFileWriter into
/// `module`.
void bind_sweep(pybind11::module_& module);

}  // namespace ctde::python
