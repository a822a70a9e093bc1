#include "actors/fmi/fmi2_library.hpp"

#include <dlfcn.h>

#include <cstring>

#include "core/error.hpp"

namespace ctde {

const char* fmi2_platform() {
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
  return "linux64";
#elif defined(__linux__)
  return "linux32";
#else
  return "unknown";
#endif
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

}  // namespace

Fmi2Library::Fmi2Library(const std::filesystem::path& binary, bool model_exchange, const std::string& what) {
  if (!std::filesystem::exists(binary)) {
    throw ModelError(what + ": no binary for this platform (" + std::string(fmi2_platform()) +
                     "): " + binary.filename().string() + " is not in binaries/" + fmi2_platform() + "/");
  }
  handle_ = dlopen(binary.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    throw ModelError(what + ": cannot load its binary: " + std::string(reason == nullptr ? "" : reason));
  }
  try {
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
    }
    const char* version = f_.get_version();
    if (version == nullptr || std::strcmp(version, "2.0") != 0) {
      throw ModelError(what + ": its binary reports FMI version '" +
                       std::string(version == nullptr ? "" : version) + "', not 2.0");
    }
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

Fmi2Library::~Fmi2Library() { dlclose(handle_); }

}  // namespace ctde
