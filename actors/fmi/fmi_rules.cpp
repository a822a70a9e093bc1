#include "actors/fmi/fmi_rules.hpp"

#include <array>

namespace ctde {

namespace {

/// A set of modes, one bit each.
using Modes = std::uint8_t;
constexpr Modes bit(FmiMode mode) { return static_cast<Modes>(1U << static_cast<unsigned>(mode)); }
constexpr Modes kI = bit(FmiMode::kInstantiated);
constexpr Modes kN = bit(FmiMode::kInitialization);
constexpr Modes kE = bit(FmiMode::kEvent);
constexpr Modes kC = bit(FmiMode::kContinuousTime);
constexpr Modes kS = bit(FmiMode::kStep);
constexpr Modes kT = bit(FmiMode::kTerminated);
constexpr Modes kX = bit(FmiMode::kError);
constexpr Modes kNone = 0;

/// One function: where each version allows it, per interface (Model
/// Exchange, Co-Simulation), and the mode it leads to (kError: stays).
struct Rule {
  FmiCall call;
  const char* name;
  Modes fmi2_me, fmi2_cs, fmi3_me, fmi3_cs;
  FmiMode leads_to;
};

constexpr FmiMode kStays = FmiMode::kError;

// The specifications' "allowed function calls" of each state. FMI 3.0
// differs from 2.0 in: SetTime and EnterEventMode only in Continuous-Time
// Mode (not Event Mode), GetContinuousStateDerivatives also in
// Initialization Mode, Get<Type> also in Instantiated.
// The FMU-state functions: FMI 2.0 allows them in every state from
// instantiated to terminated and error (ME, 3.2.3) and, in Co-Simulation
// (4.2.4), in all but stepInProgress (GetFMUstate in error "for debugging
// only"); FMI 3.0 in its super state FMU State Settable (2.3.1), every state
// between instantiation and fmi3FreeInstance (an Error status leads to
// Terminated, inside it). In ctde's error state only FreeFMUstate stays
// allowed (a copy taken before the error is still freed): ctde does not
// recover from an error by setting a state.
constexpr Modes kStateModesMe = kI | kN | kE | kC | kT;
constexpr Modes kStateModesCs = kI | kN | kS | kT;
constexpr std::array<Rule, 25> kRules{{
    {FmiCall::kSetupExperiment, "fmi2SetupExperiment", kI, kI, kI, kI, kStays},
    {FmiCall::kEnterInitializationMode, "fmi2EnterInitializationMode", kI, kI, kI, kI,
     FmiMode::kInitialization},
    // Leads to Event Mode (ME) or Step Mode (CS): next_mode() decides.
    {FmiCall::kExitInitializationMode, "fmi2ExitInitializationMode", kN, kN, kN, kN, FmiMode::kEvent},
    {FmiCall::kEnterEventMode, "fmi2EnterEventMode", kE | kC, kNone, kC, kNone, FmiMode::kEvent},
    {FmiCall::kNewDiscreteStates, "fmi2NewDiscreteStates", kE, kNone, kE, kNone, kStays},
    {FmiCall::kEnterContinuousTimeMode, "fmi2EnterContinuousTimeMode", kE, kNone, kE, kNone,
     FmiMode::kContinuousTime},
    {FmiCall::kCompletedIntegratorStep, "fmi2CompletedIntegratorStep", kC, kNone, kC, kNone, kStays},
    {FmiCall::kSetTime, "fmi2SetTime", kE | kC, kNone, kC, kNone, kStays},
    {FmiCall::kSetContinuousStates, "fmi2SetContinuousStates", kC, kNone, kC, kNone, kStays},
    {FmiCall::kGetDerivatives, "fmi2GetDerivatives", kE | kC | kT, kNone, kN | kE | kC | kT, kNone, kStays},
    {FmiCall::kGetEventIndicators, "fmi2GetEventIndicators", kN | kE | kC | kT, kNone, kN | kE | kC | kT,
     kNone, kStays},
    {FmiCall::kGetContinuousStates, "fmi2GetContinuousStates", kN | kE | kC | kT, kNone, kN | kE | kC | kT,
     kNone, kStays},
    {FmiCall::kGetVariables, "fmi2GetReal", kN | kE | kC | kT, kN | kS | kT, kI | kN | kE | kC | kT,
     kI | kN | kS | kT, kStays},
    {FmiCall::kSetVariables, "fmi2SetReal", kI | kN | kE | kC, kI | kN | kS, kI | kN | kE | kC, kI | kN | kS,
     kStays},
    {FmiCall::kClocks, "fmi3SetClock", kNone, kNone, kN | kE, kNone, kStays},
    {FmiCall::kDoStep, "fmi2DoStep", kNone, kS, kNone, kS, kStays},
    // FMI 3: the adapter answers it from fmi3DoStep's terminateSimulation (no FMU call).
    {FmiCall::kGetStatus, "fmi2GetBooleanStatus", kNone, kS | kT, kNone, kS | kT, kStays},
    {FmiCall::kGetFMUState, "fmi2GetFMUstate", kStateModesMe, kStateModesCs, kStateModesMe, kStateModesCs,
     kStays},
    {FmiCall::kSetFMUState, "fmi2SetFMUstate", kStateModesMe, kStateModesCs, kStateModesMe, kStateModesCs,
     kStays},
    {FmiCall::kFreeFMUState, "fmi2FreeFMUstate", kStateModesMe | kX, kStateModesCs | kX, kStateModesMe | kX,
     kStateModesCs | kX, kStays},
    {FmiCall::kSerializedFMUStateSize, "fmi2SerializedFMUstateSize", kStateModesMe, kStateModesCs,
     kStateModesMe, kStateModesCs, kStays},
    {FmiCall::kSerializeFMUState, "fmi2SerializeFMUstate", kStateModesMe, kStateModesCs, kStateModesMe,
     kStateModesCs, kStays},
    {FmiCall::kDeserializeFMUState, "fmi2DeSerializeFMUstate", kStateModesMe, kStateModesCs, kStateModesMe,
     kStateModesCs, kStays},
    // FMI 2.0 (3.2.3, 4.2.4) and 3.0 (2.3): as the getters, from Initialization Mode to Terminated.
    {FmiCall::kGetDirectionalDerivative, "fmi2GetDirectionalDerivative", kN | kE | kC | kT, kN | kS | kT,
     kN | kE | kC | kT, kN | kS | kT, kStays},
    {FmiCall::kTerminate, "fmi2Terminate", kE | kC, kS, kE | kC, kS, FmiMode::kTerminated},
}};

constexpr const Rule& rule(FmiCall call) { return kRules[static_cast<std::size_t>(call)]; }

// The table is in the order of the enumeration.
constexpr bool in_order() {
  for (std::size_t i = 0; i < kRules.size(); ++i) {
    if (static_cast<std::size_t>(kRules[i].call) != i) return false;
  }
  return true;
}
static_assert(in_order(), "kRules must list the calls in the order of FmiCall");

}  // namespace

const char* fmi2_name(FmiCall call) { return rule(call).name; }

const char* to_string(FmiMode mode) {
  switch (mode) {
    case FmiMode::kInstantiated:
      return "Instantiated";
    case FmiMode::kInitialization:
      return "Initialization Mode";
    case FmiMode::kEvent:
      return "Event Mode";
    case FmiMode::kContinuousTime:
      return "Continuous-Time Mode";
    case FmiMode::kStep:
      return "Step Mode";
    case FmiMode::kTerminated:
      return "Terminated";
    case FmiMode::kError:
      return "the error state";
  }
  return "?";
}

bool allowed(FmiCall call, FmiMode mode, FmiKind kind) {
  const Rule& r = rule(call);
  const Modes modes = kind.fmi3 ? (kind.model_exchange ? r.fmi3_me : r.fmi3_cs)
                                : (kind.model_exchange ? r.fmi2_me : r.fmi2_cs);
  return (modes & bit(mode)) != 0;
}

FmiMode next_mode(FmiCall call, FmiMode mode, FmiKind kind) {
  if (call == FmiCall::kExitInitializationMode) return kind.model_exchange ? FmiMode::kEvent : FmiMode::kStep;
  const FmiMode to = rule(call).leads_to;
  return to == kStays ? mode : to;
}

bool may_set(const FmuVariable& variable, FmiMode mode) {
  const bool input = variable.causality == Causality::kInput;
  const bool constant = variable.variability == Variability::kConstant;
  const bool tunable_parameter =
      variable.causality == Causality::kParameter && variable.variability == Variability::kTunable;
  switch (mode) {
    case FmiMode::kInstantiated:
      return !constant &&
             (input || variable.initial == Initial::kExact || variable.initial == Initial::kApprox);
    case FmiMode::kInitialization:
      return !constant && (input || variable.initial == Initial::kExact);
    case FmiMode::kEvent:
    case FmiMode::kStep:
      return input || tunable_parameter;
    case FmiMode::kContinuousTime:
      return input && variable.variability == Variability::kContinuous;
    case FmiMode::kTerminated:
    case FmiMode::kError:
      return false;
  }
  return false;
}

std::string set_refusal(const FmuVariable& variable, FmiMode mode) {
  std::string what = "'" + variable.name + "' is ";
  what += variable.causality == Causality::kInput ? "an " : "a ";
  what += to_string(variable.causality);
  what += " of variability ";
  what += to_string(variable.variability);
  switch (mode) {
    case FmiMode::kInstantiated:
      return "before initialization FMI sets only variables whose initial is exact or approx, and not "
             "constants; " +
             what;
    case FmiMode::kInitialization:
      return "Initialization Mode sets only inputs and variables whose initial is exact; " + what;
    case FmiMode::kEvent:
    case FmiMode::kStep:
      return std::string(to_string(mode)) + " sets only inputs and tunable parameters; " + what;
    case FmiMode::kContinuousTime:
      return "Continuous-Time Mode sets only continuous inputs; " + what;
    case FmiMode::kTerminated:
    case FmiMode::kError:
      break;
  }
  return std::string(to_string(mode)) + " sets no variables";
}

}  // namespace ctde
