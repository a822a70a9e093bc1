#pragma once
/// What the FMI 2 and FMI 3 functions of Model Exchange share
/// (fmi2_functions.cpp, fmi3_functions.cpp): the check of an array
/// argument before the instance's call.

#include <cstddef>
#include <span>
#include <string>

#include "exported_instance.hpp"

namespace ctde::fmu {

/// `call(*m, values)` for an array of `n` values: a null instance is an
/// error, and a null array for n > 0 an error naming `function`.
template <typename Value, typename Call>
Status with_array(ExportedInstance* m, const char* function, Value* values, std::size_t n, Call call) {
  if (m == nullptr) return Status::kError;
  if (n > 0 && values == nullptr)
    return m->fail(function, "a NULL array of " + std::to_string(n) + " values");
  return call(*m, std::span<Value>(values, values == nullptr ? 0 : n));
}

}  // namespace ctde::fmu
