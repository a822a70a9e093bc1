// The saved states of an exported FMU's instance (fmi3GetFMUState and
// fmi2GetFMUstate, their serialization): a snapshot of the run where it
// stands, with the values set of its inputs and parameters; restoring one
// builds the model with those values and resumes the run from the snapshot
// (docs/snapshots.md), so that the importer can roll a step back.
#include <cstring>
#include <exception>
#include <memory>

#include "core/format.hpp"
#include "fmu_export/exported_instance.hpp"

namespace ctde::fmu {

namespace {

/// Gives `saved` to the importer: as a new state, or into the one it passed
/// (FMI: a non-null state is overwritten).
void hand_over(std::unique_ptr<SavedState> saved, SavedState*& state) {
  if (state == nullptr) {
    state = saved.release();
  } else {
    *state = std::move(*saved);
  }
}

}  // namespace

Status ExportedInstance::get_state(SavedState*& state) noexcept {
  const char* fn = "GetFMUState";
  if (allowed(FmiCall::kGetFMUState, fn) != Status::kOk) return Status::kError;
  try {
    if (!director_) build();
    if (ended_) return fail(fn, "the model's run has ended (a Stop): there is no state to go on from");
    auto saved = std::make_unique<SavedState>();
    saved->file.snapshot = director_->snapshot();
    saved->file.model_name = model_->name();
    saved->file.stop_time = stop_;
    for (const Variable& v : variables_) {
      if (v.causality == Causality::kParameter && values_[v.reference] != v.start)
        saved->file.sets.emplace_back(v.name, format_double(values_[v.reference]));
    }
    saved->values = values_;
    hand_over(std::move(saved), state);
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::set_state(const SavedState& state) noexcept {
  const char* fn = "SetFMUState";
  if (allowed(FmiCall::kSetFMUState, fn) != Status::kOk) return Status::kError;
  if (state.values.size() != variables_.size()) return fail(fn, "the state is not one of this FMU");
  try {
    values_ = state.values;
    stop_ = state.file.stop_time;
    build(&state.file.snapshot);
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::serialize(const SavedState& state, std::vector<std::byte>& bytes) noexcept {
  try {
    // The values (a count, then each double's bytes), then the snapshot file's bytes.
    const std::vector<std::byte> file = encode_snapshot(state.file);
    const std::uint64_t count = state.values.size();
    bytes.resize(sizeof count + count * sizeof(double) + file.size());
    std::memcpy(bytes.data(), &count, sizeof count);
    std::memcpy(bytes.data() + sizeof count, state.values.data(), count * sizeof(double));
    std::memcpy(bytes.data() + sizeof count + count * sizeof(double), file.data(), file.size());
  } catch (const std::exception& e) {
    return fail("SerializeFMUState", e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::deserialize(std::span<const std::byte> bytes, SavedState*& state) noexcept {
  const char* fn = "DeserializeFMUState";
  try {
    std::uint64_t count = 0;
    if (bytes.size() < sizeof count) return fail(fn, "the serialized state is too short");
    std::memcpy(&count, bytes.data(), sizeof count);
    if (count != variables_.size() || bytes.size() < sizeof count + count * sizeof(double))
      return fail(fn, "the serialized state is not one of this FMU");
    auto saved = std::make_unique<SavedState>();
    saved->values.resize(count);
    std::memcpy(saved->values.data(), bytes.data() + sizeof count, count * sizeof(double));
    saved->file =
        decode_snapshot(bytes.subspan(sizeof count + count * sizeof(double)), "the serialized FMU state");
    hand_over(std::move(saved), state);
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

}  // namespace ctde::fmu
