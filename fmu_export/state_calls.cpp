#include "fmu_export/state_calls.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace ctde::fmu::state_calls {

Status get(ExportedInstance* m, void** state) noexcept {
  if (m == nullptr || state == nullptr) return Status::kError;
  auto* saved = static_cast<SavedState*>(*state);
  const Status s = m->get_state(saved);
  *state = saved;
  return s;
}

Status set(ExportedInstance* m, const void* state, const char* function) noexcept {
  if (m == nullptr) return Status::kError;
  if (state == nullptr) return m->fail(function, "a null FMU state");
  return m->set_state(*static_cast<const SavedState*>(state));
}

Status free(const ExportedInstance* m, void** state) noexcept {
  if (m == nullptr) return Status::kError;
  if (state == nullptr) return Status::kOk;
  delete static_cast<SavedState*>(*state);
  *state = nullptr;
  return Status::kOk;
}

Status size(ExportedInstance* m, const void* state, std::size_t* size) noexcept {
  if (m == nullptr || state == nullptr || size == nullptr) return Status::kError;
  std::vector<std::byte> bytes;
  const Status s = m->serialize(*static_cast<const SavedState*>(state), bytes);
  *size = bytes.size();
  return s;
}

Status write(ExportedInstance* m, const void* state, std::byte* out, std::size_t size, const char* function,
             const char* size_function) noexcept {
  if (m == nullptr || state == nullptr || out == nullptr) return Status::kError;
  std::vector<std::byte> bytes;
  const Status s = m->serialize(*static_cast<const SavedState*>(state), bytes);
  if (s != Status::kOk) return s;
  if (size != bytes.size()) {
    try {
      return m->fail(function, "size " + std::to_string(size) + " is not the " +
                                   std::to_string(bytes.size()) + " bytes " + size_function + " gave");
    } catch (...) {  // the message could not be made: still an error
      return Status::kError;
    }
  }
  std::copy(bytes.begin(), bytes.end(), out);
  return Status::kOk;
}

Status read(ExportedInstance* m, const std::byte* bytes, std::size_t size, void** state) noexcept {
  if (m == nullptr || bytes == nullptr || state == nullptr) return Status::kError;
  auto* saved = static_cast<SavedState*>(*state);
  const Status s = m->deserialize(std::span<const std::byte>(bytes, size), saved);
  *state = saved;
  return s;
}

}  // namespace ctde::fmu::state_calls
