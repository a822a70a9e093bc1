#pragma once
/// The part of the FMI 2.0 C interface that ctde calls, declared here from
/// the text of the FMI 2.0 specification (section 2.1: data types, status
/// codes, callback functions; 3.2: Model Exchange; 4.2: Co-Simulation). No
/// header of the standard is copied: these are our own declarations of the
/// same C types, checked against the specification's sizes and values by
/// the static_asserts below. An FMU binary exports the functions under these
/// names ("fmi2Instantiate"...); ctde looks them up with dlsym.

#include <cstddef>
#include <cstdint>

#include "fmi_state_functions.hpp"

namespace ctde::fmi2 {

// ---- Basic types (spec 2.1.2, "fmi2TypesPlatform.h": the standard platform).
using Component = void*;              ///< fmi2Component: the FMU's instance
using ComponentEnvironment = void*;   ///< fmi2ComponentEnvironment: ours, given back to callbacks
using FMUstate = void*;               ///< fmi2FMUstate
using ValueReference = unsigned int;  ///< fmi2ValueReference
using Real = double;                  ///< fmi2Real
using Integer = int;                  ///< fmi2Integer
using Boolean = int;                  ///< fmi2Boolean (fmi2True = 1, fmi2False = 0)
using Char = char;                    ///< fmi2Char
using String = const Char*;           ///< fmi2String
using Byte = char;                    ///< fmi2Byte

inline constexpr Boolean kTrue = 1;
inline constexpr Boolean kFalse = 0;

/// fmi2Status (spec 2.1.3): the result of every call.
enum class Status : int { kOK = 0, kWarning = 1, kDiscard = 2, kError = 3, kFatal = 4, kPending = 5 };
/// fmi2Type: the interface an instance is made for.
enum class Type : int { kModelExchange = 0, kCoSimulation = 1 };

/// fmi2CallbackLogger: printf-like `message` with the instance's name, status and category.
using CallbackLogger = void (*)(ComponentEnvironment, String instance_name, Status status, String category,
                                String message, ...);
using CallbackAllocateMemory = void* (*)(std::size_t count, std::size_t size);
using CallbackFreeMemory = void (*)(void* object);
using StepFinished = void (*)(ComponentEnvironment, Status status);

/// fmi2CallbackFunctions, in the specification's member order.
struct CallbackFunctions {
  CallbackLogger logger;
  CallbackAllocateMemory allocate_memory;
  CallbackFreeMemory free_memory;
  StepFinished step_finished;
  ComponentEnvironment component_environment;
};

/// fmi2EventInfo (spec 3.2.2), filled by fmi2NewDiscreteStates.
struct EventInfo {
  Boolean new_discrete_states_needed;
  Boolean terminate_simulation;
  Boolean nominals_of_continuous_states_changed;
  Boolean values_of_continuous_states_changed;
  Boolean next_event_time_defined;
  Real next_event_time;
};

static_assert(sizeof(Real) == 8 && sizeof(Integer) == 4 && sizeof(Boolean) == 4 &&
              sizeof(ValueReference) == 4 && sizeof(Byte) == 1);
static_assert(sizeof(Status) == sizeof(int) && sizeof(Type) == sizeof(int));
static_assert(static_cast<int>(Status::kDiscard) == 2 && static_cast<int>(Status::kPending) == 5);
static_assert(static_cast<int>(Type::kCoSimulation) == 1);
static_assert(sizeof(CallbackFunctions) == 5 * sizeof(void*));
static_assert(offsetof(CallbackFunctions, component_environment) == 4 * sizeof(void*));
static_assert(sizeof(EventInfo) == 5 * sizeof(Boolean) + 4 + sizeof(Real));  // padded to align the Real
static_assert(offsetof(EventInfo, next_event_time) == 24);

// ---- Function types (spec 2.1.4 and following), named as in the standard without the prefix.
using GetVersionFn = const char* (*)();
using InstantiateFn = Component (*)(String instance_name, Type type, String guid, String resource_location,
                                    const CallbackFunctions* functions, Boolean visible, Boolean logging_on);
using FreeInstanceFn = void (*)(Component);
using SetupExperimentFn = Status (*)(Component, Boolean tolerance_defined, Real tolerance, Real start_time,
                                     Boolean stop_time_defined, Real stop_time);
using EnterInitializationModeFn = Status (*)(Component);
using ExitInitializationModeFn = Status (*)(Component);
using TerminateFn = Status (*)(Component);
using GetRealFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, Real value[]);
using GetIntegerFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, Integer value[]);
using GetBooleanFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, Boolean value[]);
using SetRealFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, const Real value[]);
using SetIntegerFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, const Integer value[]);
using SetBooleanFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, const Boolean value[]);
using SetStringFn = Status (*)(Component, const ValueReference vr[], std::size_t nvr, const String value[]);

// Model Exchange (spec 3.2.1).
using EnterEventModeFn = Status (*)(Component);
using NewDiscreteStatesFn = Status (*)(Component, EventInfo* info);
/// fmi2EnterContinuousTimeMode... fmi2GetNominalsOfContinuousStates (fmi_state_functions.hpp).
using States = fmi::StateFunctionTypes<Component, Status, Real, Boolean>;

/// fmi2GetDirectionalDerivative (spec 2.1.9): optional, present when <ModelExchange|CoSimulation>
/// says providesDirectionalDerivative. sensitivity = Σ_k ∂unknowns/∂knowns[k] · seed[k].
using GetDirectionalDerivativeFn = Status (*)(Component, const ValueReference unknowns[],
                                              std::size_t n_unknowns, const ValueReference knowns[],
                                              std::size_t n_knowns, const Real seed[], Real sensitivity[]);

/// fmi2GetFMUstate... fmi2DeSerializeFMUstate (spec 2.1.8; fmi_state_functions.hpp): optional,
/// present when <ModelExchange|CoSimulation> says canGetAndSetFMUstate (and canSerializeFMUstate).
using FmuStateFunctions = fmi::FmuStateFunctionTypes<Component, Status, FMUstate, Byte>;

// Co-Simulation (spec 4.2.2).
using DoStepFn = Status (*)(Component, Real current_communication_point, Real communication_step_size,
                            Boolean no_set_fmu_state_prior);
/// fmi2StatusKind (spec 4.2.3): what fmi2GetBooleanStatus is asked.
enum class StatusKind : int {
  kDoStepStatus = 0,
  kPendingStatus = 1,
  kLastSuccessfulTime = 2,
  kTerminated = 3
};
static_assert(static_cast<int>(StatusKind::kTerminated) == 3 && sizeof(StatusKind) == sizeof(int));
using GetBooleanStatusFn = Status (*)(Component, StatusKind kind, Boolean* value);

}  // namespace ctde::fmi2
