// The FMI 2.0 C functions of an exported ctde model (docs/fmi.md,
// "Export"): Co-Simulation and Model Exchange, declared from the standard's
// text (our own declarations: actors/fmi/fmi2_api.hpp). As fmi3_functions.cpp:
// pointers checked here, the rest by the instance; no exception leaves a
// function; the functions of the types other than Real answer with an error.
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/fmi/fmi2_api.hpp"
#include "fmu_export/exchange_calls.hpp"
#include "fmu_export/exported_instance.hpp"
#include "fmu_export/state_calls.hpp"

namespace {

using ctde::FmiCall;
using ctde::FmiMode;
using ctde::fmu::ExportedInstance;
using ctde::fmu::with_array;
namespace state_calls = ctde::fmu::state_calls;
namespace fmi2 = ctde::fmi2;
using Status = fmi2::Status;
using ValueReference = fmi2::ValueReference;

/// What the importer's fmi2Component points to: the instance, and what
/// FMI 2 keeps beside it (the experiment, the last step's end).
struct Component {
  std::unique_ptr<ExportedInstance> model;
  bool experiment = false;
  std::optional<double> tolerance;
  double start = 0;
  std::optional<double> stop;
  bool terminated = false;
  double last_time = 0;
};

Component* component(fmi2::Component c) { return static_cast<Component*>(c); }
ExportedInstance* get(fmi2::Component c) { return c == nullptr ? nullptr : component(c)->model.get(); }
Status status(ctde::fmu::Status s) { return static_cast<Status>(static_cast<int>(s)); }
std::span<const std::uint32_t> refs(const ValueReference* vr, std::size_t n) {
  return {vr, vr == nullptr ? 0 : n};
}

Status unsupported(fmi2::Component c, const char* function) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  return status(m->fail(function, "not supported by ctde's FMUs"));
}

/// "file:///a/b%20c" -> "/a/b c" (RFC 8089's local forms: "file:///p" and "file:/p").
std::string path_of(const std::string& uri) {
  std::string path;
  if (uri.rfind("file:///", 0) == 0) {
    path = uri.substr(7);
  } else if (uri.rfind("file://localhost/", 0) == 0) {
    path = uri.substr(16);
  } else if (uri.rfind("file:/", 0) == 0) {
    path = uri.substr(5);
  } else {
    throw std::runtime_error("resource location '" + uri + "' is not a file URI (file:///...)");
  }
  std::string decoded;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size()) {
      decoded += static_cast<char>(std::stoi(path.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      decoded += path[i];
    }
  }
  while (decoded.size() > 1 && decoded.back() == '/') decoded.pop_back();
  return decoded;
}

}  // namespace

extern "C" {

// NOLINTBEGIN(readability-identifier-naming, readability-non-const-parameter): the standard's names and
// signatures

const char* fmi2GetTypesPlatform() { return "default"; }
const char* fmi2GetVersion() { return "2.0"; }

Status fmi2SetDebugLogging(fmi2::Component c, fmi2::Boolean logging_on, std::size_t /*n*/,
                           const fmi2::String /*categories*/[]) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  m->set_debug_logging(logging_on != fmi2::kFalse);
  return Status::kOK;
}

fmi2::Component fmi2Instantiate(fmi2::String name, fmi2::Type type, fmi2::String guid, fmi2::String resources,
                                const fmi2::CallbackFunctions* functions, fmi2::Boolean /*visible*/,
                                fmi2::Boolean logging_on) {
  const std::string instance_name = name == nullptr ? "" : name;
  fmi2::CallbackLogger log = functions == nullptr ? nullptr : functions->logger;
  fmi2::ComponentEnvironment environment = functions == nullptr ? nullptr : functions->component_environment;
  auto logger = [instance_name, log, environment](ctde::fmu::Status s, std::string_view category,
                                                  const std::string& message) {
    // The message is a format: ours goes through "%s", its '%' kept.
    if (log != nullptr)
      log(environment, instance_name.c_str(), status(s), std::string(category).c_str(), "%s",
          message.c_str());
  };
  try {
    if (functions == nullptr || functions->logger == nullptr)
      throw std::runtime_error("no callback functions (the standard requires the logger)");
    if (type != fmi2::Type::kCoSimulation && type != fmi2::Type::kModelExchange)
      throw std::runtime_error("fmuType " + std::to_string(static_cast<int>(type)) +
                               " is neither fmi2ModelExchange nor fmi2CoSimulation");
    if (guid == nullptr || resources == nullptr) throw std::runtime_error("no GUID or resource location");
    auto component = std::make_unique<Component>();
    const ctde::FmiKind kind{.fmi3 = false, .model_exchange = type == fmi2::Type::kModelExchange};
    component->model =
        std::make_unique<ExportedInstance>(instance_name, path_of(resources), guid, kind, logger);
    component->model->set_debug_logging(logging_on != fmi2::kFalse);
    return component.release();
  } catch (const std::exception& e) {
    logger(ctde::fmu::Status::kError, "logStatusError", "fmi2Instantiate: " + std::string(e.what()));
  }
  return nullptr;
}

void fmi2FreeInstance(fmi2::Component c) { delete component(c); }

Status fmi2SetupExperiment(fmi2::Component c, fmi2::Boolean tolerance_defined, double tolerance, double start,
                           fmi2::Boolean stop_defined, double stop) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  if (m->mode() != FmiMode::kInstantiated)
    return status(m->fail("fmi2SetupExperiment", "allowed only after fmi2Instantiate"));
  Component& self = *component(c);
  self.experiment = true;
  self.tolerance = tolerance_defined != fmi2::kFalse ? std::optional(tolerance) : std::nullopt;
  self.start = start;
  self.stop = stop_defined != fmi2::kFalse ? std::optional(stop) : std::nullopt;
  return Status::kOK;
}

Status fmi2EnterInitializationMode(fmi2::Component c) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  Component& self = *component(c);
  if (!self.experiment && m->mode() == FmiMode::kInstantiated)
    return status(m->fail("fmi2EnterInitializationMode", "fmi2SetupExperiment was not called before it"));
  self.terminated = false;
  self.last_time = self.start;
  return status(m->enter_initialization(self.tolerance, self.start, self.stop));
}

Status fmi2ExitInitializationMode(fmi2::Component c) {
  ExportedInstance* m = get(c);
  return m == nullptr ? Status::kError : status(m->exit_initialization());
}

Status fmi2Terminate(fmi2::Component c) {
  ExportedInstance* m = get(c);
  return m == nullptr ? Status::kError : status(m->terminate());
}

Status fmi2Reset(fmi2::Component c) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  component(c)->experiment = false;
  return status(m->reset());
}

Status fmi2GetReal(fmi2::Component c, const ValueReference vr[], std::size_t nvr, double values[]) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  if (nvr > 0 && (vr == nullptr || values == nullptr))
    return status(m->fail("fmi2GetReal", "a null array of value references or values"));
  return status(m->get(refs(vr, nvr), {values, values == nullptr ? 0 : nvr}));
}

Status fmi2SetReal(fmi2::Component c, const ValueReference vr[], std::size_t nvr, const double values[]) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  if (nvr > 0 && (vr == nullptr || values == nullptr))
    return status(m->fail("fmi2SetReal", "a null array of value references or values"));
  return status(m->set(refs(vr, nvr), {values, values == nullptr ? 0 : nvr}));
}

// NOLINTBEGIN(bugprone-macro-parentheses): CType is a type
#define CTDE_FMI2_NO_TYPE(Type, CType)                                                                      \
  Status fmi2Get##Type(fmi2::Component c, const ValueReference vr[], std::size_t nvr, CType /*values*/[]) { \
    ExportedInstance* m = get(c);                                                                           \
    return m == nullptr                                                                                     \
               ? Status::kError                                                                             \
               : status(m->no_variables(FmiCall::kGetVariables, "fmi2Get" #Type, #Type, refs(vr, nvr)));    \
  }                                                                                                         \
  Status fmi2Set##Type(fmi2::Component c, const ValueReference vr[], std::size_t nvr,                       \
                       const CType /*values*/[]) {                                                          \
    ExportedInstance* m = get(c);                                                                           \
    return m == nullptr                                                                                     \
               ? Status::kError                                                                             \
               : status(m->no_variables(FmiCall::kSetVariables, "fmi2Set" #Type, #Type, refs(vr, nvr)));    \
  }
CTDE_FMI2_NO_TYPE(Integer, fmi2::Integer)
CTDE_FMI2_NO_TYPE(Boolean, fmi2::Boolean)
CTDE_FMI2_NO_TYPE(String, fmi2::String)
#undef CTDE_FMI2_NO_TYPE
// NOLINTEND(bugprone-macro-parentheses)

Status fmi2GetFMUstate(fmi2::Component c, fmi2::FMUstate* state) {
  return status(state_calls::get(get(c), state));
}
Status fmi2SetFMUstate(fmi2::Component c, fmi2::FMUstate state) {
  const Status s = status(state_calls::set(get(c), state, "fmi2SetFMUstate"));
  if (s == Status::kOK) component(c)->terminated = false;
  return s;
}
Status fmi2FreeFMUstate(fmi2::Component c, fmi2::FMUstate* state) {
  return status(state_calls::free(get(c), state));
}
Status fmi2SerializedFMUstateSize(fmi2::Component c, fmi2::FMUstate state, std::size_t* size) {
  return status(state_calls::size(get(c), state, size));
}
Status fmi2SerializeFMUstate(fmi2::Component c, fmi2::FMUstate state, fmi2::Byte serialized[],
                             std::size_t size) {
  return status(state_calls::write(get(c), state, reinterpret_cast<std::byte*>(serialized), size,
                                   "fmi2SerializeFMUstate", "fmi2SerializedFMUstateSize"));
}
Status fmi2DeSerializeFMUstate(fmi2::Component c, const fmi2::Byte serialized[], std::size_t size,
                               fmi2::FMUstate* state) {
  return status(state_calls::read(get(c), reinterpret_cast<const std::byte*>(serialized), size, state));
}

Status fmi2GetDirectionalDerivative(fmi2::Component c, const ValueReference[], std::size_t,
                                    const ValueReference[], std::size_t, const double[], double[]) {
  return unsupported(c, "fmi2GetDirectionalDerivative");
}
// ---- Model Exchange (exported_exchange.cpp)

Status fmi2EnterEventMode(fmi2::Component c) {
  ExportedInstance* m = get(c);
  return m == nullptr ? Status::kError : status(m->enter_event_mode());
}
Status fmi2NewDiscreteStates(fmi2::Component c, fmi2::EventInfo* info) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  if (info == nullptr) return status(m->fail("fmi2NewDiscreteStates", "no fmi2EventInfo (NULL)"));
  ExportedInstance::EventInfo got;
  const Status s = status(m->update_discrete_states(got));
  const auto boolean = [](bool b) { return b ? fmi2::kTrue : fmi2::kFalse; };
  info->new_discrete_states_needed = boolean(got.needs_update);
  info->terminate_simulation = boolean(got.terminate);
  info->nominals_of_continuous_states_changed = fmi2::kFalse;
  info->values_of_continuous_states_changed = boolean(got.values_changed);
  info->next_event_time_defined = boolean(got.next_defined);
  info->next_event_time = got.next_time;
  return s;
}
Status fmi2EnterContinuousTimeMode(fmi2::Component c) {
  ExportedInstance* m = get(c);
  return m == nullptr ? Status::kError : status(m->enter_continuous_time_mode());
}
Status fmi2CompletedIntegratorStep(fmi2::Component c, fmi2::Boolean /*no_set_fmu_state_prior*/,
                                   fmi2::Boolean* enter_event_mode, fmi2::Boolean* terminate) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  if (enter_event_mode == nullptr || terminate == nullptr)
    return status(m->fail("fmi2CompletedIntegratorStep", "NULL result arguments"));
  bool enter = false;
  bool end = false;
  const Status s = status(m->completed_integrator_step(enter, end));
  *enter_event_mode = enter ? fmi2::kTrue : fmi2::kFalse;
  *terminate = end ? fmi2::kTrue : fmi2::kFalse;
  return s;
}
Status fmi2SetTime(fmi2::Component c, double time) {
  ExportedInstance* m = get(c);
  return m == nullptr ? Status::kError : status(m->set_time(time));
}

Status fmi2SetContinuousStates(fmi2::Component c, const double x[], std::size_t n) {
  return status(
      with_array(get(c), "fmi2SetContinuousStates", x, n,
                 [](ExportedInstance& m, std::span<const double> v) { return m.set_continuous_states(v); }));
}
Status fmi2GetDerivatives(fmi2::Component c, double dx[], std::size_t n) {
  return status(with_array(get(c), "fmi2GetDerivatives", dx, n,
                           [](ExportedInstance& m, std::span<double> v) { return m.get_derivatives(v); }));
}
Status fmi2GetEventIndicators(fmi2::Component c, double z[], std::size_t n) {
  return status(
      with_array(get(c), "fmi2GetEventIndicators", z, n,
                 [](ExportedInstance& m, std::span<double> v) { return m.get_event_indicators(v); }));
}
Status fmi2GetContinuousStates(fmi2::Component c, double x[], std::size_t n) {
  return status(
      with_array(get(c), "fmi2GetContinuousStates", x, n,
                 [](ExportedInstance& m, std::span<double> v) { return m.get_continuous_states(v); }));
}
Status fmi2GetNominalsOfContinuousStates(fmi2::Component c, double x[], std::size_t n) {
  return status(with_array(get(c), "fmi2GetNominalsOfContinuousStates", x, n,
                           [](ExportedInstance& m, std::span<double> v) { return m.get_nominals(v); }));
}
Status fmi2SetRealInputDerivatives(fmi2::Component c, const ValueReference[], std::size_t,
                                   const fmi2::Integer[], const double[]) {
  return unsupported(c, "fmi2SetRealInputDerivatives");
}
Status fmi2GetRealOutputDerivatives(fmi2::Component c, const ValueReference[], std::size_t,
                                    const fmi2::Integer[], double[]) {
  return unsupported(c, "fmi2GetRealOutputDerivatives");
}
Status fmi2CancelStep(fmi2::Component c) { return unsupported(c, "fmi2CancelStep"); }

Status fmi2DoStep(fmi2::Component c, double current_communication_point, double step_size,
                  fmi2::Boolean /*no_set_fmu_state_prior*/) {
  ExportedInstance* m = get(c);
  if (m == nullptr) return Status::kError;
  Component& self = *component(c);
  bool terminate = false;
  double last = current_communication_point;
  bool early = false;  // (FMI 2 has no early return: never allowed)
  const Status s = status(m->do_step(current_communication_point, step_size, terminate, early, last));
  self.last_time = last;
  if (s == Status::kOK && terminate) {
    self.terminated = true;
    return Status::kDiscard;  // the standard's way to say the simulation ended before the step's end
  }
  return s;
}

Status fmi2GetStatus(fmi2::Component c, fmi2::StatusKind, Status*) { return unsupported(c, "fmi2GetStatus"); }
Status fmi2GetRealStatus(fmi2::Component c, fmi2::StatusKind kind, double* value) {
  ExportedInstance* m = get(c);
  if (m == nullptr || value == nullptr) return Status::kError;
  if (kind != fmi2::StatusKind::kLastSuccessfulTime)
    return status(m->fail("fmi2GetRealStatus", "only fmi2LastSuccessfulTime is a Real status"));
  *value = component(c)->last_time;
  return Status::kOK;
}
Status fmi2GetIntegerStatus(fmi2::Component c, fmi2::StatusKind, fmi2::Integer*) {
  return unsupported(c, "fmi2GetIntegerStatus");
}
Status fmi2GetBooleanStatus(fmi2::Component c, fmi2::StatusKind kind, fmi2::Boolean* value) {
  ExportedInstance* m = get(c);
  if (m == nullptr || value == nullptr) return Status::kError;
  if (kind != fmi2::StatusKind::kTerminated)
    return status(m->fail("fmi2GetBooleanStatus", "only fmi2Terminated is a Boolean status"));
  *value = component(c)->terminated ? fmi2::kTrue : fmi2::kFalse;
  return Status::kOK;
}
Status fmi2GetStringStatus(fmi2::Component c, fmi2::StatusKind, fmi2::String*) {
  return unsupported(c, "fmi2GetStringStatus");
}

// NOLINTEND(readability-identifier-naming, readability-non-const-parameter)

}  // extern "C"
