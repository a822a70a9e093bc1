#include "actors/fmi/fmi_values.hpp"

#include <array>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmi3_adapter.hpp"

namespace ctde {

namespace {

/// Per family: its FMI 3 name, FMI 3 Get and Set names, and its range (whole numbers).
struct Family {
  const char* name;
  const char* get3;
  const char* set3;
  double low, high;  ///< the range of whole numbers (high exclusive for the 64-bit types)
};

constexpr std::array<Family, kValueTypes> kFamilies{{
    {"Float64", "fmi3GetFloat64", "fmi3SetFloat64", 0, 0},
    {"Float32", "fmi3GetFloat32", "fmi3SetFloat32", 0, 0},
    {"Int8", "fmi3GetInt8", "fmi3SetInt8", -128.0, 127.0},
    {"UInt8", "fmi3GetUInt8", "fmi3SetUInt8", 0.0, 255.0},
    {"Int16", "fmi3GetInt16", "fmi3SetInt16", -32768.0, 32767.0},
    {"UInt16", "fmi3GetUInt16", "fmi3SetUInt16", 0.0, 65535.0},
    {"Int32", "fmi3GetInt32", "fmi3SetInt32", -2147483648.0, 2147483647.0},
    {"UInt32", "fmi3GetUInt32", "fmi3SetUInt32", 0.0, 4294967295.0},
    {"Int64", "fmi3GetInt64", "fmi3SetInt64", -9223372036854775808.0, 9223372036854775808.0},
    {"UInt64", "fmi3GetUInt64", "fmi3SetUInt64", 0.0, 18446744073709551616.0},
    {"Boolean", "fmi3GetBoolean", "fmi3SetBoolean", 0, 0},
}};

constexpr const Family& family(ValueType type) { return kFamilies[static_cast<std::size_t>(type)]; }

/// Converts `n` doubles to T in `out` (whole numbers rounded to the nearest).
template <class T>
const T* to(const double* values, std::size_t n, std::byte* out) {
  T* typed =
      reinterpret_cast<T*>(out);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast): allocated storage
  for (std::size_t k = 0; k < n; ++k) {
    if constexpr (std::is_same_v<T, bool>) {
      typed[k] = values[k] != 0.0;
    } else if constexpr (std::is_integral_v<T>) {
      typed[k] = static_cast<T>(std::nearbyint(values[k]));
    } else {
      typed[k] = static_cast<T>(values[k]);
    }
  }
  return typed;
}

template <class T>
void from(const std::byte* in, std::size_t n, double* values) {
  const T* typed = reinterpret_cast<const T*>(in);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  for (std::size_t k = 0; k < n; ++k) values[k] = static_cast<double>(typed[k]);
}

/// Sets through FMI 3 function `fn` of element type T.
template <class T>
void set3(Fmi2Instance& fmu, fmi3::SetFn<T> fn, const char* name, const unsigned int* refs,
          std::size_t n_refs, const double* values, std::size_t n_values, std::byte* buffer) {
  const T* typed = to<T>(values, n_values, buffer);
  const fmi3::Instance instance = fmi3_instance(fmu.component());
  fmu.call(
      FmiCall::kSetVariables,
      [&] { return static_cast<fmi2::Status>(fn(instance, refs, n_refs, typed, n_values)); }, name);
}

template <class T>
void get3(Fmi2Instance& fmu, fmi3::GetFn<T> fn, const char* name, const unsigned int* refs,
          std::size_t n_refs, double* values, std::size_t n_values, std::byte* buffer) {
  T* typed = reinterpret_cast<T*>(buffer);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  const fmi3::Instance instance = fmi3_instance(fmu.component());
  fmu.call(
      FmiCall::kGetVariables,
      [&] { return static_cast<fmi2::Status>(fn(instance, refs, n_refs, typed, n_values)); }, name);
  from<T>(buffer, n_values, values);
}

}  // namespace

std::optional<ValueType> value_type(const FmuVariable& variable, bool fmi3) {
  if (!fmi3) {
    switch (variable.type) {
      case VariableType::kReal:
        return ValueType::kFloat64;
      case VariableType::kInteger:
      case VariableType::kEnumeration:
        return ValueType::kInt32;
      case VariableType::kBoolean:
        return ValueType::kBoolean;
      default:
        return std::nullopt;
    }
  }
  if (variable.type_name == "Enumeration") return ValueType::kInt64;
  for (std::size_t t = 0; t < kValueTypes; ++t) {
    if (variable.type_name == kFamilies[t].name) return static_cast<ValueType>(t);
  }
  return std::nullopt;
}

bool fits(ValueType type, double value) {
  switch (type) {
    case ValueType::kFloat64:
    case ValueType::kBoolean:
      return true;
    case ValueType::kFloat32:
      return !std::isfinite(value) || std::fabs(value) <= static_cast<double>(FLT_MAX);
    case ValueType::kInt64:
    case ValueType::kUInt64: {
      const double whole = std::nearbyint(value);
      return whole >= family(type).low && whole < family(type).high;
    }
    default: {
      const double whole = std::nearbyint(value);
      return whole >= family(type).low && whole <= family(type).high;
    }
  }
}

std::string range_text(ValueType type, bool fmi3) {
  if (!fmi3) return type == ValueType::kInt32 ? "an FMI Integer (-2147483648..2147483647)" : "an FMI Real";
  const std::string name = family(type).name;
  switch (type) {
    case ValueType::kFloat32:
      return "an FMI Float32 (magnitude at most 3.4028235e+38)";
    case ValueType::kInt64:
      return "an FMI Int64 (-9223372036854775808..9223372036854775807)";
    case ValueType::kUInt64:
      return "an FMI UInt64 (0..18446744073709551615)";
    case ValueType::kFloat64:
    case ValueType::kBoolean:
      return "an FMI " + name;
    default: {
      const auto whole = [](double v) { return std::to_string(static_cast<long long>(v)); };
      return "an FMI " + name + " (" + whole(family(type).low) + ".." + whole(family(type).high) + ")";
    }
  }
}

const char* function_name(ValueType type, bool fmi3, bool set) {
  if (fmi3) return set ? family(type).set3 : family(type).get3;
  switch (type) {
    case ValueType::kInt32:
      return set ? "fmi2SetInteger" : "fmi2GetInteger";
    case ValueType::kBoolean:
      return set ? "fmi2SetBoolean" : "fmi2GetBoolean";
    default:
      return set ? "fmi2SetReal" : "fmi2GetReal";
  }
}

bool has_functions(const Fmi2Library& library, ValueType type) {
  if (!library.fmi3()) return true;  // Real, Integer and Boolean are required of every FMI 2 binary
  const fmi3::Functions& f = library.fmi3_functions();
  switch (type) {
    case ValueType::kFloat64:
      return f.get_float64 != nullptr && f.set_float64 != nullptr;
    case ValueType::kFloat32:
      return f.get_float32 != nullptr && f.set_float32 != nullptr;
    case ValueType::kInt8:
      return f.get_int8 != nullptr && f.set_int8 != nullptr;
    case ValueType::kUInt8:
      return f.get_uint8 != nullptr && f.set_uint8 != nullptr;
    case ValueType::kInt16:
      return f.get_int16 != nullptr && f.set_int16 != nullptr;
    case ValueType::kUInt16:
      return f.get_uint16 != nullptr && f.set_uint16 != nullptr;
    case ValueType::kInt32:
      return f.get_int32 != nullptr && f.set_int32 != nullptr;
    case ValueType::kUInt32:
      return f.get_uint32 != nullptr && f.set_uint32 != nullptr;
    case ValueType::kInt64:
      return f.get_int64 != nullptr && f.set_int64 != nullptr;
    case ValueType::kUInt64:
      return f.get_uint64 != nullptr && f.set_uint64 != nullptr;
    case ValueType::kBoolean:
      return f.get_boolean != nullptr && f.set_boolean != nullptr;
  }
  return false;
}

void FmiValues::set(Fmi2Instance& fmu, ValueType type, const unsigned int* refs, std::size_t n_refs,
                    const double* values, std::size_t n_values) {
  if (type == ValueType::kFloat64 && !fmu.kind().fmi3) {  // the common case first: no conversion
    fmu.call(FmiCall::kSetVariables, [&] { return fmu.f().set_real(fmu.component(), refs, n_refs, values); });
    return;
  }
  if (raw_.size() < 8 * n_values) raw_.resize(8 * n_values);  // sized in make_state(): never on the hot path
  std::byte* buffer = raw_.data();
  const char* name = function_name(type, fmu.kind().fmi3, true);
  if (!fmu.kind().fmi3) {
    const auto& f = fmu.f();
    // Integer (and Enumeration) and Boolean are C ints.
    int* ints = reinterpret_cast<int*>(buffer);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    for (std::size_t k = 0; k < n_values; ++k) {
      ints[k] = type == ValueType::kBoolean ? (values[k] != 0.0 ? fmi2::kTrue : fmi2::kFalse)
                                            : static_cast<int>(std::nearbyint(values[k]));
    }
    const auto set = type == ValueType::kBoolean ? f.set_boolean : f.set_integer;
    fmu.call(
        FmiCall::kSetVariables, [&] { return set(fmu.component(), refs, n_refs, ints); }, name);
    return;
  }
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  switch (type) {
    case ValueType::kFloat64:
      set3<double>(fmu, f.set_float64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kFloat32:
      set3<float>(fmu, f.set_float32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt8:
      set3<std::int8_t>(fmu, f.set_int8, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt8:
      set3<std::uint8_t>(fmu, f.set_uint8, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt16:
      set3<std::int16_t>(fmu, f.set_int16, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt16:
      set3<std::uint16_t>(fmu, f.set_uint16, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt32:
      set3<std::int32_t>(fmu, f.set_int32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt32:
      set3<std::uint32_t>(fmu, f.set_uint32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt64:
      set3<std::int64_t>(fmu, f.set_int64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt64:
      set3<std::uint64_t>(fmu, f.set_uint64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kBoolean:
      set3<bool>(fmu, f.set_boolean, name, refs, n_refs, values, n_values, buffer);
      break;
  }
}

void FmiValues::get(Fmi2Instance& fmu, ValueType type, const unsigned int* refs, std::size_t n_refs,
                    double* values, std::size_t n_values) {
  if (type == ValueType::kFloat64 && !fmu.kind().fmi3) {  // the common case first: no conversion
    fmu.call(FmiCall::kGetVariables, [&] { return fmu.f().get_real(fmu.component(), refs, n_refs, values); });
    return;
  }
  if (raw_.size() < 8 * n_values) raw_.resize(8 * n_values);
  std::byte* buffer = raw_.data();
  const char* name = function_name(type, fmu.kind().fmi3, false);
  if (!fmu.kind().fmi3) {
    const auto& f = fmu.f();
    int* ints = reinterpret_cast<int*>(buffer);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    const auto get = type == ValueType::kBoolean ? f.get_boolean : f.get_integer;
    fmu.call(
        FmiCall::kGetVariables, [&] { return get(fmu.component(), refs, n_refs, ints); }, name);
    for (std::size_t k = 0; k < n_values; ++k) {
      values[k] = type == ValueType::kBoolean ? (ints[k] != fmi2::kFalse ? 1.0 : 0.0) : ints[k];
    }
    return;
  }
  const fmi3::Functions& f = fmu.library().fmi3_functions();
  switch (type) {
    case ValueType::kFloat64:
      get3<double>(fmu, f.get_float64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kFloat32:
      get3<float>(fmu, f.get_float32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt8:
      get3<std::int8_t>(fmu, f.get_int8, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt8:
      get3<std::uint8_t>(fmu, f.get_uint8, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt16:
      get3<std::int16_t>(fmu, f.get_int16, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt16:
      get3<std::uint16_t>(fmu, f.get_uint16, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt32:
      get3<std::int32_t>(fmu, f.get_int32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt32:
      get3<std::uint32_t>(fmu, f.get_uint32, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kInt64:
      get3<std::int64_t>(fmu, f.get_int64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kUInt64:
      get3<std::uint64_t>(fmu, f.get_uint64, name, refs, n_refs, values, n_values, buffer);
      break;
    case ValueType::kBoolean:
      get3<bool>(fmu, f.get_boolean, name, refs, n_refs, values, n_values, buffer);
      break;
  }
}

}  // namespace ctde
