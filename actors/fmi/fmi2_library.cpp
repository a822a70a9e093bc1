#include "actors/fmi/fmi2_library.hpp"

#include <dlfcn.h>

#include <cstring>

#include "actors/fmi/fmi3_adapter.hpp"
#include "core/error.hpp"

namespace ctde {

const char* fmi2_platform() {
  // FMI 2.0 names x86 platforms only: "linux64" is x86-64, "linux32" x86.
#if defined(__linux__) && defined(__x86_64__)
  return "linux64";
#elif defined(__linux__) && defined(__i386__)
  return "linux32";
#else
  return "";
#endif
}

const char* fmi3_platform() {
#if defined(__linux__) && defined(__x86_64__)
  return "x86_64-linux";
#elif defined(__linux__) && defined(__aarch64__)
  return "aarch64-linux";
#elif defined(__linux__) && defined(__i386__)
  return "x86-linux";
#else
  return "";
#endif
}

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

}  // namespace

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
    throw ModelError(what + ": cannot load its binary: " + std::string(reason == nullptr ? "" : reason));
  }
  try {
    if (fmi3_) {
      look_up_fmi3(model_exchange, what);
      return;
    }
    look_up(handle_, "fmi2GetVersion", f_.get_version, what);
    look_up(handle_, "fmi2Instantiate", f_.instantiate, what);
    look_up(handle_, "fmi2FreeInstance", f_.free_instance, what);
    look_up(handle_, "fmi2SetupExperiment", f_.setup_experiment, what);
    look_up(handle_, "fmi2EnterInitializationMode", f_.enter_initialization_mode, what);
    look_up(handle_, "fmi2ExitInitializationMode", f_.exit_initialization_mode, what);
    look_up(handle_, "fmi2Terminate", f_.terminate, what);
    look_up(handle_, "fmi2GetReal", f_.get_real, what);
    look_up(handle_, "fmi2GetInteger", f_.get_integer, what);
    look_up(handle_, "fmi2GetBoolean", f_.get_boolean, what);
    look_up(handle_, "fmi2SetReal", f_.set_real, what);
    look_up(handle_, "fmi2SetInteger", f_.set_integer, what);
    look_up(handle_, "fmi2SetBoolean", f_.set_boolean, what);
    if (model_exchange) {
      look_up(handle_, "fmi2EnterEventMode", f_.enter_event_mode, what);
      look_up(handle_, "fmi2NewDiscreteStates", f_.new_discrete_states, what);
      look_up(handle_, "fmi2EnterContinuousTimeMode", f_.enter_continuous_time_mode, what);
      look_up(handle_, "fmi2CompletedIntegratorStep", f_.completed_integrator_step, what);
      look_up(handle_, "fmi2SetTime", f_.set_time, what);
      look_up(handle_, "fmi2SetContinuousStates", f_.set_continuous_states, what);
      look_up(handle_, "fmi2GetDerivatives", f_.get_derivatives, what);
      look_up(handle_, "fmi2GetEventIndicators", f_.get_event_indicators, what);
      look_up(handle_, "fmi2GetContinuousStates", f_.get_continuous_states, what);
      look_up(handle_, "fmi2GetNominalsOfContinuousStates", f_.get_nominals, what);
    } else {
      look_up(handle_, "fmi2DoStep", f_.do_step, what);
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
  look_up(handle_, "fmi3GetVersion", f3_.get_version, what);
  look_up(handle_, "fmi3FreeInstance", f3_.free_instance, what);
  look_up(handle_, "fmi3EnterInitializationMode", f3_.enter_initialization_mode, what);
  look_up(handle_, "fmi3ExitInitializationMode", f3_.exit_initialization_mode, what);
  look_up(handle_, "fmi3Terminate", f3_.terminate, what);
  look_up(handle_, "fmi3GetFloat64", f3_.get_float64, what);
  look_up(handle_, "fmi3GetInt32", f3_.get_int32, what);
  look_up(handle_, "fmi3GetBoolean", f3_.get_boolean, what);
  look_up(handle_, "fmi3SetFloat64", f3_.set_float64, what);
  look_up(handle_, "fmi3SetInt32", f3_.set_int32, what);
  look_up(handle_, "fmi3SetBoolean", f3_.set_boolean, what);
  if (model_exchange) {
    look_up(handle_, "fmi3InstantiateModelExchange", f3_.instantiate_model_exchange, what);
    look_up(handle_, "fmi3EnterEventMode", f3_.enter_event_mode, what);
    look_up(handle_, "fmi3UpdateDiscreteStates", f3_.update_discrete_states, what);
    look_up(handle_, "fmi3EnterContinuousTimeMode", f3_.enter_continuous_time_mode, what);
    look_up(handle_, "fmi3CompletedIntegratorStep", f3_.completed_integrator_step, what);
    look_up(handle_, "fmi3SetTime", f3_.set_time, what);
    look_up(handle_, "fmi3SetContinuousStates", f3_.set_continuous_states, what);
    look_up(handle_, "fmi3GetContinuousStateDerivatives", f3_.get_continuous_state_derivatives, what);
    look_up(handle_, "fmi3GetEventIndicators", f3_.get_event_indicators, what);
    look_up(handle_, "fmi3GetContinuousStates", f3_.get_continuous_states, what);
    look_up(handle_, "fmi3GetNominalsOfContinuousStates", f3_.get_nominals, what);
  } else {
    look_up(handle_, "fmi3InstantiateCoSimulation", f3_.instantiate_co_simulation, what);
    look_up(handle_, "fmi3DoStep", f3_.do_step, what);
  }
  look_up_optional(handle_, "fmi3GetClock", f3_.get_clock);
  look_up_optional(handle_, "fmi3SetClock", f3_.set_clock);
  look_up_optional(handle_, "fmi3GetIntervalDecimal", f3_.get_interval_decimal);
  look_up_optional(handle_, "fmi3SetIntervalDecimal", f3_.set_interval_decimal);
  look_up_optional(handle_, "fmi3GetShiftDecimal", f3_.get_shift_decimal);
  const char* reported = f3_.get_version();
  if (reported == nullptr || std::strncmp(reported, "3.", 2) != 0) {
    throw ModelError(what + ": its binary reports FMI version '" +
                     std::string(reported == nullptr ? "" : reported) + "', not 3.0");
  }
  f_ = fmi3_adapter_functions();
}

Fmi2Library::~Fmi2Library() { dlclose(handle_); }

}  // namespace ctde
