#pragma once
/// `ctde sweep MODEL SWEEP -o results.h5`: many runs of one model, with the
/// values of a sweep file, on local worker processes or MPI ranks, into one
/// HDF5 file (docs/sweep.md).

#include <cstdint>
#include <string>

#include "run/run_setup.hpp"

namespace ctde::cli {

/// What `ctde sweep` was asked to do. Copyable value type.
struct SweepRequest {
  std::string model;
  std::string sweep;
  std::string output;    ///< the HDF5 file (.h5 or .hdf5)
  unsigned jobs = 0;     ///< local worker processes; 0: one per core
  bool quiet = false;    ///< no progress line and no summary
  ResultsFilter filter;  ///< what every run keeps (--record, --rows), as `ctde run` does
  int progress_fd = 2;
};

/// The progress line: `runs 120/1000  failed 2  ETA 0:00:13`. `eta` < 0: unknown ("--:--:--").
[[nodiscard]] std::string format_sweep_progress(std::uint64_t done, std::uint64_t total, std::uint64_t failed,
                                                double eta);

/// Checks the model and the sweep file (nothing runs when they are wrong),
/// then runs every run and writes the file (temporary name, renamed when
/// complete). Under an MPI launcher (sweep::launched_by_mpi) the ranks share
/// the runs and rank 0 writes; `jobs` is then ignored.
/// @return kExitOk when every run ended well ("ok" or "stopped"),
///         kExitRunFailed when some failed (they are in the file), 128 +
///         signal when interrupted (the runs done so far are in the file).
/// @throws ModelError for a bad model or sweep file, CommandError for an
///         output that cannot be written.
[[nodiscard]] int sweep_command(const SweepRequest& request);

}  // namespace ctde::cli
