#pragma once
/// An FMI binary loaded with dlopen, and the functions ctde calls in it:
/// FMI 2.0 directly, FMI 3.0 (Model Exchange, Co-Simulation) through the adapter of
/// fmi3_adapter.hpp, so that the actor calls one FMI 2.0-shaped table.

#include <atomic>
#include <filesystem>
#include <string>

#include "fmi2_api.hpp"
#include "fmi3_api.hpp"

namespace ctde {

/// The functions of one FMI 2.0 binary. Those of an interface the FMU does
/// not offer stay null. Copyable (plain pointers).
struct Fmi2Functions {
  fmi2::GetVersionFn get_version = nullptr;
  fmi2::InstantiateFn instantiate = nullptr;
  fmi2::FreeInstanceFn free_instance = nullptr;
  fmi2::SetupExperimentFn setup_experiment = nullptr;
  fmi2::EnterInitializationModeFn enter_initialization_mode = nullptr;
  fmi2::ExitInitializationModeFn exit_initialization_mode = nullptr;
  fmi2::TerminateFn terminate = nullptr;
  fmi2::GetRealFn get_real = nullptr;
  fmi2::GetIntegerFn get_integer = nullptr;
  fmi2::GetBooleanFn get_boolean = nullptr;
  fmi2::SetRealFn set_real = nullptr;
  fmi2::SetIntegerFn set_integer = nullptr;
  fmi2::SetBooleanFn set_boolean = nullptr;
  /// Optional: a String start value needs it (FMI 3: fmi3SetString, through the adapter).
  fmi2::SetStringFn set_string = nullptr;
  // Model Exchange
  fmi2::EnterEventModeFn enter_event_mode = nullptr;
  fmi2::NewDiscreteStatesFn new_discrete_states = nullptr;
  fmi2::States::EnterContinuousTimeMode enter_continuous_time_mode = nullptr;
  fmi2::States::CompletedIntegratorStep completed_integrator_step = nullptr;
  fmi2::States::SetTime set_time = nullptr;
  fmi2::States::SetContinuousStates set_continuous_states = nullptr;
  fmi2::States::GetDerivatives get_derivatives = nullptr;
  fmi2::States::GetEventIndicators get_event_indicators = nullptr;
  fmi2::States::GetContinuousStates get_continuous_states = nullptr;
  fmi2::States::GetNominalsOfContinuousStates get_nominals = nullptr;
  // Co-Simulation
  fmi2::DoStepFn do_step = nullptr;
  /// Optional (null when the binary lacks it): asked whether a discarded
  /// step means the FMU terminated.
  fmi2::GetBooleanStatusFn get_boolean_status = nullptr;
  // The FMU state (FMI 2.0 spec 2.1.8; FMI 3.0 through the adapter): looked
  // up by Fmi2Library::look_up_fmu_state, when the description declares
  // canGetAndSetFMUstate; null otherwise or when the binary lacks them.
  fmi2::FmuStateFunctions::GetFMUState get_fmu_state = nullptr;
  fmi2::FmuStateFunctions::SetFMUState set_fmu_state = nullptr;
  fmi2::FmuStateFunctions::FreeFMUState free_fmu_state = nullptr;
  fmi2::FmuStateFunctions::SerializedFMUStateSize serialized_fmu_state_size = nullptr;
  fmi2::FmuStateFunctions::SerializeFMUState serialize_fmu_state = nullptr;
  fmi2::FmuStateFunctions::DeserializeFMUState deserialize_fmu_state = nullptr;
  /// Looked up by Fmi2Library::look_up_directional_derivative, when the description
  /// declares providesDirectionalDerivative(s); null otherwise or when the binary lacks it.
  fmi2::GetDirectionalDerivativeFn get_directional_derivative = nullptr;
};

/// Why `binary` cannot run on this machine, read from its ELF header: "it
/// is built for AArch64 (64-bit ELF, machine 183), and this machine runs
/// x86-64", or "it is not an ELF shared library"; empty when it is this
/// machine's kind (dlopen's own message then says what is wrong).
[[nodiscard]] std::string elf_mismatch(const std::filesystem::path& binary);

/// A loaded binary. Not copyable, not movable (instances point into it).
class Fmi2Library {
 public:
  /// Loads `binary` (binaries/<platform>/<id>.so) and looks up the common functions and those of the
  /// chosen interface.
  /// @param what names the FMU in messages ("FMU 'ball.fmu'").
  /// @throws ModelError naming the FMU and what is wrong: no binary for this
  ///         platform, dlopen's message, a missing function, a binary that
  ///         reports a version other than 2.0.
  /// @param version "2.0" or "3.0".
  Fmi2Library(const std::filesystem::path& binary, bool model_exchange, const std::string& version,
              const std::string& what);
  ~Fmi2Library();
  Fmi2Library(const Fmi2Library&) = delete;
  Fmi2Library& operator=(const Fmi2Library&) = delete;
  Fmi2Library(Fmi2Library&&) = delete;
  Fmi2Library& operator=(Fmi2Library&&) = delete;

  [[nodiscard]] const Fmi2Functions& functions() const { return f_; }
  /// fmi2Instantiate, or fmi3InstantiateModelExchange behind the adapter;
  /// null when the FMU refuses (it says why through the logger).
  [[nodiscard]] fmi2::Component instantiate(const std::string& instance_name, fmi2::Type type,
                                            const std::string& guid, const std::string& resource_uri,
                                            const fmi2::CallbackFunctions* callbacks) const;
  /// True for an FMI 3.0 binary (called through the adapter).
  [[nodiscard]] bool fmi3() const { return fmi3_; }
  /// The FMI 3.0 functions themselves (fmi3() only): the clocks' calls, which the adapter does not map.
  [[nodiscard]] const fmi3::Functions& fmi3_functions() const { return f3_; }
  /// Instances alive now (for canBeInstantiatedOnlyOncePerProcess).
  std::atomic<int>& live_instances() { return live_; }
  /// Looks up the six optional functions on the FMU state (fmi2GetFMUstate...
  /// fmi2DeSerializeFMUstate; FMI 3.0: fmi3GetFMUState... fmi3DeserializeFMUState,
  /// behind the adapter). Call it when the description declares
  /// canGetAndSetFMUstate; a function the binary lacks stays null
  /// (missing_fmu_state_function() names it).
  void look_up_fmu_state();
  /// Looks up fmi2GetDirectionalDerivative (FMI 3: fmi3GetDirectionalDerivative,
  /// through the adapter, for scalar variables); false when the binary lacks it.
  bool look_up_directional_derivative();
  /// The first of the FMU-state functions that is null ("fmi2SerializeFMUstate"),
  /// `serialize` including the three of serialization; null when none is.
  [[nodiscard]] const char* missing_fmu_state_function(bool serialize) const;

 private:
  void look_up_fmi3(bool model_exchange, const std::string& what);

  void* handle_ = nullptr;
  Fmi2Functions f_;
  fmi3::Functions f3_;
  bool fmi3_ = false;
  std::atomic<int> live_{0};
};

/// The FMI 2.0 platform folder under binaries/ for this build: "linux64"
/// (x86-64) or "linux32" (x86); empty where FMI 2.0 names none (aarch64...).
[[nodiscard]] const char* fmi2_platform();
/// The FMI 3.0 platform tuple <arch>-<os> for this build: "x86_64-linux",
/// "aarch64-linux", "x86-linux"; empty elsewhere.
[[nodiscard]] const char* fmi3_platform();
/// fmi3_platform() for version "3.0", fmi2_platform() otherwise.
[[nodiscard]] const char* fmi_platform(const std::string& version);

}  // namespace ctde
