// Snapshots of the FMU actor's run (docs/fmi.md, "Snapshots"; the director's
// side in docs/snapshots.md): the FMU's own state through the optional
// FMU-state functions of FMI 2.0 (spec 2.1.8) and FMI 3.0 (spec 2.2.6.4),
// then the importer's bookkeeping of the run (RunState), read back in the
// same order into a state make_state() made and initialize() did not see.
//
// Saving, between two tags (the instance in Continuous-Time or Event Mode,
// Model Exchange; Step Mode, Co-Simulation: modes where both standards allow
// the calls): fmi2GetFMUstate, fmi2SerializedFMUstateSize,
// fmi2SerializeFMUstate, fmi2FreeFMUstate (also when one of the others
// fails). The mode is saved with the bytes.
//
// Restoring, into a new instance (FMI 2.0 tables 3.2.3 and 4.2.4, FMI 3.0
// sections 2.3, 3.2 and 4.2):
//   fmi2Instantiate, fmi2SetupExperiment (the saved start and stop times),
//   the `start` values, fmi2EnterInitializationMode, (FMI 3 clocks: their
//   intervals), fmi2ExitInitializationMode: Event Mode (Model Exchange) or
//   stepComplete / Step Mode (Co-Simulation); for a state saved in
//   Continuous-Time Mode, fmi2NewDiscreteStates until no new discrete states
//   are needed, fmi2EnterContinuousTimeMode; then fmi2DeSerializeFMUstate,
//   fmi2SetFMUstate, fmi2FreeFMUstate.
// The tables allow fmi2SetFMUstate already in Instantiated, and the FMU
// state holds the FMU's "internal status information"; but an FMU may set
// up its solver only during initialization, and an instance brought to the
// saved mode first agrees with the state set in it whether or not the FMU
// counts its mode as part of its state: before and after fmi2SetFMUstate
// it is in the mode the saved instance was in, and so is the importer's
// record of it (fmi_rules.hpp). No connected input is set during the
// initialization (the restored state holds the inputs' values).
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmu.hpp"
#include "actors/fmi/fmu_run_state.hpp"
#include "core/error.hpp"
#include "core/state_stream.hpp"

namespace ctde {

void FMU::RunState::save(StateWriter& writer) const { actor->save_run(*this, writer); }

void FMU::RunState::restore(StateReader& reader) { actor->restore_run(*this, reader); }

namespace {

/// The layout of an FMU actor's saved state (a state of another layout is refused).
constexpr std::uint32_t kLayout = 1;

/// A copy of the FMU state that the FMU allocated (fmi2GetFMUstate,
/// fmi2DeSerializeFMUstate): freed by free(), or on leaving the scope
/// after a failure (then without throwing, when the instance still allows
/// the call). Not copyable, not movable.
class StateCopy {
 public:
  explicit StateCopy(Fmi2Instance& fmu) : fmu_(fmu) {}
  ~StateCopy() {
    if (state_ != nullptr && !fmu_.fatal() && allowed(FmiCall::kFreeFMUState, fmu_.mode(), fmu_.kind()))
      (void)fmu_.f().free_fmu_state(fmu_.component(), &state_);
  }
  StateCopy(const StateCopy&) = delete;
  StateCopy& operator=(const StateCopy&) = delete;
  StateCopy(StateCopy&&) = delete;
  StateCopy& operator=(StateCopy&&) = delete;

  /// Where the FMU writes the pointer to the copy.
  fmi2::FMUstate* out() { return &state_; }
  [[nodiscard]] fmi2::FMUstate get() const { return state_; }
  /// fmi2FreeFMUstate; the copy is forgotten even when the call fails.
  void free() {
    fmi2::FMUstate state = state_;
    state_ = nullptr;
    fmu_.call(FmiCall::kFreeFMUState, [&] { return fmu_.f().free_fmu_state(fmu_.component(), &state); });
  }

 private:
  Fmi2Instance& fmu_;
  fmi2::FMUstate state_ = nullptr;
};

void save_clocks(const Fmi3ClockRun& c, StateWriter& out) {
  out.values(c.next);
  out.values(c.ticks);
  out.values(c.first);
  out.values(c.interval);
  out.values(c.active);
  out.values(c.ticked);
  out.values(c.latched);
  out.values(c.value);
  out.values(c.due);
}

void restore_clocks(Fmi3ClockRun& c, StateReader& in) {
  in.values_into(std::span<Tick>(c.next));
  in.values_into(std::span<std::int64_t>(c.ticks));
  in.values_into(std::span<double>(c.first));
  in.values_into(std::span<double>(c.interval));
  in.values_into(std::span<char>(c.active));
  in.values_into(std::span<char>(c.ticked));
  in.values_into(std::span<double>(c.latched));
  in.values_into(std::span<double>(c.value));
  in.values_into(std::span<char>(c.due));
}

void save_log(const Fmi2Instance::KeptLog& log, StateWriter& out) {
  out.u64(log.entries.size());
  for (const Fmi2Instance::LogEntry& entry : log.entries) {
    out.i64(static_cast<std::int64_t>(entry.status));
    out.text(entry.category);
    out.text(entry.message);
  }
  out.u64(log.dropped);
  out.text(log.last_message);
}

Fmi2Instance::KeptLog restore_log(StateReader& in) {
  Fmi2Instance::KeptLog log;
  const std::uint64_t n = in.u64();
  if (n > Fmi2Instance::kMaxKept) in.fail(std::to_string(n) + " kept FMU log messages (corrupt)");
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::int64_t status = in.i64();
    if (status < 0 || status > static_cast<std::int64_t>(fmi2::Status::kPending))
      in.fail("an FMU log status " + std::to_string(status) + " (corrupt)");
    Fmi2Instance::LogEntry entry;
    entry.status = static_cast<fmi2::Status>(status);
    entry.category = in.text();
    entry.message = in.text();
    log.entries.push_back(std::move(entry));
  }
  log.dropped = in.u64();
  log.last_message = in.text();
  return log;
}

}  // namespace

std::string FMU::fmu_state_refusal() const {
  const FmuInterface& chosen = me_ ? *md_.model_exchange : *md_.co_simulation;
  const bool fmi3 = md_.fmi_version == "3.0";
  const std::string get_set = fmi3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate";
  const std::string serialize = fmi3 ? "canSerializeFMUState" : "canSerializeFMUstate";
  if (!chosen.can_get_and_set_fmu_state && !chosen.can_serialize_fmu_state)
    return "modelDescription has no " + get_set + " and no " + serialize;
  if (!chosen.can_get_and_set_fmu_state) return "modelDescription has no " + get_set;
  if (!chosen.can_serialize_fmu_state) return "modelDescription has no " + serialize;
  if (const char* missing = library_->missing_fmu_state_function(true); missing != nullptr) {
    return std::string("its binary does not export ") + missing + ", although modelDescription says " +
           get_set + " and " + serialize;
  }
  return {};
}

void FMU::save_run(const RunState& run, StateWriter& out) const {
  if (const std::string why = fmu_state_refusal(); !why.empty()) {
    throw SnapshotError(describe() + ": its FMU cannot save its state (" + why +
                        "), so this run cannot be snapshotted");
  }
  if (!run.fmu)
    throw SnapshotError(describe() + ": its FMU is not initialized yet, so it has no state to save");
  Fmi2Instance& fmu = *run.fmu;
  const FmiMode mode = fmu.mode();
  if (mode != (me_ ? FmiMode::kContinuousTime : FmiMode::kStep) && !(me_ && mode == FmiMode::kEvent)) {
    throw SnapshotError(describe() + ": its FMU is in " + to_string(mode) +
                        ", where ctde does not save it, so this run cannot be snapshotted");
  }
  const auto& f = fmu.f();
  std::vector<fmi2::Byte> bytes;
  try {
    StateCopy copy(fmu);
    fmu.call(FmiCall::kGetFMUState, [&] { return f.get_fmu_state(fmu.component(), copy.out()); });
    std::size_t size = 0;
    fmu.call(FmiCall::kSerializedFMUStateSize,
             [&] { return f.serialized_fmu_state_size(fmu.component(), copy.get(), &size); });
    bytes.resize(size);
    fmu.call(FmiCall::kSerializeFMUState,
             [&] { return f.serialize_fmu_state(fmu.component(), copy.get(), bytes.data(), bytes.size()); });
    copy.free();
  } catch (const RunError& e) {
    throw SnapshotError(std::string(e.what()) + " (while saving its FMU state for a snapshot)");
  }
  out.u32(kLayout);
  out.u8(static_cast<std::uint8_t>(mode));
  out.values(bytes);
  out.values(run.connected);
  out.values(run.seen);
  for (const std::vector<double>& values : run.out) out.values(values);
  out.f64(run.start_time);
  out.f64(run.stop_time);
  out.i64(run.pending_tick);
  out.f64(run.pending_time);
  out.boolean(run.terminate);
  out.f64(run.cs_time);
  out.i64(run.cs_tick);
  out.i64(run.cs_next);
  save_clocks(run.clocks, out);
  // What the FMU logged and the actor has not traced yet (the saving calls'
  // messages too): the next trace point writes it, in the resumed run as in this one.
  save_log(fmu.kept_log(), out);
}

void FMU::restore_run(RunState& run, StateReader& in) const {
  if (const std::uint32_t layout = in.u32(); layout != kLayout)
    in.fail("an FMU state of layout " + std::to_string(layout) + " (saved by another version of ctde)");
  const auto mode = static_cast<FmiMode>(in.u8());
  if (me_ ? mode != FmiMode::kEvent && mode != FmiMode::kContinuousTime : mode != FmiMode::kStep) {
    in.fail(std::string("an FMU mode that ") + (me_ ? "Model Exchange" : "Co-Simulation") +
            " is not saved in (saved by another model)");
  }
  const std::vector<fmi2::Byte> bytes = in.values<fmi2::Byte>();
  in.values_into(std::span<char>(run.connected));
  in.values_into(std::span<char>(run.seen));
  for (std::vector<double>& values : run.out) in.values_into(std::span<double>(values));
  run.start_time = in.f64();
  run.stop_time = in.f64();
  run.pending_tick = in.i64();
  run.pending_time = in.f64();
  run.terminate = in.boolean();
  run.cs_time = in.f64();
  run.cs_tick = in.i64();
  run.cs_next = in.i64();
  Fmi3ClockRun clocks = clocks_.make_run();
  restore_clocks(clocks, in);
  Fmi2Instance::KeptLog log = restore_log(in);

  if (const std::string why = fmu_state_refusal(); !why.empty())
    throw SnapshotError(describe() + ": its FMU cannot restore its state (" + why + ")");
  keep_connected(run);
  run.fmu = instantiate(name());
  enter_saved_mode(run, mode);
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  StateCopy copy(fmu);
  fmu.call(FmiCall::kDeserializeFMUState,
           [&] { return f.deserialize_fmu_state(fmu.component(), bytes.data(), bytes.size(), copy.out()); });
  fmu.call(FmiCall::kSetFMUState, [&] { return f.set_fmu_state(fmu.component(), copy.get()); });
  copy.free();
  run.clocks = std::move(clocks);    // after the clocks' initialization, which wrote its own
  fmu.set_kept_log(std::move(log));  // in place of what the restoring calls logged
}

void FMU::enter_saved_mode(RunState& run, FmiMode mode) const {
  Fmi2Instance& fmu = *run.fmu;
  const auto& f = fmu.f();
  enter_initialization(run);
  if (clocks_.any()) clocks_.initialize(run.clocks, fmu, run.start_time, describe());
  fmu.call(FmiCall::kExitInitializationMode, [&] { return f.exit_initialization_mode(fmu.component()); });
  if (mode != FmiMode::kContinuousTime) return;  // Event Mode (ME), Step Mode (CS): there already
  fmi2::EventInfo info{};
  info.new_discrete_states_needed = fmi2::kTrue;
  for (int iterations = 0; info.new_discrete_states_needed != fmi2::kFalse; ++iterations) {
    if (iterations == kMaxFmuEventIterations) {
      throw RunError(describe() + ": the event iteration did not converge in " +
                     std::to_string(kMaxFmuEventIterations) + " calls of " +
                     fmu.call_name("fmi2NewDiscreteStates") + " (restoring its state)");
    }
    info = fmi2::EventInfo{};
    fmu.call(FmiCall::kNewDiscreteStates, [&] { return f.new_discrete_states(fmu.component(), &info); });
  }
  fmu.call(FmiCall::kEnterContinuousTimeMode, [&] { return f.enter_continuous_time_mode(fmu.component()); });
}

}  // namespace ctde
