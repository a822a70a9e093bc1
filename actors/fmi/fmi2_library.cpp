#include "actors/fmi/fmi2_library.hpp"

#include <dlfcn.h>

#include <array>
#include <cstring>
#include <fstream>

#include "actors/fmi/fmi3_adapter.hpp"
#include "core/error.hpp"

namespace ctde {

namespace {

/// This machine's platform folders: FMI 2.0 names x86 platforms only
/// ("linux64" is x86-64, "linux32" x86), FMI 3.0 the <arch>-<os> tuple.
struct PlatformNames {
  const char* fmi2;
  const char* fmi3;
};
#if defined(__linux__) && defined(__x86_64__)
constexpr PlatformNames kPlatform{"linux64", "x86_64-linux"};
#elif defined(__linux__) && defined(__aarch64__)
constexpr PlatformNames kPlatform{"", "aarch64-linux"};
#elif defined(__linux__) && defined(__i386__)
constexpr PlatformNames kPlatform{"linux32", "x86-linux"};
#else
constexpr PlatformNames kPlatform{"", ""};
#endif

}  // namespace

const char* fmi2_platform() { return kPlatform.fmi2; }
const char* fmi3_platform() { return kPlatform.fmi3; }

const char* fmi_platform(const std::string& version) {
  return version == "3.0" ? fmi3_platform() : fmi2_platform();
}

namespace {

template <class Fn>
void look_up(void* handle, const char* name, Fn& fn, const std::string& what) {
  void* symbol = dlsym(handle, name);
  if (symbol == nullptr) {
    throw ModelError(what + ": the binary does not export the required function " + name);
  }
  // POSIX guarantees that a data pointer from dlsym converts to a function pointer.
  fn = reinterpret_cast<Fn>(symbol);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

/// A function the binary may lack: null then.
template <class Fn>
void look_up_optional(void* handle, const char* name, Fn& fn) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): POSIX dlsym
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
}

/// Looks up `prefix` + names[i] into fns...[i], in order.
template <std::size_t N, class... Fn>
void look_up_all(void* handle, const char* prefix, const std::array<const char*, N>& names,
                 const std::string& what, Fn&... fns) {
  static_assert(sizeof...(Fn) == N);
  std::size_t i = 0;
  (look_up(handle, (prefix + std::string(names[i++])).c_str(), fns, what), ...);
}

/// The functions that FMI 2.0 and 3.0 name alike (after "fmi2" or "fmi3"):
/// all interfaces', and Model Exchange's.
constexpr std::array<const char*, 7> kShared{
    "GetVersion", "FreeInstance", "EnterInitializationMode", "ExitInitializationMode", "Terminate",
    "GetBoolean", "SetBoolean"};
constexpr std::array<const char*, 8> kSharedModelExchange{
    "EnterEventMode",          "EnterContinuousTimeMode",
    "CompletedIntegratorStep", "SetTime",
    "SetContinuousStates",     "GetEventIndicators",
    "GetContinuousStates",     "GetNominalsOfContinuousStates"};

/// Looks up the functions named alike into the members of `f` of the same
/// names, for the interface chosen.
template <class Functions>
void look_up_shared(void* handle, const char* prefix, bool model_exchange, Functions& f,
                    const std::string& what) {
  look_up_all(handle, prefix, kShared, what, f.get_version, f.free_instance, f.enter_initialization_mode,
              f.exit_initialization_mode, f.terminate, f.get_boolean, f.set_boolean);
  if (model_exchange) {
    look_up_all(handle, prefix, kSharedModelExchange, what, f.enter_event_mode, f.enter_continuous_time_mode,
                f.completed_integrator_step, f.set_time, f.set_continuous_states, f.get_event_indicators,
                f.get_continuous_states, f.get_nominals);
  } else {
    look_up(handle, (prefix + std::string("DoStep")).c_str(), f.do_step, what);
  }
}

}  // namespace

std::string elf_mismatch(const std::filesystem::path& binary) {
  std::ifstream in(binary, std::ios::binary);
  std::array<unsigned char, 20> header{};
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  if (in.gcount() < static_cast<std::streamsize>(header.size()) || header[0] != 0x7f || header[1] != 'E' ||
      header[2] != 'L' || header[3] != 'F') {
    return "it is not an ELF shared library (a Linux binary starts with the bytes 0x7f 'E' 'L' 'F')";
  }
  const bool big_endian = header[5] == 2;
  const unsigned machine = big_endian ? (header[18] << 8U) | header[19] : header[18] | (header[19] << 8U);
  const auto name = [](unsigned m) -> std::string {
    switch (m) {
      case 3:
        return "x86 (32-bit)";
      case 40:
        return "ARM (32-bit)";
      case 62:
        return "x86-64";
      case 183:
        return "AArch64";
      case 243:
        return "RISC-V";
      default:
        return "ELF machine " + std::to_string(m);
    }
  };
#if defined(__x86_64__)
  constexpr unsigned kHere = 62;
#elif defined(__aarch64__)
  constexpr unsigned kHere = 183;
#elif defined(__i386__)
  constexpr unsigned kHere = 3;
#else
  constexpr unsigned kHere = 0;
#endif
  const unsigned bits = header[4] == 2 ? 64 : 32;
  const unsigned here_bits = sizeof(void*) * 8;
  if (kHere != 0 && (machine != kHere || bits != here_bits)) {
    return "it is built for " + name(machine) + " (" + std::to_string(bits) + "-bit ELF, machine " +
           std::to_string(machine) + "), and this machine runs " + name(kHere);
  }
  return {};
}

fmi2::Component Fmi2Library::instantiate(const std::string& instance_name, fmi2::Type type,
                                         const std::string& guid, const std::string& resource_uri,
                                         const fmi2::CallbackFunctions* callbacks) const {
  if (fmi3_) return fmi3_instantiate(f3_, instance_name, type, guid, resource_uri, callbacks);
  return f_.instantiate(instance_name.c_str(), type, guid.c_str(), resource_uri.c_str(), callbacks,
                        fmi2::kFalse, fmi2::kFalse);
}

Fmi2Library::Fmi2Library(const std::filesystem::path& binary, bool model_exchange, const std::string& version,
                         const std::string& what) {
  fmi3_ = version == "3.0";
  if (!std::filesystem::exists(binary)) {
    const std::string platform = binary.parent_path().filename().string();
    throw ModelError(what + ": no binary for this platform (" + platform +
                     "): " + binary.filename().string() + " is not in binaries/" + platform + "/");
  }
  handle_ = dlopen(binary.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    const std::string elf = elf_mismatch(binary);
    throw ModelError(what + ": cannot load its binary " + binary.filename().string() + ": " +
                     (elf.empty() ? std::string(reason == nullptr ? "" : reason) : elf));
  }
  try {
    if (fmi3_) {
      look_up_fmi3(model_exchange, what);
      return;
    }
    look_up_shared(handle_, "fmi2", model_exchange, f_, what);
    look_up_all(
        handle_, "fmi2",
        std::array{"Instantiate", "SetupExperiment", "GetReal", "GetInteger", "SetReal", "SetInteger"}, what,
        f_.instantiate, f_.setup_experiment, f_.get_real, f_.get_integer, f_.set_real, f_.set_integer);
    look_up_optional(handle_, "fmi2SetString", f_.set_string);
    if (model_exchange) {
      look_up_all(handle_, "fmi2", std::array{"NewDiscreteStates", "GetDerivatives"}, what,
                  f_.new_discrete_states, f_.get_derivatives);
    } else {
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): POSIX dlsym
      f_.get_boolean_status =
          reinterpret_cast<fmi2::GetBooleanStatusFn>(dlsym(handle_, "fmi2GetBooleanStatus"));
    }
    const char* reported = f_.get_version();
    if (reported == nullptr || std::strcmp(reported, "2.0") != 0) {
      throw ModelError(what + ": its binary reports FMI version '" +
                       std::string(reported == nullptr ? "" : reported) + "', not 2.0");
    }
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

void Fmi2Library::look_up_fmi3(bool model_exchange, const std::string& what) {
  look_up_shared(handle_, "fmi3", model_exchange, f3_, what);
  look_up_all(handle_, "fmi3", std::array{"GetFloat64", "GetInt32", "SetFloat64", "SetInt32"}, what,
              f3_.get_float64, f3_.get_int32, f3_.set_float64, f3_.set_int32);
  if (model_exchange) {
    look_up_all(
        handle_, "fmi3",
        std::array{"InstantiateModelExchange", "UpdateDiscreteStates", "GetContinuousStateDerivatives"}, what,
        f3_.instantiate_model_exchange, f3_.update_discrete_states, f3_.get_continuous_state_derivatives);
  } else {
    look_up(handle_, "fmi3InstantiateCoSimulation", f3_.instantiate_co_simulation, what);
  }
  look_up_optional(handle_, "fmi3GetClock", f3_.get_clock);
  look_up_optional(handle_, "fmi3SetClock", f3_.set_clock);
  look_up_optional(handle_, "fmi3GetIntervalDecimal", f3_.get_interval_decimal);
  look_up_optional(handle_, "fmi3SetIntervalDecimal", f3_.set_interval_decimal);
  look_up_optional(handle_, "fmi3GetShiftDecimal", f3_.get_shift_decimal);
  look_up_optional(handle_, "fmi3GetFloat32", f3_.get_float32);
  look_up_optional(handle_, "fmi3SetFloat32", f3_.set_float32);
  look_up_optional(handle_, "fmi3GetInt8", f3_.get_int8);
  look_up_optional(handle_, "fmi3SetInt8", f3_.set_int8);
  look_up_optional(handle_, "fmi3GetUInt8", f3_.get_uint8);
  look_up_optional(handle_, "fmi3SetUInt8", f3_.set_uint8);
  look_up_optional(handle_, "fmi3GetInt16", f3_.get_int16);
  look_up_optional(handle_, "fmi3SetInt16", f3_.set_int16);
  look_up_optional(handle_, "fmi3GetUInt16", f3_.get_uint16);
  look_up_optional(handle_, "fmi3SetUInt16", f3_.set_uint16);
  look_up_optional(handle_, "fmi3GetUInt32", f3_.get_uint32);
  look_up_optional(handle_, "fmi3SetUInt32", f3_.set_uint32);
  look_up_optional(handle_, "fmi3GetInt64", f3_.get_int64);
  look_up_optional(handle_, "fmi3SetInt64", f3_.set_int64);
  look_up_optional(handle_, "fmi3GetUInt64", f3_.get_uint64);
  look_up_optional(handle_, "fmi3SetUInt64", f3_.set_uint64);
  look_up_optional(handle_, "fmi3SetString", f3_.set_string);
  look_up_optional(handle_, "fmi3SetBinary", f3_.set_binary);
  const char* reported = f3_.get_version();
  if (reported == nullptr || std::strncmp(reported, "3.", 2) != 0) {
    throw ModelError(what + ": its binary reports FMI version '" +
                     std::string(reported == nullptr ? "" : reported) + "', not 3.0");
  }
  f_ = fmi3_adapter_functions();
  if (f3_.set_string == nullptr) f_.set_string = nullptr;  // optional, as fmi2SetString
}

void Fmi2Library::look_up_fmu_state() {
  if (fmi3_) {
    look_up_optional(handle_, "fmi3GetFMUState", f3_.get_fmu_state);
    look_up_optional(handle_, "fmi3SetFMUState", f3_.set_fmu_state);
    look_up_optional(handle_, "fmi3FreeFMUState", f3_.free_fmu_state);
    look_up_optional(handle_, "fmi3SerializedFMUStateSize", f3_.serialized_fmu_state_size);
    look_up_optional(handle_, "fmi3SerializeFMUState", f3_.serialize_fmu_state);
    look_up_optional(handle_, "fmi3DeserializeFMUState", f3_.deserialize_fmu_state);
    fmi3_adapter_fmu_state(f3_, f_);  // the adapter's entry where the binary has the function
    return;
  }
  look_up_optional(handle_, "fmi2GetFMUstate", f_.get_fmu_state);
  look_up_optional(handle_, "fmi2SetFMUstate", f_.set_fmu_state);
  look_up_optional(handle_, "fmi2FreeFMUstate", f_.free_fmu_state);
  look_up_optional(handle_, "fmi2SerializedFMUstateSize", f_.serialized_fmu_state_size);
  look_up_optional(handle_, "fmi2SerializeFMUstate", f_.serialize_fmu_state);
  look_up_optional(handle_, "fmi2DeSerializeFMUstate", f_.deserialize_fmu_state);
}

bool Fmi2Library::look_up_directional_derivative() {
  if (fmi3_) {
    look_up_optional(handle_, "fmi3GetDirectionalDerivative", f3_.get_directional_derivative);
    fmi3_adapter_directional_derivative(f3_, f_);
  } else {
    look_up_optional(handle_, "fmi2GetDirectionalDerivative", f_.get_directional_derivative);
  }
  return f_.get_directional_derivative != nullptr;
}

const char* Fmi2Library::missing_fmu_state_function(bool serialize) const {
  struct Entry {
    bool present;
    const char* fmi2;
    const char* fmi3;
    bool serialization;
  };
  const std::array<Entry, 6> entries{{
      {f_.get_fmu_state != nullptr, "fmi2GetFMUstate", "fmi3GetFMUState", false},
      {f_.set_fmu_state != nullptr, "fmi2SetFMUstate", "fmi3SetFMUState", false},
      {f_.free_fmu_state != nullptr, "fmi2FreeFMUstate", "fmi3FreeFMUState", false},
      {f_.serialized_fmu_state_size != nullptr, "fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize",
       true},
      {f_.serialize_fmu_state != nullptr, "fmi2SerializeFMUstate", "fmi3SerializeFMUState", true},
      {f_.deserialize_fmu_state != nullptr, "fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState", true},
  }};
  for (const Entry& e : entries) {
    if (!e.present && (serialize || !e.serialization)) return fmi3_ ? e.fmi3 : e.fmi2;
  }
  return nullptr;
}

Fmi2Library::~Fmi2Library() { dlclose(handle_); }

}  // namespace ctde
