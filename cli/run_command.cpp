#include "cli/run_command.hpp"

#include <memory>
#include <optional>

#include "actors/builtin_actors.hpp"
#include "cli/command_error.hpp"
#include "cli/interrupt.hpp"
#include "cli/output_file.hpp"
#include "cli/progress_bar.hpp"
#include "cli/run_setup.hpp"
#include "core/csv_results.hpp"
#include "core/error.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

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

}  // namespace

RunOutcome run_command(const RunRequest& request) {
  Model model = load_model_file(request.model, builtin_actors(), request.overrides);
  RunSetup setup = set_up_run(model, request.stop_time);
  const FlatModel& flat = setup.flat;
  const RunOptions& options = setup.options;
  std::vector<RecordedSignal> signals = std::move(setup.signals);
  RunOutcome outcome;
  outcome.model_name = model.name();
  outcome.discrete_columns = discrete_columns(signals);
  // Declared before the writers that hold their streams, so that they outlive them.
  std::optional<OutputFile> results_file;
  std::optional<OutputFile> trace_file;
  if (!request.results.empty())
    results_file.emplace(NamedPath{"-o", request.results}, OutputFile::Writer::kStream);
  if (!request.trace.empty())
    trace_file.emplace(NamedPath{"--trace", request.trace}, OutputFile::Writer::kStream);
  std::optional<CsvResults> results;
  std::optional<TraceWriter> trace;
  if (results_file) results.emplace(results_file->stream(), std::move(signals));
  if (trace_file) trace.emplace(trace_file->stream());
  {
    Director director(flat, options, model.name(), trace ? &*trace : nullptr, results ? &*results : nullptr);
    ProgressBar bar(request.progress_fd, options.start_time, options.stop_time, request.progress);
    if (bar.active()) {
      director.set_progress([&bar](double time, const RunStatistics& stats) { bar.update(time, stats); });
    }
    // A write that failed ends the run at once: the rest would be lost too.
    director.set_stop_check([&results, &trace] {
      return interrupt_signal() != 0 || (results && results->failed()) || (trace && trace->failed());
    });
    outcome.result = director.run();
    bar.finish();
  }
  trace.reset();  // flushes
  results.reset();
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
