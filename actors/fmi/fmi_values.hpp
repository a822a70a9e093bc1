#pragma once
/// Variable values of every FMI type as ctde's doubles: which Get/Set
/// family a variable uses, whether a double fits it (a whole number in
/// range, a finite Float32), and the calls themselves, converting through
/// buffers made once (the hot path allocates nothing). FMI 2.0: Real,
/// Integer (and Enumeration), Boolean; FMI 3.0: Float32/64, Int8...UInt64
/// (Enumeration is Int64), Boolean, with array variables counted by their
/// elements (nValues).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model_description.hpp"

namespace ctde {

class Fmi2Instance;
class Fmi2Library;

/// The Get/Set family of a variable.
enum class ValueType : std::uint8_t {
  kFloat64,  ///< FMI 2 Real
  kFloat32,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,  ///< FMI 2 Integer and Enumeration
  kUInt32,
  kInt64,  ///< FMI 3 Enumeration too
  kUInt64,
  kBoolean,
};
inline constexpr std::size_t kValueTypes = static_cast<std::size_t>(ValueType::kBoolean) + 1;

/// The family of `variable` (of an FMI 3.0 FMU when `fmi3`), or none for
/// String, Binary and Clock variables.
[[nodiscard]] std::optional<ValueType> value_type(const FmuVariable& variable, bool fmi3);
/// True when the double `value` can be given to a variable of `type`: any
/// value for Float64 and Boolean (true when non-zero), a finite value within
/// ±3.4e38 (or not finite) for Float32, a value whose nearest whole number
/// is in the type's range for the integer types.
[[nodiscard]] bool fits(ValueType type, double value);
/// The type and its range for messages: "an FMI Int8 (-128..127)"; FMI 2 names ("an FMI Integer").
[[nodiscard]] std::string range_text(ValueType type, bool fmi3);
/// The name of the Set (or Get) function of `type` ("fmi3SetUInt16", "fmi2GetReal").
[[nodiscard]] const char* function_name(ValueType type, bool fmi3, bool set);
/// True when `library` exports the Get and Set functions of `type`.
[[nodiscard]] bool has_functions(const Fmi2Library& library, ValueType type);

/// Gets and sets values of one family at a time as doubles. Not copyable
/// (a buffer); movable.
class FmiValues {
 public:
  /// Buffers for calls of up to `values` elements.
  explicit FmiValues(std::size_t values = 0) : raw_(values * 8) {}

  /// Sets `n_values` elements (`fits()` each: the caller checked) of the
  /// `n_refs` variables `refs`, through Fmi2Instance::call (the mode checked).
  void set(Fmi2Instance& fmu, ValueType type, const unsigned int* refs, std::size_t n_refs,
           const double* values, std::size_t n_values);
  /// Gets `n_values` elements of the `n_refs` variables `refs` into `values`.
  void get(Fmi2Instance& fmu, ValueType type, const unsigned int* refs, std::size_t n_refs, double* values,
           std::size_t n_values);

 private:
  /// Room for any type's values (8 bytes each at most): allocated storage, in
  /// which the C++20 rules create the values' objects as they are written.
  std::vector<std::byte> raw_;
};

}  // namespace ctde
