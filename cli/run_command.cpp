#include "cli/run_command.hpp"

#include "cli/run_setup.hpp"

#include <memory>

#include "actors/builtin_actors.hpp"
#include "cli/progress_bar.hpp"
#include "core/error.hpp"
#include "core/recorder.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace ctde::cli {

namespace {

/// Every output of every actor, for models without a `record` list.
/// The CSV columns of the discrete signals (core/recorder.hpp names them).
std::vector<std::string> discrete_columns(const std::vector<RecordedSignal>& signals) {
  std::vector<std::string> columns;
  for (const auto& s : signals) {
    if (!s.discrete) continue;
    if (s.width == 1) {
      columns.push_back(s.name);
      continue;
    }
    for (std::uint32_t i = 0; i < s.width; ++i) {
      std::string column = s.name;
      column += '[';
      column += std::to_string(i);
      column += ']';
      columns.push_back(std::move(column));
    }
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
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<TraceWriter> trace;
  try {
    if (!request.results.empty()) recorder = std::make_unique<Recorder>(request.results, std::move(signals));
    if (!request.trace.empty()) trace = std::make_unique<TraceWriter>(request.trace);
  } catch (const std::runtime_error& e) {
    throw ModelError(e.what());  // a command-line mistake: nothing has run
  }
  Director director(flat, options, model.name(), trace.get(), recorder.get());
  ProgressBar bar(request.progress_fd, options.start_time, options.stop_time, request.progress);
  if (bar.active()) {
    director.set_progress([&bar](double time, const RunStatistics& stats) { bar.update(time, stats); });
  }
  outcome.result = director.run();
  bar.finish();
  return outcome;
}

}  // namespace ctde::cli
