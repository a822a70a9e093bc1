#pragma once
/// `ctde run MODEL.json`: run a model, writing results and a trace.

#include <optional>
#include <string>
#include <vector>

#include "core/model_file.hpp"
#include "core/trace.hpp"
#include "domains/ctde/run_result.hpp"
#include "run/run_setup.hpp"

namespace ctde::cli {

/// The results file's format, chosen by its extension.
enum class ResultsFormat {
  kCsv,   ///< anything but the two below, and "-" (standard output)
  kHdf5,  ///< .h5, .hdf5 (docs/sweep.md, "Results files")
  kMat,   ///< .mat, MATLAB version 5 through matio
};

/// The format of results file `path`.
[[nodiscard]] ResultsFormat results_format(const std::string& path);

/// What `ctde run` was asked to do. Copyable value type.
struct RunRequest {
  std::string model;
  std::string results;  ///< results path (CSV, .h5/.hdf5 or .mat: results_format), "-" for stdout, or empty
  std::string trace;    ///< JSON Lines path, "-" for stdout, or empty for none
  ParameterOverrides overrides;
  std::optional<double> stop_time;
  /// The signals recorded and the rows written (--record, --rows).
  ResultsFilter filter;
  /// The kinds of line the trace keeps (--trace-events; docs/trace-format.md).
  TraceFilter trace_events;
  /// Save the run at this time (s) to `snapshot` (--snapshot-at; docs/snapshots.md).
  std::optional<double> snapshot_at;
  std::string snapshot;  ///< the snapshot file (--snapshot), or empty
  std::string resume;    ///< continue from this snapshot file (--resume), or empty
  /// Keep a checkpoint at `checkpoint` about this often (wall-clock seconds;
  /// --checkpoint-every; docs/snapshots.md, "Checkpoints").
  std::optional<double> checkpoint_every;
  std::string checkpoint;  ///< the checkpoint file (--checkpoint; default: the results' path + ".ckpt")
  /// Draw a progress bar on `progress_fd` if it is a terminal (ProgressBar).
  bool progress = false;
  int progress_fd = 2;
};

/// What a run gave. Copyable value type.
struct RunOutcome {
  RunResult result;
  std::string model_name;
  /// The results columns that hold discrete signals (empty except at events).
  std::vector<std::string> discrete_columns;
  /// Why an output could not be written (the run was ended there), or empty.
  std::string write_error;
};

/// Loads, validates and runs; writes results and trace as it goes, under
/// temporary names renamed onto theirs when the run ends, however it ends
/// (kept up to a failure, an interrupt or a failed write: OutputFile). The
/// run ends early, as RunStatus::kInterrupted, on SIGINT or SIGTERM
/// (run/interrupt.hpp) or when a write fails (see `write_error`).
/// @pre check_paths() accepted the model and the outputs.
/// With `resume`, the run continues from the snapshot (its `--set` values
/// first, then the request's); with `snapshot_at`, the run writes a
/// snapshot on its way (a file that cannot be written fails the run).
/// @throws ModelError for a bad model or command line, CommandError for an
///         output file that cannot be created, or a snapshot that cannot be
///         read or does not fit the model (kExitUsage: nothing is run or written).
[[nodiscard]] RunOutcome run_command(const RunRequest& request);

/// -o's format from its extension: CSV (.csv, .txt, none), HDF5 (.h5,
/// .hdf5) or MAT (.mat); a device or pipe is written as CSV whatever its name.
/// @throws CommandError (kExitUsage) for another extension.
void check_results_extension(const std::string& path);

/// --checkpoint-every's period ("500ms", "90s", "5m", "1h" or seconds) into
/// `request`, with the checkpoint's default path.
/// @throws CommandError (kExitUsage) when the rest of the command line disagrees.
void set_checkpoints(RunRequest& request, const std::string& every);

}  // namespace ctde::cli
