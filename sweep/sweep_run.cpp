#include "sweep/sweep_run.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/columnar_results.hpp"
#include "core/composite.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/json_cursor.hpp"
#include "core/model_file.hpp"
#include "core/row_selection.hpp"
#include "core/state_stream.hpp"
#include "domains/ctde/director.hpp"
#include "run/interrupt.hpp"
#include "run/run_setup.hpp"

namespace ctde::sweep {

namespace {

/// Gives every actor with a `seed` parameter run k's seed, in depth-first order.
void seed_actors(Composite& composite, const SweepSpec& spec, std::uint64_t k, std::uint64_t& next) {
  for (const auto& child : composite.children()) {
    if (auto* inner = dynamic_cast<Composite*>(child.get())) {
      seed_actors(*inner, spec, k, next);
      continue;
    }
    for (const ParamSlot& slot : child->parameters()) {
      if (slot.name != "seed") continue;
      child->set_parameter("seed", ParamValue(actor_seed(spec.seed, k, next++)), "the sweep's seed");
      break;
    }
  }
}

/// The actor types the model may use (set by check_sweep, or by whoever made `model`).
const ActorRegistry& types_of(const SweepModel& model) {
  if (model.types == nullptr) throw std::logic_error("a SweepModel without its actor types");
  return *model.types;
}

/// A run's rows in memory, those the sweep's filter keeps (--rows: the
/// selection `ctde run` makes, in front of the columns). Not copyable (the
/// selection refers to the columns).
class KeptRows {
 public:
  KeptRows(const SweepModel& model, std::vector<RecordedSignal> signals, const RunOptions& options)
      : columns_(std::move(signals)) {
    if (model.filter.rows != RowSelection::kAll)
      selected_.emplace(columns_, model.filter.rows, options.start_time, options.output_interval);
  }
  KeptRows(const KeptRows&) = delete;
  KeptRows& operator=(const KeptRows&) = delete;
  ~KeptRows() = default;

  /// What the director writes to.
  [[nodiscard]] ResultsSink* sink() { return selected_ ? static_cast<ResultsSink*>(&*selected_) : &columns_; }
  /// The rows kept (complete once the run has ended: the director flushes its sink).
  [[nodiscard]] const ColumnarResults& columns() const { return columns_; }

 private:
  ColumnarResults columns_;
  std::optional<SelectedRows> selected_;
};

/// Refuses a MODEL that is a sweep file: the command's two files given the other way round.
void refuse_swapped(const std::string& model_text, const std::string& model_path,
                    const std::string& sweep_path) {
  if (model_text.find("\"ctde_sweep\"") == std::string::npos) return;
  const Json root = Json::parse(model_text, nullptr, /*allow_exceptions=*/false);
  if (!root.is_object() || !root.contains("ctde_sweep")) return;
  const std::string what =
      "this is a sweep file (it has \"ctde_sweep\"), not a model file: the two files look swapped (ctde "
      "sweep "
      "MODEL.json SWEEP.json; here MODEL is '";
  throw ModelError(concat({what, model_path, "' and SWEEP '", sweep_path, "')"})).located(model_path);
}

}  // namespace

SweepModel check_sweep(const std::string& model_path, const std::string& sweep_path,
                       const ActorRegistry& types, const std::vector<std::string>& search,
                       const ResultsFilter& filter) {
  SweepModel sweep;
  sweep.model_path = search;
  sweep.filter = filter;
  sweep.types = &types;
  sweep.path = model_path;
  std::ifstream in(model_path, std::ios::binary);
  if (!in) throw ModelError("cannot read the model file '" + model_path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  sweep.text = text.str();
  const std::string folder = std::filesystem::path(model_path).parent_path().string();
  sweep.folder = folder.empty() ? "." : folder;
  refuse_swapped(sweep.text, model_path, sweep_path);
  sweep.spec = load_sweep_file(sweep_path);
  check_model(sweep, sweep_path);
  if (sweep.spec.warm_start_until) {
    try {
      sweep.warm_start = warm_up(sweep, sweep_path, [] { return interrupt_signal() != 0; });
    } catch (const WarmUpInterrupted&) {
      throw_if_interrupted();
      throw;
    }
  }
  return sweep;
}

void check_model(const SweepModel& model, const std::string& sweep_file) {
  Model loaded = load_model_text(model.text, model.path, types_of(model), {}, model.folder, model.model_path);
  for (const auto& [name, values] : model.spec.grid) {
    if (!loaded.parameters().has(name)) {
      throw ModelError("the model '" + model.path + "' has no parameter '" + name + "'")
          .located(sweep_file + " at /grid/" + name);
    }
  }
  for (const auto& p : model.spec.random) {
    if (!loaded.parameters().has(p.name)) {
      throw ModelError("the model '" + model.path + "' has no parameter '" + p.name + "'")
          .located(sweep_file + " at /random/" + p.name);
    }
  }
  const RunSetup setup = set_up_run(loaded, model.spec.stop_time, model.filter.record);
  check_rows(model.filter.rows, setup.options, model.path);
}

namespace {

/// Run k of a warm-started sweep, into `record` (its parameters set).
void resume_one(const SweepModel& model, const ParameterOverrides& overrides, results::RunRecord& record,
                const std::function<bool()>& stop) {
  const WarmStart& warm = *model.warm_start;
  record.warm_start_until = warm.snapshot.time;
  Model loaded =
      load_model_text(model.text, model.path, types_of(model), overrides, model.folder, model.model_path);
  RunSetup setup = set_up_run(loaded, model.spec.stop_time, model.filter.record);
  if (setup.options.start_time != warm.start_time || setup.options.stop_time != warm.stop_time) {
    throw ModelError(concat({"this run goes from ", format_double(setup.options.start_time), " to ",
                             format_double(setup.options.stop_time), " s, the warm-up from ",
                             format_double(warm.start_time), " to ", format_double(warm.stop_time),
                             " s: a warm-started sweep cannot sweep the start or stop time"}));
  }
  KeptRows rows(model, std::move(setup.signals), setup.options);
  Director director(setup.flat, setup.options, loaded.name(), nullptr, rows.sink());
  director.set_stop_check(stop);
  try {
    director.resume_from(warm.snapshot, true);
  } catch (const SnapshotError& e) {
    throw SnapshotError(concat({"cannot resume from the warm-up at ", format_double(warm.snapshot.time),
                                " s with this run's values: ", e.what()}));
  }
  const RunResult result = director.run();
  results::fill_record(record, result, rows.columns());
}

}  // namespace

results::RunRecord run_one(const SweepModel& model, std::uint64_t k, const std::function<bool()>& stop) {
  const auto started = std::chrono::steady_clock::now();
  results::RunRecord record;
  record.index = k;
  record.parameters = model.spec.values(k);
  try {
    ParameterOverrides overrides;
    for (const auto& [name, value] : record.parameters) overrides.emplace_back(name, format_double(value));
    if (model.spec.warm_start_until) {
      if (!model.warm_start) throw std::logic_error("a warm-started sweep without its warm-up (warm_up())");
      resume_one(model, overrides, record, stop);
    } else {
      Model loaded =
          load_model_text(model.text, model.path, types_of(model), overrides, model.folder, model.model_path);
      std::uint64_t next = 0;
      seed_actors(loaded.top(), model.spec, k, next);
      RunSetup setup = set_up_run(loaded, model.spec.stop_time, model.filter.record);
      KeptRows rows(model, std::move(setup.signals), setup.options);
      Director director(setup.flat, setup.options, loaded.name(), nullptr, rows.sink());
      director.set_stop_check(stop);
      const RunResult result = director.run();
      results::fill_record(record, result, rows.columns());
    }
  } catch (const std::exception& e) {  // a value the model refuses: this run fails, the others go on
    record.status = "error";
    record.message = e.what();
  }
  record.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return record;
}

}  // namespace ctde::sweep
