#include "cli/run_command.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

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
  std::optional<SnapshotFile> resume;
  try {
    resume = read_snapshot_file(request.resume);
  } catch (const SnapshotError& e) {
    throw CommandError(kExitUsage, e.what());
  }
  overrides = resume->sets;
  overrides.insert(overrides.end(), request.overrides.begin(), request.overrides.end());
  return resume;
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
  Model model = load_model_file(request.model, command_actors(), overrides);
  RunSetup setup = set_up_run(model, request.stop_time, request.record);
  if (request.rows == RowSelection::kOutput && !setup.options.output_interval) {
    throw ModelError(
        "--rows output: the model sets no output_interval (set it in \"director\", or choose all, "
        "events or final)")
        .located(model.file());
  }
  const FlatModel& flat = setup.flat;
  const RunOptions& options = setup.options;
  std::vector<RecordedSignal> signals = std::move(setup.signals);
  RunOutcome outcome;
  outcome.model_name = model.name();
  outcome.discrete_columns = discrete_columns(signals);
  // Declared before the writers that hold their streams, so that they outlive them.
  std::optional<OutputFile> results_file;
  std::optional<OutputFile> trace_file;
  if (!request.trace.empty())
    trace_file.emplace(NamedPath{"--trace", request.trace}, OutputFile::Writer::kStream);
  // .h5/.hdf5 and .mat files are written from memory when the run ends; anything else is CSV text.
  const ResultsFormat format = results_format(request.results);
  if (!request.results.empty()) {
    results_file.emplace(NamedPath{"-o", request.results}, format == ResultsFormat::kCsv
                                                               ? OutputFile::Writer::kStream
                                                               : OutputFile::Writer::kHelper);
  }
  std::optional<CsvResults> csv;
  std::optional<ColumnarResults> columns;
  std::optional<TraceWriter> trace;
  ResultsSink* sink = nullptr;
  if (results_file && format == ResultsFormat::kCsv) {
    sink = &csv.emplace(results_file->stream(), std::move(signals));
  } else if (results_file) {
    sink = &columns.emplace(std::move(signals));
  }
  if (trace_file) trace.emplace(trace_file->stream());
  std::optional<SelectedRows> selected;
  if (sink != nullptr && request.rows != RowSelection::kAll) {
    sink = &selected.emplace(*sink, request.rows, options.start_time, options.output_interval);
  }
  {
    Director director(flat, options, model.name(), trace ? &*trace : nullptr, sink);
    set_up_snapshots(director, request, resume, {{}, model.name(), overrides, options.stop_time});
    ProgressBar bar(request.progress_fd, options.start_time, options.stop_time, request.progress);
    if (bar.active()) {
      director.set_progress([&bar](double time, const RunStatistics& stats) { bar.update(time, stats); });
    }
    // A write that failed ends the run at once: the rest would be lost too.
    director.set_stop_check([sink, &trace] {
      return interrupt_signal() != 0 || (sink != nullptr && sink->failed()) || (trace && trace->failed());
    });
    outcome.result = director.run();
    bar.finish();
  }
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
  // Every file is kept, however the run ended; the first failure is reported.
  for (auto* file : {&results_file, &trace_file}) {
    if (!*file) continue;
    try {
      (*file)->commit();
    } catch (const CommandError& e) {
      if (outcome.write_error.empty()) outcome.write_error = e.what();
    }
  }
  return outcome;
}

}  // namespace ctde::cli
