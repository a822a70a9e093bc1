#include "cli/run_command.hpp"

#include <memory>

#include "actors/builtin_actors.hpp"
#include "core/error.hpp"
#include "core/recorder.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace ctde::cli {

namespace {

/// Every output of every actor, for models without a `record` list.
std::vector<std::string> all_outputs(const FlatModel& flat) {
  std::vector<std::string> out;
  for (const auto& actor : flat.actors) {
    for (const auto& port : actor.actor->outputs()) out.push_back(actor.path + "." + port.name);
  }
  return out;
}

}  // namespace

RunResult run_command(const RunRequest& request) {
  Model model = load_model_file(request.model, builtin_actors(), request.overrides);
  if (request.stop_time) model.director().insert_or_assign("stop_time", ParamValue(*request.stop_time));
  const FlatModel flat = validate(model);
  const RunOptions options = make_run_options(model.director(), model.parameters());
  std::vector<RecordedSignal> signals;
  try {
    signals = resolve_record(flat, model.record().empty() ? all_outputs(flat) : model.record());
  } catch (const ModelError& e) {
    throw e.located(model.file() + " at /record");
  }
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<TraceWriter> trace;
  try {
    if (!request.results.empty()) recorder = std::make_unique<Recorder>(request.results, std::move(signals));
    if (!request.trace.empty()) trace = std::make_unique<TraceWriter>(request.trace);
  } catch (const std::runtime_error& e) {
    throw ModelError(e.what());  // a command-line mistake: nothing has run
  }
  Director director(flat, options, model.name(), trace.get(), recorder.get());
  return director.run();
}

}  // namespace ctde::cli
