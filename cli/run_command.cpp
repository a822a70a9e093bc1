#include "cli/run_command.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "cli/progress_bar.hpp"
#include "core/columnar_results.hpp"
#include "core/csv_results.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "results/hdf5_file.hpp"
#include "results/mat_file.hpp"
#include "results/run_record.hpp"
#include "results/write_error.hpp"
#include "run/command_error.hpp"
#include "run/interrupt.hpp"
#include "run/output_file.hpp"
#include "run/run_setup.hpp"
#include "run/snapshot_file.hpp"

namespace ctde::cli {

namespace {

/// The CSV columns of the discrete signals.
std::vector<std::string> discrete_columns(const std::vector<RecordedSignal>& signals) {
  std::vector<std::string> columns;
  for (const auto& s : signals) {
    if (!s.discrete) continue;
    for (std::uint32_t i = 0; i < s.width; ++i) columns.push_back(column_name(s, i));
  }
  return columns;
}

/// Fills a record from a finished run and writes it as HDF5 or MAT.
void write_results_file(ResultsFormat format, const std::string& path, const std::string& model_path,
                        const RunResult& result, const ColumnarResults& columns) {
  results::RunRecord record;
  results::fill_record(record, result, columns);
  std::ifstream in(model_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (format == ResultsFormat::kMat) {
    results::write_mat_file(path, record, text.str());
    return;
  }
  results::Hdf5File file(path);
  file.write_run("/", record);
  file.set_text("model", text.str());
  file.set_text("model_file", model_path);
  file.close();
}

/// The snapshot --resume names, read before the model: its `--set` values,
/// then the request's, become `overrides` (a resumed run's parameters).
/// @throws CommandError (kExitUsage) when it does not read.
std::optional<SnapshotFile> read_resume(const RunRequest& request, ParameterOverrides& overrides) {
  if (request.resume.empty()) return std::nullopt;
  return read_resume_file(request.resume, request.overrides, overrides);
}

/// The snapshot --snapshot-at asks for (written as `header` says, with the
/// snapshot in it), and the one --resume continues from.
/// @throws CommandError (kExitUsage) when the snapshot does not fit the model.
void set_up_snapshots(Director& director, const RunRequest& request, std::optional<SnapshotFile>& resume,
                      const SnapshotFile& header) {
  if (request.snapshot_at) {
    director.snapshot_at(*request.snapshot_at,
                         [path = request.snapshot, header](const RunSnapshot& snapshot) {
                           SnapshotFile file = header;
                           file.snapshot = snapshot;
                           write_snapshot_file(path, file);
                         });
  }
  if (!resume) return;
  try {
    director.resume_from(std::move(resume->snapshot), !request.overrides.empty());
  } catch (const SnapshotError& e) {
    throw CommandError(kExitUsage, concat({"--resume ", request.resume, ": ", e.what()}));
  }
}

/// How many bytes of `path` the checkpoint `resume` was taken from covers,
/// when this run continues that file (it names the same one); else nullopt
/// (a new file, with the rows after the snapshot only).
std::optional<std::uint64_t> continued_bytes(const std::optional<SnapshotFile>& resume,
                                             const std::optional<CoveredFile> SnapshotFile::*covered,
                                             const std::string& path) {
  if (!resume || !(*resume.*covered) || path.empty() || path == "-") return std::nullopt;
  // The checkpoint names the file as the run that wrote it resolved it.
  if (resolved_output_path(path) != (*resume.*covered)->path) return std::nullopt;
  return (*resume.*covered)->bytes;
}

/// The files a run writes and the writers that fill them, declared in the
/// order that lets each file outlive its writer.
struct RunOutputs {
  std::optional<OutputFile> results_file;
  std::optional<OutputFile> trace_file;
  ResultsFormat format = ResultsFormat::kCsv;
  std::optional<CsvResults> csv;
  std::optional<ColumnarResults> columns;
  std::optional<TraceWriter> trace;
  std::optional<SelectedRows> selected;
  ResultsSink* sink = nullptr;  ///< what the director writes rows to, or none

  /// Opens the outputs `request` names: continued from the checkpoint
  /// `resume` where it covers them, else new.
  RunOutputs(const RunRequest& request, const std::optional<SnapshotFile>& resume,
             std::vector<RecordedSignal> signals, const RunOptions& options) {
    const bool checkpointing = request.checkpoint_every.has_value();
    const std::optional<std::uint64_t> results_at =
        continued_bytes(resume, &SnapshotFile::results, request.results);
    const std::optional<std::uint64_t> trace_at =
        continued_bytes(resume, &SnapshotFile::trace, request.trace);
    if (!request.trace.empty())
      open(trace_file, {"--trace", request.trace}, OutputFile::Writer::kStream, checkpointing, trace_at);
    // .h5/.hdf5 and .mat files are written from memory when the run ends; anything else is CSV text.
    format = results_format(request.results);
    if (!request.results.empty()) {
      open(results_file, {"-o", request.results},
           format == ResultsFormat::kCsv ? OutputFile::Writer::kStream : OutputFile::Writer::kHelper,
           checkpointing, results_at);
    }
    if (results_file && format == ResultsFormat::kCsv) {
      sink = &csv.emplace(results_file->stream(), std::move(signals),
                          results_at ? CsvResults::Header::kAlreadyWritten : CsvResults::Header::kWrite);
    } else if (results_file) {
      sink = &columns.emplace(std::move(signals));
    }
    if (trace_file) trace.emplace(trace_file->stream());
    if (trace) trace->set_filter(request.trace_events);
    if (trace && trace_at) trace->continue_run();
    const RowSelection rows = request.filter.rows;
    if (sink != nullptr && rows != RowSelection::kAll)
      sink = &selected.emplace(*sink, rows, options.start_time, options.output_interval);
  }

  [[nodiscard]] TraceWriter* trace_writer() { return trace ? &*trace : nullptr; }
  /// True once a write failed.
  [[nodiscard]] bool failed() const {
    return (sink != nullptr && sink->failed()) || (trace && trace->failed());
  }

  /// The checkpoints --checkpoint-every asks for: about that often (wall
  /// clock), at the next place the director can take one, the results and
  /// the trace flushed to disk, then the snapshot with their lengths written
  /// whole to the checkpoint file (docs/snapshots.md, "Checkpoints").
  void set_up_checkpoints(Director& director, const RunRequest& request, const SnapshotFile& header) {
    using Clock = std::chrono::steady_clock;
    const auto every =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*request.checkpoint_every));
    director.set_checkpoints(
        [every, next = Clock::now() + every]() mutable {
          const Clock::time_point now = Clock::now();
          if (now < next) return false;
          next = now + every;
          return true;
        },
        [this, header, path = request.checkpoint](const RunSnapshot& snapshot) {
          SnapshotFile file = header;
          file.snapshot = snapshot;
          sink->flush();
          file.results = CoveredFile{results_file->final_path(), results_file->sync()};
          if (trace) {
            trace->flush();
            file.trace = CoveredFile{trace_file->final_path(), trace_file->sync()};
          }
          write_snapshot_file(path, file);
        });
  }

  /// After the run: the writers flushed, an HDF5 or MAT file written, every
  /// file kept however the run ended; the first failure into `outcome`.
  void finish(const RunRequest& request, RunOutcome& outcome) {
    trace.reset();  // flushes
    selected.reset();
    csv.reset();
    if (columns) {
      try {
        write_results_file(format, results_file->write_path(), request.model, outcome.result, *columns);
      } catch (const results::WriteError& e) {
        outcome.write_error = e.what();
      }
    }
    for (auto* file : {&results_file, &trace_file}) {
      if (!*file) continue;
      try {
        (*file)->commit();
      } catch (const CommandError& e) {
        if (outcome.write_error.empty()) outcome.write_error = e.what();
      }
    }
  }

 private:
  /// An output continued from a checkpoint (`continue_at`), or written
  /// across checkpoints, or written as any command's output.
  static void open(std::optional<OutputFile>& file, NamedPath path, OutputFile::Writer writer,
                   bool checkpointing, std::optional<std::uint64_t> continue_at) {
    if (continue_at || checkpointing) {
      file.emplace(std::move(path), continue_at);
    } else {
      file.emplace(std::move(path), writer);
    }
  }
};

}  // namespace

ResultsFormat results_format(const std::string& path) {
  if (path == "-") return ResultsFormat::kCsv;
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".h5" || extension == ".hdf5") return ResultsFormat::kHdf5;
  if (extension == ".mat") return ResultsFormat::kMat;
  return ResultsFormat::kCsv;
}

RunOutcome run_command(const RunRequest& request) {
  ParameterOverrides overrides = request.overrides;
  std::optional<SnapshotFile> resume = read_resume(request, overrides);
  Model model = load_model_file(request.model, command_actors(), overrides, command_model_path());
  RunSetup setup = set_up_run(model, request.stop_time, request.filter.record);
  check_rows(request.filter.rows, setup.options, model.file());
  const RunOptions& options = setup.options;
  RunOutcome outcome;
  outcome.model_name = model.name();
  outcome.discrete_columns = discrete_columns(setup.signals);
  RunOutputs outputs(request, resume, std::move(setup.signals), options);
  {
    Director director(setup.flat, options, model.name(), outputs.trace_writer(), outputs.sink);
    const SnapshotFile header{{}, model.name(), overrides, options.stop_time, {}, {}};
    set_up_snapshots(director, request, resume, header);
    if (request.checkpoint_every) outputs.set_up_checkpoints(director, request, header);
    ProgressBar bar(request.progress_fd, options.start_time, options.stop_time, request.progress);
    if (bar.active()) {
      director.set_progress([&bar](double time, const RunStatistics& stats) { bar.update(time, stats); });
    }
    // A write that failed ends the run at once: the rest would be lost too.
    director.set_stop_check([&outputs] { return interrupt_signal() != 0 || outputs.failed(); });
    outcome.result = director.run();
    bar.finish();
  }
  outputs.finish(request, outcome);
  // A run that reached its end has no use for its checkpoint any more.
  if (request.checkpoint_every && outcome.result.status != RunStatus::kError &&
      outcome.result.status != RunStatus::kInterrupted && outcome.write_error.empty())
    std::filesystem::remove(request.checkpoint);
  return outcome;
}

/// -o's format from its extension: CSV (.csv, .txt, none), HDF5 (.h5,
/// .hdf5) or MAT (.mat); a device or pipe is written as CSV whatever its
/// name.
/// @throws CommandError (kExitUsage) for another extension (a `.xlsx` was
///         silently written as CSV).
void check_results_extension(const std::string& path) {
  if (path.empty() || path == "-") return;
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) return;
  const std::string extension = std::filesystem::path(path).extension().string();
  for (const char* known : {"", ".csv", ".txt", ".h5", ".hdf5", ".mat"}) {
    if (extension == known) return;
  }
  throw CommandError(kExitUsage, concat({"-o ", path,
                                         ": ctde writes results as CSV (.csv, .txt or no extension), HDF5 "
                                         "(.h5, .hdf5) or MAT (.mat), not ",
                                         extension}));
}

/// --checkpoint-every's wall-clock period, "500ms", "90s", "5m", "1h" or seconds
/// ("30"), into `request`, with the checkpoint's default path, once the
/// rest of the command line agrees with it.
/// @throws CommandError (kExitUsage) saying what does not.
void set_checkpoints(RunRequest& request, const std::string& every) {
  if (every.empty()) {
    if (!request.checkpoint.empty())
      throw CommandError(kExitUsage, "--checkpoint needs --checkpoint-every: how often to keep it");
    return;
  }
  const auto refuse = [&every](const std::string& why) {
    throw CommandError(kExitUsage, concat({"--checkpoint-every ", every, ": ", why}));
  };
  double seconds = 0;
  std::size_t used = 0;
  try {
    seconds = std::stod(every, &used);
  } catch (const std::exception&) {
    refuse("expects a duration such as 90s, 5m or 1h");
  }
  const std::string unit = every.substr(used);
  if (unit == "ms") seconds /= 1000;
  if (unit == "m") seconds *= 60;
  if (unit == "h") seconds *= 3600;
  if (!unit.empty() && unit != "ms" && unit != "s" && unit != "m" && unit != "h")
    refuse("expects a duration such as 90s, 5m or 1h (units ms, s, m, h)");
  if (!(seconds > 0) || !std::isfinite(seconds)) refuse("expects a duration above 0");
  if (request.results.empty() || request.results == "-" ||
      results_format(request.results) != ResultsFormat::kCsv) {
    refuse(
        "needs -o FILE.csv, the results a resumed run continues (standard output cannot be continued; "
        "HDF5 and MAT files are written only when the run ends)");
  }
  if (request.trace == "-") refuse("writes --trace to a file (standard output cannot be continued)");
  if (request.filter.rows == RowSelection::kEvents || request.filter.rows == RowSelection::kFinal)
    refuse("needs --rows all or output (events and final hold rows back, which a checkpoint cannot hold)");
  request.checkpoint_every = seconds;
  if (request.checkpoint.empty()) request.checkpoint = request.results + ".ckpt";
}

}  // namespace ctde::cli
