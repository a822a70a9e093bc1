#include "sweep/warm_start.hpp"

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/model_file.hpp"
#include "core/state_stream.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"
#include "run/snapshot_file.hpp"
#include "sweep/sweep_run.hpp"

namespace ctde::sweep {

namespace {

constexpr std::string_view kOtherStructure =
    "the model's structure differs from the warm-up's (its actors, ports, connections, states or time "
    "resolution): a warm-started sweep resumes every run from the warm-up's snapshot, so a swept parameter "
    "must keep the structure";
constexpr std::string_view kOtherTimes =
    "a warm-started sweep cannot sweep the start or stop time (give the sweep's \"stop_time\" instead)";

/// What a run of the sweep with the values `overrides` (one swept parameter)
/// would resume from the warm-up with: its structure and time span. Empty
/// when the model refuses the value (the runs with it fail on their own).
struct Probe {
  std::uint64_t structure = 0;
  double start_time = 0;
  double stop_time = 0;
};

std::optional<Probe> probe(const SweepModel& model, const ParameterOverrides& overrides) {
  try {
    Model loaded =
        load_model_text(model.text, model.path, *model.types, overrides, model.folder, model.model_path);
    const RunSetup setup = set_up_run(loaded, model.spec.stop_time);
    const Director director(setup.flat, setup.options, loaded.name());
    return Probe{director.fingerprint().structure, setup.options.start_time, setup.options.stop_time};
  } catch (const std::exception&) {  // a value the model refuses: its runs fail with the reason
    return std::nullopt;
  }
}

/// Refuses a swept value (parameter `name` = `value`, at `pointer` of the
/// sweep file) with which a run could not resume from `warm`.
void check_value(const SweepModel& model, const WarmStart& warm, const std::string& name, double value,
                 const std::string& pointer) {
  const std::optional<Probe> p = probe(model, {{name, format_double(value)}});
  if (!p) return;
  const std::string what = concat({"with ", name, " = ", format_double(value), ", "});
  if (p->structure != warm.snapshot.model.structure) {
    throw ModelError(concat({what, kOtherStructure})).located(pointer);
  }
  if (p->start_time != warm.start_time || p->stop_time != warm.stop_time) {
    throw ModelError(
        concat({what, "the run goes from ", format_double(p->start_time), " to ", format_double(p->stop_time),
                " s, the warm-up from ", format_double(warm.start_time), " to ",
                format_double(warm.stop_time), " s: ", kOtherTimes}))
        .located(pointer);
  }
}

/// Every grid value and run 0's draws, one parameter at a time.
void check_values(const SweepModel& model, const WarmStart& warm, const std::string& sweep_file) {
  const std::string at = concat({sweep_file, " at "});
  for (const auto& [name, values] : model.spec.grid) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      check_value(model, warm, name, values[i], concat({at, "/grid/", name, "/", std::to_string(i)}));
    }
  }
  const auto first = model.spec.values(0);
  for (std::size_t j = 0; j < model.spec.random.size(); ++j) {
    const std::string& name = model.spec.random[j].name;
    check_value(model, warm, name, first[model.spec.grid.size() + j].second, concat({at, "/random/", name}));
  }
}

}  // namespace

std::shared_ptr<const WarmStart> warm_up(const SweepModel& model, const std::string& sweep_file,
                                         const std::function<bool()>& stop) {
  if (!model.spec.warm_start_until || model.types == nullptr) {
    throw std::logic_error("warm_up: a sweep without a warm start, or a SweepModel without its actor types");
  }
  const double until = *model.spec.warm_start_until;
  const std::string at = concat({sweep_file, " at /warm_start"});
  const std::string until_at = concat({at, "/until"});
  Model loaded = load_model_text(model.text, model.path, *model.types, {}, model.folder, model.model_path);
  RunSetup setup = set_up_run(loaded, model.spec.stop_time);
  auto warm = std::make_shared<WarmStart>();
  warm->start_time = setup.options.start_time;
  warm->stop_time = setup.options.stop_time;
  if (!(until >= warm->start_time && until < warm->stop_time)) {
    throw ModelError(concat({"the warm start at ", format_double(until), " s is not inside the run, from ",
                             format_double(warm->start_time), " to ", format_double(warm->stop_time),
                             " s (until must be at or after the start time and before the stop time)"}))
        .located(until_at);
  }
  Director director(setup.flat, setup.options, loaded.name());
  if (stop) director.set_stop_check(stop);
  bool paused = false;
  try {
    paused = director.advance_to(until);
  } catch (const std::invalid_argument&) {
    throw ModelError(concat({"the warm start at ", format_double(until),
                             " s is not a whole number of ticks of the model's time_resolution (",
                             format_double(setup.options.time_resolution), " s)"}))
        .located(until_at);
  }
  if (!paused) {
    const RunResult ended = director.run();
    if (ended.status == RunStatus::kInterrupted)
      throw WarmUpInterrupted("the sweep's warm-up was interrupted");
    throw ModelError(
        concat({"the warm-up (the model with the values not swept) ended at ", format_double(ended.time),
                " s, before the warm start at ", format_double(until), " s: ", to_string(ended.status),
                ended.message.empty() ? "" : concat({": ", ended.message})}))
        .located(until_at);
  }
  try {
    warm->snapshot = director.snapshot();
  } catch (const SnapshotError& e) {
    throw ModelError(concat({"the warm-up cannot be saved at ", format_double(until), " s: ", e.what()}))
        .located(at);
  }
  check_values(model, *warm, sweep_file);
  return warm;
}

std::vector<char> encode_warm_start(const WarmStart& warm) {
  const std::vector<std::byte> snapshot = encode_snapshot({warm.snapshot, "", {}, warm.stop_time, {}, {}});
  std::vector<char> out(sizeof warm.start_time + snapshot.size());
  std::memcpy(out.data(), &warm.start_time, sizeof warm.start_time);
  std::memcpy(out.data() + sizeof warm.start_time, snapshot.data(), snapshot.size());
  return out;
}

WarmStart decode_warm_start(std::span<const char> bytes) {
  WarmStart warm;
  if (bytes.size() < sizeof warm.start_time) throw SnapshotError("a sweep's warm start is cut short");
  std::memcpy(&warm.start_time, bytes.data(), sizeof warm.start_time);
  SnapshotFile file =
      decode_snapshot(std::as_bytes(bytes.subspan(sizeof warm.start_time)), "the sweep's warm start");
  warm.snapshot = std::move(file.snapshot);
  warm.stop_time = file.stop_time;
  return warm;
}

}  // namespace ctde::sweep
