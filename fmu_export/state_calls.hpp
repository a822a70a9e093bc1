#pragma once
/// The FMU state functions of both FMI versions over the importer's opaque
/// pointers (fmi3FMUState and fmi2FMUstate are both void*): fmi3GetFMUState
/// and fmi2GetFMUstate... each call one of these with their own names, so
/// that the two versions cannot drift apart. A null instance is kError
/// without a message (nothing to log it with); the instance checks the rest.

#include <cstddef>

#include "exported_instance.hpp"

namespace ctde::fmu::state_calls {

/// Get*State: into `*state` (a fresh one when null, else overwritten).
[[nodiscard]] Status get(ExportedInstance* m, void** state) noexcept;
/// Set*State from `state`; `function` names the call in the message for a null state.
[[nodiscard]] Status set(ExportedInstance* m, const void* state, const char* function) noexcept;
/// Free*State: deletes `*state` and sets it null (a null `state` is no error).
[[nodiscard]] Status free(const ExportedInstance* m, void** state) noexcept;
/// Serialized*StateSize.
[[nodiscard]] Status size(ExportedInstance* m, const void* state, std::size_t* size) noexcept;
/// Serialize*State into `out` of `size` bytes, which must be what size()
/// gave (`function`, `size_function`: the version's names for the message).
[[nodiscard]] Status write(ExportedInstance* m, const void* state, std::byte* out, std::size_t size,
                           const char* function, const char* size_function) noexcept;
/// Deserialize*State: into `*state` as get() does.
[[nodiscard]] Status read(ExportedInstance* m, const std::byte* bytes, std::size_t size,
                          void** state) noexcept;

}  // namespace ctde::fmu::state_calls
