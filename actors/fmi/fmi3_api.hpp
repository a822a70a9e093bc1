#pragma once
/// The part of the FMI 3.0 C interface that ctde calls (Model Exchange with
/// its clocks, and Co-Simulation without event mode),
/// declared here from the text of the FMI 3.0 specification (section 2.2:
/// types, status codes, the common functions; 3.2: Model Exchange). No
/// header of the standard is copied; the static_asserts check these
/// declarations against the specification's sizes and values.

#include <cstddef>
#include <cstdint>

#include "fmi_state_functions.hpp"

namespace ctde::fmi3 {

using Instance = void*;             ///< fmi3Instance
using InstanceEnvironment = void*;  ///< fmi3InstanceEnvironment: ours, given back to the logger
using ValueReference = std::uint32_t;
using Float64 = double;
using Int32 = std::int32_t;
using Boolean = bool;  ///< fmi3Boolean is C's bool
using String = const char*;

/// fmi3Status: as fmi2Status without Pending.
enum class Status : int { kOK = 0, kWarning = 1, kDiscard = 2, kError = 3, kFatal = 4 };

/// fmi3LogMessageCallback (no variadic arguments in FMI 3: the message is final).
using LogMessageCallback = void (*)(InstanceEnvironment, Status status, String category, String message);

static_assert(sizeof(Float64) == 8 && sizeof(Int32) == 4 && sizeof(ValueReference) == 4);
static_assert(sizeof(Boolean) == 1);
static_assert(sizeof(Status) == sizeof(int) && static_cast<int>(Status::kFatal) == 4);

using GetVersionFn = const char* (*)();
using InstantiateModelExchangeFn = Instance (*)(String instance_name, String instantiation_token,
                                                String resource_path, Boolean visible, Boolean logging_on,
                                                InstanceEnvironment environment,
                                                LogMessageCallback log_message);
/// fmi3IntermediateUpdateCallback (ctde passes none).
using IntermediateUpdateCallback = void (*)(InstanceEnvironment, Float64 time, Boolean variable_set_requested,
                                            Boolean variable_get_allowed, Boolean step_finished,
                                            Boolean can_return_early, Boolean* early_return_requested,
                                            Float64* early_return_time);
using InstantiateCoSimulationFn = Instance (*)(String instance_name, String instantiation_token,
                                               String resource_path, Boolean visible, Boolean logging_on,
                                               Boolean event_mode_used, Boolean early_return_allowed,
                                               const ValueReference required_intermediate[],
                                               std::size_t n_required_intermediate,
                                               InstanceEnvironment environment,
                                               LogMessageCallback log_message,
                                               IntermediateUpdateCallback intermediate_update);
using DoStepFn = Status (*)(Instance, Float64 current_communication_point, Float64 step_size,
                            Boolean no_set_fmu_state_prior, Boolean* event_handling_needed,
                            Boolean* terminate_simulation, Boolean* early_return,
                            Float64* last_successful_time);
using FreeInstanceFn = void (*)(Instance);
using EnterInitializationModeFn = Status (*)(Instance, Boolean tolerance_defined, Float64 tolerance,
                                             Float64 start_time, Boolean stop_time_defined,
                                             Float64 stop_time);
using ExitInitializationModeFn = Status (*)(Instance);
/// fmi3GetDirectionalDerivative (spec 2.2.11): optional, present when the interface says
/// providesDirectionalDerivatives; n_seed and n_sensitivity count the knowns' and unknowns' elements.
using GetDirectionalDerivativeFn = Status (*)(Instance, const ValueReference unknowns[],
                                              std::size_t n_unknowns, const ValueReference knowns[],
                                              std::size_t n_knowns, const Float64 seed[], std::size_t n_seed,
                                              Float64 sensitivity[], std::size_t n_sensitivity);
using EnterEventModeFn = Status (*)(Instance);
using TerminateFn = Status (*)(Instance);
using GetFloat64Fn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, Float64 values[],
                                std::size_t n_values);
using GetInt32Fn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, Int32 values[],
                              std::size_t n_values);
using GetBooleanFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, Boolean values[],
                                std::size_t n_values);
using SetFloat64Fn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const Float64 values[],
                                std::size_t n_values);
using SetInt32Fn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const Int32 values[],
                              std::size_t n_values);
using SetBooleanFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const Boolean values[],
                                std::size_t n_values);
// The other variable types (spec 2.2.6.2): one Get and one Set per type, with
// nValues the number of elements (array variables count theirs).
using Float32 = float;
using Binary = const std::uint8_t*;  ///< fmi3Binary
static_assert(sizeof(Float32) == 4);
template <class T>
using GetFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, T values[],
                         std::size_t n_values);
template <class T>
using SetFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const T values[],
                         std::size_t n_values);
/// fmi3GetBinary and fmi3SetBinary carry each value's size beside it.
using GetBinaryFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                               std::size_t value_sizes[], Binary values[], std::size_t n_values);
using SetBinaryFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                               const std::size_t value_sizes[], const Binary values[], std::size_t n_values);

using UpdateDiscreteStatesFn = Status (*)(Instance, Boolean* discrete_states_need_update,
                                          Boolean* terminate_simulation, Boolean* nominals_changed,
                                          Boolean* values_changed, Boolean* next_event_time_defined,
                                          Float64* next_event_time);
/// fmi3EnterContinuousTimeMode... fmi3GetNominalsOfContinuousStates (fmi_state_functions.hpp).
using States = fmi::StateFunctionTypes<Instance, Status, Float64, Boolean>;

// The FMU state (spec 2.2.6.4): optional, present when the interface element
// says canGetAndSetFMUState (and canSerializeFMUState).
using FMUState = void*;     ///< fmi3FMUState: the FMU's copy of its state
using Byte = std::uint8_t;  ///< fmi3Byte: an element of a serialized state
static_assert(sizeof(Byte) == 1 && sizeof(FMUState) == sizeof(void*));
using FmuStateFunctions = fmi::FmuStateFunctionTypes<Instance, Status, FMUState, Byte>;

// Clocks (spec section 2.2, "Clocks"): a Clock variable is get and set as a C bool.
using Clock = bool;  ///< fmi3Clock: true is fmi3ClockActive, false fmi3ClockInactive
/// fmi3IntervalQualifier: how fmi3GetIntervalDecimal's interval is to be read.
enum class IntervalQualifier : int { kNotYetKnown = 0, kUnchanged = 1, kChanged = 2 };
static_assert(sizeof(Clock) == 1);
static_assert(sizeof(IntervalQualifier) == sizeof(int) && static_cast<int>(IntervalQualifier::kChanged) == 2);

using GetClockFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, Clock values[]);
using SetClockFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const Clock values[]);
using GetIntervalDecimalFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                                        Float64 intervals[], IntervalQualifier qualifiers[]);
using SetIntervalDecimalFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                                        const Float64 intervals[]);
using GetShiftDecimalFn = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, Float64 shifts[]);

/// The functions of one FMI 3.0 binary; those of the interface not used stay
/// null. Copyable (plain pointers).
struct Functions {
  GetVersionFn get_version = nullptr;
  InstantiateModelExchangeFn instantiate_model_exchange = nullptr;
  FreeInstanceFn free_instance = nullptr;
  EnterInitializationModeFn enter_initialization_mode = nullptr;
  ExitInitializationModeFn exit_initialization_mode = nullptr;
  EnterEventModeFn enter_event_mode = nullptr;
  TerminateFn terminate = nullptr;
  GetFloat64Fn get_float64 = nullptr;
  GetInt32Fn get_int32 = nullptr;
  GetBooleanFn get_boolean = nullptr;
  SetFloat64Fn set_float64 = nullptr;
  SetInt32Fn set_int32 = nullptr;
  SetBooleanFn set_boolean = nullptr;
  UpdateDiscreteStatesFn update_discrete_states = nullptr;
  States::EnterContinuousTimeMode enter_continuous_time_mode = nullptr;
  States::CompletedIntegratorStep completed_integrator_step = nullptr;
  States::SetTime set_time = nullptr;
  States::SetContinuousStates set_continuous_states = nullptr;
  States::GetDerivatives get_continuous_state_derivatives = nullptr;
  States::GetEventIndicators get_event_indicators = nullptr;
  States::GetContinuousStates get_continuous_states = nullptr;
  States::GetNominalsOfContinuousStates get_nominals = nullptr;
  // Co-Simulation
  InstantiateCoSimulationFn instantiate_co_simulation = nullptr;
  DoStepFn do_step = nullptr;
  // Clocks: looked up when the binary exports them (null otherwise); an FMU
  // with clocks needs them (actors/fmi/fmi3_clocks.hpp says which).
  GetClockFn get_clock = nullptr;
  SetClockFn set_clock = nullptr;
  GetIntervalDecimalFn get_interval_decimal = nullptr;
  SetIntervalDecimalFn set_interval_decimal = nullptr;
  GetShiftDecimalFn get_shift_decimal = nullptr;
  // The other types: looked up when the binary exports them; a variable
  // of such a type that ctde gets or sets needs them (FMU::configure()).
  GetFn<Float32> get_float32 = nullptr;
  SetFn<Float32> set_float32 = nullptr;
  GetFn<std::int8_t> get_int8 = nullptr;
  SetFn<std::int8_t> set_int8 = nullptr;
  GetFn<std::uint8_t> get_uint8 = nullptr;
  SetFn<std::uint8_t> set_uint8 = nullptr;
  GetFn<std::int16_t> get_int16 = nullptr;
  SetFn<std::int16_t> set_int16 = nullptr;
  GetFn<std::uint16_t> get_uint16 = nullptr;
  SetFn<std::uint16_t> set_uint16 = nullptr;
  GetFn<std::uint32_t> get_uint32 = nullptr;
  SetFn<std::uint32_t> set_uint32 = nullptr;
  GetFn<std::int64_t> get_int64 = nullptr;
  SetFn<std::int64_t> set_int64 = nullptr;
  GetFn<std::uint64_t> get_uint64 = nullptr;
  SetFn<std::uint64_t> set_uint64 = nullptr;
  SetFn<String> set_string = nullptr;
  SetBinaryFn set_binary = nullptr;
  // The FMU state: looked up when the description declares canGetAndSetFMUState
  // (Fmi2Library::look_up_fmu_state); null otherwise or when the binary lacks them.
  FmuStateFunctions::GetFMUState get_fmu_state = nullptr;
  FmuStateFunctions::SetFMUState set_fmu_state = nullptr;
  FmuStateFunctions::FreeFMUState free_fmu_state = nullptr;
  FmuStateFunctions::SerializedFMUStateSize serialized_fmu_state_size = nullptr;
  FmuStateFunctions::SerializeFMUState serialize_fmu_state = nullptr;
  FmuStateFunctions::DeserializeFMUState deserialize_fmu_state = nullptr;
  /// Looked up when the description declares providesDirectionalDerivatives.
  GetDirectionalDerivativeFn get_directional_derivative = nullptr;
};

}  // namespace ctde::fmi3
