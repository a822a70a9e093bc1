#pragma once
/// The signals a run records (a model's `record` list, docs/model-format.md,
/// "Results file") and the names of their columns: `actor.port` for width
/// 1, `actor.port[i]` for element i otherwise.

#include <cstdint>
#include <string>
#include <vector>

#include "flat_model.hpp"

namespace ctde {

/// One recorded output port. Copyable value type.
struct RecordedSignal {
  std::string name;        ///< "actor.port"
  FlatIndex actor;         ///< its actor in the FlatModel
  std::uint32_t port = 0;  ///< output index
  std::uint32_t width = 1;
  bool discrete = false;
};

/// Resolves `record` endpoints ("h.out") against the flattened model.
/// @throws ModelError naming an unknown actor or output, or an entry listed twice.
[[nodiscard]] std::vector<RecordedSignal> resolve_record(const FlatModel& model,
                                                         const std::vector<std::string>& record);

/// The column of element `element` (< signal.width) of `signal`: its name
/// for width 1, `name[element]` otherwise.
[[nodiscard]] std::string column_name(const RecordedSignal& signal, std::uint32_t element);

/// Every column of `signals`, in order: one per scalar element.
[[nodiscard]] std::vector<std::string> column_names(const std::vector<RecordedSignal>& signals);

}  // namespace ctde
