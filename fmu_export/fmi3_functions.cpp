// The FMI 3.0 C functions of an exported ctde model (docs/fmi.md,
// "Export"): Co-Simulation, declared from the standard's text (our own
// declarations: actors/fmi/fmi3_api.hpp). Each function checks its
// pointers and hands the call to the instance (fmu_export/exported_instance.hpp);
// no exception leaves it. The functions of the interfaces the FMU does not
// offer (Model Exchange, Scheduled Execution, clocks, the types other than
// Float64) are present, as the standard asks, and answer with an error.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "actors/fmi/fmi3_api.hpp"
#include "fmu_export/exchange_calls.hpp"
#include "fmu_export/exported_instance.hpp"
#include "fmu_export/state_calls.hpp"

namespace {

using ctde::FmiCall;
using ctde::fmu::ExportedInstance;
using ctde::fmu::with_array;
namespace state_calls = ctde::fmu::state_calls;
namespace fmi3 = ctde::fmi3;
using Status = fmi3::Status;
using ValueReference = fmi3::ValueReference;

/// What the importer's fmi3Instance points to.
struct Instance {
  std::unique_ptr<ExportedInstance> model;
};

ExportedInstance* get(fmi3::Instance instance) {
  return instance == nullptr ? nullptr : static_cast<Instance*>(instance)->model.get();
}

Status status(ctde::fmu::Status s) { return static_cast<Status>(static_cast<int>(s)); }

std::span<const std::uint32_t> refs(const ValueReference* vr, std::size_t n) {
  return {vr, vr == nullptr ? 0 : n};
}

/// The Get/Set of a type the model has no variables of.
template <class T>
Status none(fmi3::Instance instance, FmiCall call, const char* function, const char* type,
            const ValueReference vr[], std::size_t nvr) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  return status(m->no_variables(call, function, type, refs(vr, nvr)));
}

/// A function of an interface the FMU does not offer.
Status unsupported(fmi3::Instance instance, const char* function) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  return status(m->fail(function, "not supported by ctde's FMUs"));
}

fmi3::Instance instantiate(fmi3::String name, fmi3::String token, fmi3::String resources, bool model_exchange,
                           fmi3::InstanceEnvironment environment, fmi3::LogMessageCallback log) {
  const char* function = model_exchange ? "fmi3InstantiateModelExchange" : "fmi3InstantiateCoSimulation";
  const std::string instance_name = name == nullptr ? "" : name;
  auto logger = [environment, log](ctde::fmu::Status s, std::string_view category,
                                   const std::string& message) {
    if (log != nullptr) log(environment, status(s), std::string(category).c_str(), message.c_str());
  };
  try {
    if (token == nullptr || resources == nullptr)
      throw std::runtime_error("no instantiation token or resource path");
    std::string folder = resources;
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
    auto instance = std::make_unique<Instance>();
    const ctde::FmiKind kind{.fmi3 = true, .model_exchange = model_exchange};
    instance->model = std::make_unique<ExportedInstance>(instance_name, folder, token, kind, logger);
    return instance.release();
  } catch (const std::exception& e) {
    logger(ctde::fmu::Status::kError, "logStatusError", function + std::string(": ") + e.what());
  } catch (...) {
    logger(ctde::fmu::Status::kError, "logStatusError", function + std::string(": an unknown failure"));
  }
  return nullptr;
}

}  // namespace

extern "C" {

// NOLINTBEGIN(readability-identifier-naming, readability-non-const-parameter): the standard's names and
// signatures

const char* fmi3GetVersion() { return "3.0"; }

Status fmi3SetDebugLogging(fmi3::Instance instance, bool logging_on, std::size_t /*n_categories*/,
                           const fmi3::String /*categories*/[]) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  m->set_debug_logging(logging_on);
  return Status::kOK;
}

fmi3::Instance fmi3InstantiateModelExchange(fmi3::String name, fmi3::String token, fmi3::String resources,
                                            bool /*visible*/, bool logging_on,
                                            fmi3::InstanceEnvironment environment,
                                            fmi3::LogMessageCallback log) {
  fmi3::Instance instance = instantiate(name, token, resources, /*model_exchange=*/true, environment, log);
  if (instance != nullptr) get(instance)->set_debug_logging(logging_on);
  return instance;
}

fmi3::Instance fmi3InstantiateCoSimulation(fmi3::String name, fmi3::String token, fmi3::String resources,
                                           bool /*visible*/, bool logging_on, bool event_mode_used,
                                           bool early_return_allowed, const ValueReference /*required*/[],
                                           std::size_t /*n_required*/, fmi3::InstanceEnvironment environment,
                                           fmi3::LogMessageCallback log,
                                           fmi3::IntermediateUpdateCallback /*intermediate_update*/) {
  if (event_mode_used) {
    if (log != nullptr)
      log(environment, Status::kError, "logStatusError",
          "fmi3InstantiateCoSimulation: eventModeUsed, but this FMU has no event mode "
          "(hasEventMode=\"false\")");
    return nullptr;
  }
  fmi3::Instance instance = instantiate(name, token, resources, /*model_exchange=*/false, environment, log);
  if (instance != nullptr) {
    get(instance)->set_debug_logging(logging_on);
    get(instance)->allow_early_return(early_return_allowed);
  }
  return instance;
}

void* fmi3InstantiateScheduledExecution(fmi3::String /*name*/, fmi3::String /*token*/,
                                        fmi3::String /*resources*/, bool /*visible*/, bool /*logging_on*/,
                                        fmi3::InstanceEnvironment environment, fmi3::LogMessageCallback log,
                                        void (* /*clock_update*/)(void*), void (* /*lock*/)(),
                                        void (* /*unlock*/)()) {
  if (log != nullptr)
    log(environment, Status::kError, "logStatusError",
        "fmi3InstantiateScheduledExecution: this FMU offers Co-Simulation only");
  return nullptr;
}

void fmi3FreeInstance(fmi3::Instance instance) { delete static_cast<Instance*>(instance); }

Status fmi3EnterInitializationMode(fmi3::Instance instance, bool tolerance_defined, double tolerance,
                                   double start_time, bool stop_time_defined, double stop_time) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  return status(m->enter_initialization(tolerance_defined ? std::optional(tolerance) : std::nullopt,
                                        start_time,
                                        stop_time_defined ? std::optional(stop_time) : std::nullopt));
}

Status fmi3ExitInitializationMode(fmi3::Instance instance) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->exit_initialization());
}

Status fmi3EnterEventMode(fmi3::Instance instance) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->enter_event_mode());
}

Status fmi3Terminate(fmi3::Instance instance) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->terminate());
}

Status fmi3Reset(fmi3::Instance instance) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->reset());
}

Status fmi3GetFloat64(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr, double values[],
                      std::size_t n_values) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if ((nvr > 0 && (vr == nullptr || values == nullptr)))
    return status(m->fail("fmi3GetFloat64", "a null array of value references or values"));
  return status(m->get(refs(vr, nvr), {values, n_values}));
}

Status fmi3SetFloat64(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr,
                      const double values[], std::size_t n_values) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if ((nvr > 0 && (vr == nullptr || values == nullptr)))
    return status(m->fail("fmi3SetFloat64", "a null array of value references or values"));
  return status(m->set(refs(vr, nvr), {values, n_values}));
}

// NOLINTBEGIN(bugprone-macro-parentheses): CType is a type
#define CTDE_FMI3_NO_TYPE(Type, CType)                                                      \
  Status fmi3Get##Type(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr, \
                       CType /*values*/[], std::size_t /*n_values*/) {                      \
    return none<CType>(instance, FmiCall::kGetVariables, "fmi3Get" #Type, #Type, vr, nvr);  \
  }                                                                                         \
  Status fmi3Set##Type(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr, \
                       const CType /*values*/[], std::size_t /*n_values*/) {                \
    return none<CType>(instance, FmiCall::kSetVariables, "fmi3Set" #Type, #Type, vr, nvr);  \
  }
CTDE_FMI3_NO_TYPE(Float32, float)
CTDE_FMI3_NO_TYPE(Int8, std::int8_t)
CTDE_FMI3_NO_TYPE(UInt8, std::uint8_t)
CTDE_FMI3_NO_TYPE(Int16, std::int16_t)
CTDE_FMI3_NO_TYPE(UInt16, std::uint16_t)
CTDE_FMI3_NO_TYPE(Int32, std::int32_t)
CTDE_FMI3_NO_TYPE(UInt32, std::uint32_t)
CTDE_FMI3_NO_TYPE(Int64, std::int64_t)
CTDE_FMI3_NO_TYPE(UInt64, std::uint64_t)
CTDE_FMI3_NO_TYPE(Boolean, bool)
CTDE_FMI3_NO_TYPE(String, fmi3::String)
#undef CTDE_FMI3_NO_TYPE
// NOLINTEND(bugprone-macro-parentheses)

Status fmi3GetBinary(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr,
                     std::size_t /*sizes*/[], fmi3::Binary /*values*/[], std::size_t /*n_values*/) {
  return none<fmi3::Binary>(instance, FmiCall::kGetVariables, "fmi3GetBinary", "Binary", vr, nvr);
}
Status fmi3SetBinary(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr,
                     const std::size_t /*sizes*/[], const fmi3::Binary /*values*/[],
                     std::size_t /*n_values*/) {
  return none<fmi3::Binary>(instance, FmiCall::kSetVariables, "fmi3SetBinary", "Binary", vr, nvr);
}
Status fmi3GetClock(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr, bool /*values*/[]) {
  return none<bool>(instance, FmiCall::kGetVariables, "fmi3GetClock", "Clock", vr, nvr);
}
Status fmi3SetClock(fmi3::Instance instance, const ValueReference vr[], std::size_t nvr,
                    const bool /*values*/[]) {
  return none<bool>(instance, FmiCall::kSetVariables, "fmi3SetClock", "Clock", vr, nvr);
}

Status fmi3GetNumberOfVariableDependencies(fmi3::Instance instance, ValueReference /*vr*/,
                                           std::size_t* /*n*/) {
  return unsupported(instance, "fmi3GetNumberOfVariableDependencies");
}
Status fmi3GetVariableDependencies(fmi3::Instance instance, ValueReference /*dependent*/, std::size_t /*a*/[],
                                   ValueReference /*b*/[], std::size_t /*c*/[], int /*kinds*/[],
                                   std::size_t /*n*/) {
  return unsupported(instance, "fmi3GetVariableDependencies");
}

Status fmi3GetFMUState(fmi3::Instance instance, void** state) {
  return status(state_calls::get(get(instance), state));
}
Status fmi3SetFMUState(fmi3::Instance instance, void* state) {
  return status(state_calls::set(get(instance), state, "fmi3SetFMUState"));
}
Status fmi3FreeFMUState(fmi3::Instance instance, void** state) {
  return status(state_calls::free(get(instance), state));
}
Status fmi3SerializedFMUStateSize(fmi3::Instance instance, void* state, std::size_t* size) {
  return status(state_calls::size(get(instance), state, size));
}
Status fmi3SerializeFMUState(fmi3::Instance instance, void* state, std::uint8_t serialized[],
                             std::size_t size) {
  return status(state_calls::write(get(instance), state, reinterpret_cast<std::byte*>(serialized), size,
                                   "fmi3SerializeFMUState", "fmi3SerializedFMUStateSize"));
}
Status fmi3DeserializeFMUState(fmi3::Instance instance, const std::uint8_t serialized[], std::size_t size,
                               void** state) {
  return status(
      state_calls::read(get(instance), reinterpret_cast<const std::byte*>(serialized), size, state));
}

Status fmi3GetDirectionalDerivative(fmi3::Instance instance, const ValueReference[], std::size_t,
                                    const ValueReference[], std::size_t, const double[], std::size_t,
                                    double[], std::size_t) {
  return unsupported(instance, "fmi3GetDirectionalDerivative");
}
Status fmi3GetAdjointDerivative(fmi3::Instance instance, const ValueReference[], std::size_t,
                                const ValueReference[], std::size_t, const double[], std::size_t, double[],
                                std::size_t) {
  return unsupported(instance, "fmi3GetAdjointDerivative");
}
Status fmi3EnterConfigurationMode(fmi3::Instance instance) {
  return unsupported(instance, "fmi3EnterConfigurationMode");
}
Status fmi3ExitConfigurationMode(fmi3::Instance instance) {
  return unsupported(instance, "fmi3ExitConfigurationMode");
}
Status fmi3GetIntervalDecimal(fmi3::Instance instance, const ValueReference[], std::size_t, double[], int[]) {
  return unsupported(instance, "fmi3GetIntervalDecimal");
}
Status fmi3GetIntervalFraction(fmi3::Instance instance, const ValueReference[], std::size_t, std::uint64_t[],
                               std::uint64_t[], int[]) {
  return unsupported(instance, "fmi3GetIntervalFraction");
}
Status fmi3GetShiftDecimal(fmi3::Instance instance, const ValueReference[], std::size_t, double[]) {
  return unsupported(instance, "fmi3GetShiftDecimal");
}
Status fmi3GetShiftFraction(fmi3::Instance instance, const ValueReference[], std::size_t, std::uint64_t[],
                            std::uint64_t[]) {
  return unsupported(instance, "fmi3GetShiftFraction");
}
Status fmi3SetIntervalDecimal(fmi3::Instance instance, const ValueReference[], std::size_t, const double[]) {
  return unsupported(instance, "fmi3SetIntervalDecimal");
}
Status fmi3SetIntervalFraction(fmi3::Instance instance, const ValueReference[], std::size_t,
                               const std::uint64_t[], const std::uint64_t[]) {
  return unsupported(instance, "fmi3SetIntervalFraction");
}
Status fmi3SetShiftDecimal(fmi3::Instance instance, const ValueReference[], std::size_t, const double[]) {
  return unsupported(instance, "fmi3SetShiftDecimal");
}
Status fmi3SetShiftFraction(fmi3::Instance instance, const ValueReference[], std::size_t,
                            const std::uint64_t[], const std::uint64_t[]) {
  return unsupported(instance, "fmi3SetShiftFraction");
}
Status fmi3EvaluateDiscreteStates(fmi3::Instance instance) {
  return unsupported(instance, "fmi3EvaluateDiscreteStates");
}
// ---- Model Exchange (exported_exchange.cpp)

Status fmi3UpdateDiscreteStates(fmi3::Instance instance, bool* needs_update, bool* terminate,
                                bool* nominals_changed, bool* values_changed, bool* next_defined,
                                double* next_time) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if (needs_update == nullptr || terminate == nullptr || nominals_changed == nullptr ||
      values_changed == nullptr || next_defined == nullptr || next_time == nullptr)
    return status(m->fail("fmi3UpdateDiscreteStates", "NULL result arguments"));
  ExportedInstance::EventInfo got;
  const Status s = status(m->update_discrete_states(got));
  *needs_update = got.needs_update;
  *terminate = got.terminate;
  *nominals_changed = false;
  *values_changed = got.values_changed;
  *next_defined = got.next_defined;
  *next_time = got.next_time;
  return s;
}
Status fmi3EnterContinuousTimeMode(fmi3::Instance instance) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->enter_continuous_time_mode());
}
Status fmi3CompletedIntegratorStep(fmi3::Instance instance, bool /*no_set_fmu_state_prior*/,
                                   bool* enter_event_mode, bool* terminate) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if (enter_event_mode == nullptr || terminate == nullptr)
    return status(m->fail("fmi3CompletedIntegratorStep", "NULL result arguments"));
  return status(m->completed_integrator_step(*enter_event_mode, *terminate));
}
Status fmi3SetTime(fmi3::Instance instance, double time) {
  ExportedInstance* m = get(instance);
  return m == nullptr ? Status::kError : status(m->set_time(time));
}
Status fmi3SetContinuousStates(fmi3::Instance instance, const double x[], std::size_t n) {
  return status(
      with_array(get(instance), "fmi3SetContinuousStates", x, n,
                 [](ExportedInstance& m, std::span<const double> v) { return m.set_continuous_states(v); }));
}
Status fmi3GetContinuousStateDerivatives(fmi3::Instance instance, double dx[], std::size_t n) {
  return status(with_array(get(instance), "fmi3GetContinuousStateDerivatives", dx, n,
                           [](ExportedInstance& m, std::span<double> v) { return m.get_derivatives(v); }));
}
Status fmi3GetEventIndicators(fmi3::Instance instance, double z[], std::size_t n) {
  return status(
      with_array(get(instance), "fmi3GetEventIndicators", z, n,
                 [](ExportedInstance& m, std::span<double> v) { return m.get_event_indicators(v); }));
}
Status fmi3GetContinuousStates(fmi3::Instance instance, double x[], std::size_t n) {
  return status(
      with_array(get(instance), "fmi3GetContinuousStates", x, n,
                 [](ExportedInstance& m, std::span<double> v) { return m.get_continuous_states(v); }));
}
Status fmi3GetNominalsOfContinuousStates(fmi3::Instance instance, double x[], std::size_t n) {
  return status(with_array(get(instance), "fmi3GetNominalsOfContinuousStates", x, n,
                           [](ExportedInstance& m, std::span<double> v) { return m.get_nominals(v); }));
}
Status fmi3GetNumberOfEventIndicators(fmi3::Instance instance, std::size_t* n) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if (n == nullptr) return status(m->fail("fmi3GetNumberOfEventIndicators", "NULL result argument"));
  *n = m->indicator_count();
  return Status::kOK;
}
Status fmi3GetNumberOfContinuousStates(fmi3::Instance instance, std::size_t* n) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if (n == nullptr) return status(m->fail("fmi3GetNumberOfContinuousStates", "NULL result argument"));
  *n = m->state_count();
  return Status::kOK;
}
Status fmi3EnterStepMode(fmi3::Instance instance) { return unsupported(instance, "fmi3EnterStepMode"); }
Status fmi3GetOutputDerivatives(fmi3::Instance instance, const ValueReference[], std::size_t,
                                const std::int32_t[], double[], std::size_t) {
  return unsupported(instance, "fmi3GetOutputDerivatives");
}
Status fmi3ActivateModelPartition(fmi3::Instance instance, ValueReference, double) {
  return unsupported(instance, "fmi3ActivateModelPartition");
}

Status fmi3DoStep(fmi3::Instance instance, double current_communication_point, double communication_step_size,
                  bool /*no_set_fmu_state_prior*/, bool* event_handling_needed, bool* terminate_simulation,
                  bool* early_return, double* last_successful_time) {
  ExportedInstance* m = get(instance);
  if (m == nullptr) return Status::kError;
  if (event_handling_needed == nullptr || terminate_simulation == nullptr || early_return == nullptr ||
      last_successful_time == nullptr)
    return status(m->fail("fmi3DoStep", "a null output argument"));
  *event_handling_needed = false;
  bool terminate = false;
  bool early = false;
  double last = current_communication_point;
  const Status s =
      status(m->do_step(current_communication_point, communication_step_size, terminate, early, last));
  *early_return = early;
  *terminate_simulation = terminate;
  *last_successful_time = last;
  return s;
}

// NOLINTEND(readability-identifier-naming, readability-non-const-parameter)

}  // extern "C"
