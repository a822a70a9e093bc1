#pragma once
/// The FMI state machines as one table: in which mode each function ctde
/// calls is allowed, the mode it leads to, and which variables the Set
/// functions may write in each mode. Written from the specifications' text:
/// FMI 2.0 sections 3.2.3 (Model Exchange) and 4.2.4 (Co-Simulation); FMI
/// 3.0 sections 2.3 (common states), 3.2 (Model Exchange) and 4.2
/// (Co-Simulation, without event mode). docs/fmi.md prints the table.
///
/// Fmi2Instance checks every call against it before making it (a call the
/// table refuses is a bug in ctde, not in the FMU: std::logic_error), and
/// the FMU actor chooses by may_set() which inputs it sets in which mode.

#include <cstddef>
#include <cstdint>
#include <string>

#include "model_description.hpp"

namespace ctde {

/// The modes of an FMU instance. FMI 2's Co-Simulation "stepComplete" and
/// FMI 3's "Step Mode" are kStep; kError: after an Error or Fatal status
/// (only fmi2FreeInstance remains).
enum class FmiMode : std::uint8_t {
  kInstantiated,
  kInitialization,
  kEvent,
  kContinuousTime,
  kStep,
  kTerminated,
  kError,
};

/// The functions ctde calls, by role (the FMI 2.0 name; FMI 3.0's function
/// of the same role for an FMI 3.0 FMU).
enum class FmiCall : std::uint8_t {
  kSetupExperiment,  ///< FMI 2 only (FMI 3 takes its arguments in EnterInitializationMode)
  kEnterInitializationMode,
  kExitInitializationMode,
  kEnterEventMode,
  kNewDiscreteStates,  ///< fmi3UpdateDiscreteStates
  kEnterContinuousTimeMode,
  kCompletedIntegratorStep,
  kSetTime,
  kSetContinuousStates,
  kGetDerivatives,  ///< fmi3GetContinuousStateDerivatives
  kGetEventIndicators,
  kGetContinuousStates,
  kGetVariables,  ///< fmi2GetReal, fmi3GetFloat64...
  kSetVariables,  ///< fmi2SetReal, fmi3SetFloat64... (and may_set() for each variable)
  kClocks,        ///< FMI 3 fmi3SetClock, fmi3GetClock, fmi3GetIntervalDecimal...
  kDoStep,
  kGetStatus,  ///< fmi2GetBooleanStatus
  // The FMU state (optional; FMI 2.0 spec 2.1.8, FMI 3.0 spec 2.2.6.4). No
  // call changes the mode: ctde sets only a state taken in the mode the
  // instance is in (docs/fmi.md, "Snapshots").
  kGetFMUState,  ///< fmi2GetFMUstate, fmi3GetFMUState
  kSetFMUState,
  kFreeFMUState,
  kSerializedFMUStateSize,
  kSerializeFMUState,
  kDeserializeFMUState,       ///< fmi2DeSerializeFMUstate, fmi3DeserializeFMUState
  kGetDirectionalDerivative,  ///< optional (providesDirectionalDerivative)
  kTerminate,
};

/// The number of modes and of calls (a call's bit fits in 32).
inline constexpr std::size_t kFmiModes = static_cast<std::size_t>(FmiMode::kError) + 1;
inline constexpr std::size_t kFmiCalls = static_cast<std::size_t>(FmiCall::kTerminate) + 1;
static_assert(kFmiCalls <= 32);

/// The interface and version an instance runs. Copyable value type.
struct FmiKind {
  bool fmi3 = false;
  bool model_exchange = true;
};

/// The FMI 2.0 name of `call` ("fmi2SetContinuousStates").
[[nodiscard]] const char* fmi2_name(FmiCall call);
/// The specification's name of `mode` ("Continuous-Time Mode").
[[nodiscard]] const char* to_string(FmiMode mode);

/// True when `call` is allowed in `mode` for an instance of `kind`.
[[nodiscard]] bool allowed(FmiCall call, FmiMode mode, FmiKind kind);
/// The mode a successful `call` made in `mode` leads to (`mode` itself for
/// a call that changes no mode).
[[nodiscard]] FmiMode next_mode(FmiCall call, FmiMode mode, FmiKind kind);

/// True when the Set functions may write `variable` in `mode`:
///   Instantiated: variability not constant, and initial exact or approx (or an input);
///   Initialization Mode: variability not constant, and initial exact (or an input);
///   Event Mode: an input, or a tunable parameter;
///   Continuous-Time Mode: a continuous input (the states go through SetContinuousStates);
///   Step Mode: an input, or a tunable parameter;
///   otherwise nothing.
[[nodiscard]] bool may_set(const FmuVariable& variable, FmiMode mode);
/// Why may_set() refuses `variable` in `mode`, for messages: "Continuous-Time
/// Mode sets only continuous inputs; 'n' is an input of variability discrete".
[[nodiscard]] std::string set_refusal(const FmuVariable& variable, FmiMode mode);

}  // namespace ctde
