#include "actors/fmi/fmi3_adapter.hpp"

#include <cstring>
#include <memory>

#include "actors/fmi/fmu_archive.hpp"

namespace ctde {

namespace {

/// What the adapter keeps per instance. Not copyable (the FMU keeps its address).
struct Fmi3Component {
  fmi3::Instance instance = nullptr;
  const fmi3::Functions* f = nullptr;
  fmi2::CallbackFunctions callbacks{};
  std::string name;
  double start = 0;
  double stop = 0;
  bool stop_defined = false;
  bool terminated = false;                    ///< a co-simulation step ended with terminateSimulation
  std::unique_ptr<fmi3::Boolean[]> booleans;  ///< conversion buffer, grown once to the widest call
  std::size_t capacity = 0;

  fmi3::Boolean* boolean_buffer(std::size_t n) {
    if (n > capacity) {
      booleans = std::make_unique<fmi3::Boolean[]>(n);
      capacity = n;
    }
    return booleans.get();
  }
};

Fmi3Component& component(fmi2::Component c) { return *static_cast<Fmi3Component*>(c); }
fmi2::Status status(fmi3::Status s) { return static_cast<fmi2::Status>(static_cast<int>(s)); }

void log_message(fmi3::InstanceEnvironment env, fmi3::Status s, fmi3::String category, fmi3::String message) {
  auto& c = *static_cast<Fmi3Component*>(env);
  if (c.callbacks.logger != nullptr) {
    c.callbacks.logger(c.callbacks.component_environment, c.name.c_str(), status(s), category, "%s",
                       message == nullptr ? "" : message);
  }
}

void free_instance(fmi2::Component c) {
  std::unique_ptr<Fmi3Component> owned(&component(c));
  owned->f->free_instance(owned->instance);
}
fmi2::Status setup_experiment(fmi2::Component c, fmi2::Boolean, fmi2::Real, fmi2::Real start,
                              fmi2::Boolean stop_defined, fmi2::Real stop) {
  Fmi3Component& m = component(c);
  m.start = start;
  m.stop = stop;
  m.stop_defined = stop_defined != fmi2::kFalse;
  return fmi2::Status::kOK;
}
fmi2::Status enter_initialization_mode(fmi2::Component c) {
  Fmi3Component& m = component(c);
  return status(m.f->enter_initialization_mode(m.instance, false, 0.0, m.start, m.stop_defined, m.stop));
}
fmi2::Status exit_initialization_mode(fmi2::Component c) {
  return status(component(c).f->exit_initialization_mode(component(c).instance));
}
fmi2::Status terminate(fmi2::Component c) { return status(component(c).f->terminate(component(c).instance)); }
fmi2::Status get_real(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n, fmi2::Real v[]) {
  return status(component(c).f->get_float64(component(c).instance, vr, n, v, n));
}
fmi2::Status get_integer(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                         fmi2::Integer v[]) {
  return status(component(c).f->get_int32(component(c).instance, vr, n, v, n));
}
fmi2::Status get_boolean(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                         fmi2::Boolean v[]) {
  Fmi3Component& m = component(c);
  fmi3::Boolean* b = m.boolean_buffer(n);
  const fmi3::Status s = m.f->get_boolean(m.instance, vr, n, b, n);
  for (std::size_t k = 0; k < n; ++k) v[k] = b[k] ? fmi2::kTrue : fmi2::kFalse;
  return status(s);
}
fmi2::Status set_real(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                      const fmi2::Real v[]) {
  return status(component(c).f->set_float64(component(c).instance, vr, n, v, n));
}
fmi2::Status set_integer(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                         const fmi2::Integer v[]) {
  return status(component(c).f->set_int32(component(c).instance, vr, n, v, n));
}
fmi2::Status set_boolean(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                         const fmi2::Boolean v[]) {
  Fmi3Component& m = component(c);
  fmi3::Boolean* b = m.boolean_buffer(n);
  for (std::size_t k = 0; k < n; ++k) b[k] = v[k] != fmi2::kFalse;
  return status(m.f->set_boolean(m.instance, vr, n, b, n));
}
fmi2::Status set_string(fmi2::Component c, const fmi2::ValueReference vr[], std::size_t n,
                        const fmi2::String v[]) {
  return status(component(c).f->set_string(component(c).instance, vr, n, v, n));
}
fmi2::Status enter_event_mode(fmi2::Component c) {
  return status(component(c).f->enter_event_mode(component(c).instance));
}
fmi2::Status new_discrete_states(fmi2::Component c, fmi2::EventInfo* info) {
  fmi3::Boolean update = false;
  fmi3::Boolean terminate = false;
  fmi3::Boolean nominals = false;
  fmi3::Boolean values = false;
  fmi3::Boolean next_defined = false;
  fmi3::Float64 next = 0;
  const fmi3::Status s = component(c).f->update_discrete_states(component(c).instance, &update, &terminate,
                                                                &nominals, &values, &next_defined, &next);
  info->new_discrete_states_needed = update ? fmi2::kTrue : fmi2::kFalse;
  info->terminate_simulation = terminate ? fmi2::kTrue : fmi2::kFalse;
  info->nominals_of_continuous_states_changed = nominals ? fmi2::kTrue : fmi2::kFalse;
  info->values_of_continuous_states_changed = values ? fmi2::kTrue : fmi2::kFalse;
  info->next_event_time_defined = next_defined ? fmi2::kTrue : fmi2::kFalse;
  info->next_event_time = next;
  return status(s);
}
fmi2::Status enter_continuous_time_mode(fmi2::Component c) {
  return status(component(c).f->enter_continuous_time_mode(component(c).instance));
}
fmi2::Status completed_integrator_step(fmi2::Component c, fmi2::Boolean no_prior, fmi2::Boolean* enter,
                                       fmi2::Boolean* terminate) {
  fmi3::Boolean e = false;
  fmi3::Boolean t = false;
  const fmi3::Status s =
      component(c).f->completed_integrator_step(component(c).instance, no_prior != 0, &e, &t);
  *enter = e ? fmi2::kTrue : fmi2::kFalse;
  *terminate = t ? fmi2::kTrue : fmi2::kFalse;
  return status(s);
}
fmi2::Status set_time(fmi2::Component c, fmi2::Real t) {
  return status(component(c).f->set_time(component(c).instance, t));
}
fmi2::Status set_continuous_states(fmi2::Component c, const fmi2::Real x[], std::size_t n) {
  return status(component(c).f->set_continuous_states(component(c).instance, x, n));
}
fmi2::Status get_derivatives(fmi2::Component c, fmi2::Real dx[], std::size_t n) {
  return status(component(c).f->get_continuous_state_derivatives(component(c).instance, dx, n));
}
fmi2::Status get_event_indicators(fmi2::Component c, fmi2::Real z[], std::size_t n) {
  return status(component(c).f->get_event_indicators(component(c).instance, z, n));
}
fmi2::Status get_continuous_states(fmi2::Component c, fmi2::Real x[], std::size_t n) {
  return status(component(c).f->get_continuous_states(component(c).instance, x, n));
}
fmi2::Status get_nominals(fmi2::Component c, fmi2::Real x[], std::size_t n) {
  return status(component(c).f->get_nominals(component(c).instance, x, n));
}

fmi2::Status do_step(fmi2::Component c, fmi2::Real t, fmi2::Real h, fmi2::Boolean no_prior) {
  Fmi3Component& m = component(c);
  fmi3::Boolean event_needed = false;
  fmi3::Boolean terminate = false;
  fmi3::Boolean early = false;
  fmi3::Float64 last = t;
  const fmi3::Status s =
      m.f->do_step(m.instance, t, h, no_prior != fmi2::kFalse, &event_needed, &terminate, &early, &last);
  if (terminate) {
    m.terminated = true;
    return s == fmi3::Status::kOK || s == fmi3::Status::kWarning ? fmi2::Status::kDiscard : status(s);
  }
  return status(s);
}
fmi2::Status get_boolean_status(fmi2::Component c, fmi2::StatusKind kind, fmi2::Boolean* value) {
  if (kind != fmi2::StatusKind::kTerminated) return fmi2::Status::kDiscard;
  *value = component(c).terminated ? fmi2::kTrue : fmi2::kFalse;
  return fmi2::Status::kOK;
}

// The FMU state: the same pointers; fmi2Byte (char) and fmi3Byte (uint8_t) are bytes alike.
// NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): a byte array seen as bytes of another type
const fmi3::Byte* bytes(const fmi2::Byte* b) { return reinterpret_cast<const fmi3::Byte*>(b); }
fmi3::Byte* bytes(fmi2::Byte* b) { return reinterpret_cast<fmi3::Byte*>(b); }
// NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
fmi2::Status get_fmu_state(fmi2::Component c, fmi2::FMUstate* state) {
  return status(component(c).f->get_fmu_state(component(c).instance, state));
}
fmi2::Status set_fmu_state(fmi2::Component c, fmi2::FMUstate state) {
  return status(component(c).f->set_fmu_state(component(c).instance, state));
}
fmi2::Status free_fmu_state(fmi2::Component c, fmi2::FMUstate* state) {
  return status(component(c).f->free_fmu_state(component(c).instance, state));
}
fmi2::Status serialized_fmu_state_size(fmi2::Component c, fmi2::FMUstate state, std::size_t* size) {
  return status(component(c).f->serialized_fmu_state_size(component(c).instance, state, size));
}
fmi2::Status serialize_fmu_state(fmi2::Component c, fmi2::FMUstate state, fmi2::Byte serialized[],
                                 std::size_t size) {
  return status(component(c).f->serialize_fmu_state(component(c).instance, state, bytes(serialized), size));
}
fmi2::Status deserialize_fmu_state(fmi2::Component c, const fmi2::Byte serialized[], std::size_t size,
                                   fmi2::FMUstate* state) {
  return status(component(c).f->deserialize_fmu_state(component(c).instance, bytes(serialized), size, state));
}

fmi2::Status get_directional_derivative(fmi2::Component c, const fmi2::ValueReference unknowns[],
                                        std::size_t n_unknowns, const fmi2::ValueReference knowns[],
                                        std::size_t n_knowns, const fmi2::Real seed[],
                                        fmi2::Real sensitivity[]) {
  return status(component(c).f->get_directional_derivative(component(c).instance, unknowns, n_unknowns,
                                                           knowns, n_knowns, seed, n_knowns, sensitivity,
                                                           n_unknowns));
}

}  // namespace

void fmi3_adapter_directional_derivative(const fmi3::Functions& functions, Fmi2Functions& f) {
  f.get_directional_derivative =
      functions.get_directional_derivative != nullptr ? &get_directional_derivative : nullptr;
}

void fmi3_adapter_fmu_state(const fmi3::Functions& functions, Fmi2Functions& f) {
  f.get_fmu_state = functions.get_fmu_state != nullptr ? &get_fmu_state : nullptr;
  f.set_fmu_state = functions.set_fmu_state != nullptr ? &set_fmu_state : nullptr;
  f.free_fmu_state = functions.free_fmu_state != nullptr ? &free_fmu_state : nullptr;
  f.serialized_fmu_state_size =
      functions.serialized_fmu_state_size != nullptr ? &serialized_fmu_state_size : nullptr;
  f.serialize_fmu_state = functions.serialize_fmu_state != nullptr ? &serialize_fmu_state : nullptr;
  f.deserialize_fmu_state = functions.deserialize_fmu_state != nullptr ? &deserialize_fmu_state : nullptr;
}

Fmi2Functions fmi3_adapter_functions() {
  Fmi2Functions f;
  f.free_instance = &free_instance;
  f.setup_experiment = &setup_experiment;
  f.enter_initialization_mode = &enter_initialization_mode;
  f.exit_initialization_mode = &exit_initialization_mode;
  f.terminate = &terminate;
  f.get_real = &get_real;
  f.get_integer = &get_integer;
  f.get_boolean = &get_boolean;
  f.set_real = &set_real;
  f.set_integer = &set_integer;
  f.set_boolean = &set_boolean;
  f.set_string = &set_string;
  f.enter_event_mode = &enter_event_mode;
  f.new_discrete_states = &new_discrete_states;
  f.enter_continuous_time_mode = &enter_continuous_time_mode;
  f.completed_integrator_step = &completed_integrator_step;
  f.set_time = &set_time;
  f.set_continuous_states = &set_continuous_states;
  f.get_derivatives = &get_derivatives;
  f.get_event_indicators = &get_event_indicators;
  f.get_continuous_states = &get_continuous_states;
  f.get_nominals = &get_nominals;
  f.do_step = &do_step;
  f.get_boolean_status = &get_boolean_status;
  return f;
}

const char* fmi3_call_name(const char* fmi2_call, fmi2::Type type) {
  struct Name {
    const char* fmi2;
    const char* fmi3;
  };
  static constexpr Name kNames[] = {
      {"fmi2SetupExperiment", "fmi3EnterInitializationMode"},  // its times go to that call
      {"fmi2EnterInitializationMode", "fmi3EnterInitializationMode"},
      {"fmi2ExitInitializationMode", "fmi3ExitInitializationMode"},
      {"fmi2Terminate", "fmi3Terminate"},
      {"fmi2GetReal", "fmi3GetFloat64"},
      {"fmi2GetInteger", "fmi3GetInt32"},
      {"fmi2GetBoolean", "fmi3GetBoolean"},
      {"fmi2SetReal", "fmi3SetFloat64"},
      {"fmi2SetInteger", "fmi3SetInt32"},
      {"fmi2SetBoolean", "fmi3SetBoolean"},
      {"fmi2SetString", "fmi3SetString"},
      {"fmi2EnterEventMode", "fmi3EnterEventMode"},
      {"fmi2NewDiscreteStates", "fmi3UpdateDiscreteStates"},
      {"fmi2EnterContinuousTimeMode", "fmi3EnterContinuousTimeMode"},
      {"fmi2CompletedIntegratorStep", "fmi3CompletedIntegratorStep"},
      {"fmi2SetTime", "fmi3SetTime"},
      {"fmi2SetContinuousStates", "fmi3SetContinuousStates"},
      {"fmi2GetDerivatives", "fmi3GetContinuousStateDerivatives"},
      {"fmi2GetEventIndicators", "fmi3GetEventIndicators"},
      {"fmi2GetContinuousStates", "fmi3GetContinuousStates"},
      {"fmi2GetNominalsOfContinuousStates", "fmi3GetNominalsOfContinuousStates"},
      {"fmi2DoStep", "fmi3DoStep"},
      {"fmi2GetFMUstate", "fmi3GetFMUState"},
      {"fmi2SetFMUstate", "fmi3SetFMUState"},
      {"fmi2FreeFMUstate", "fmi3FreeFMUState"},
      {"fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize"},
      {"fmi2SerializeFMUstate", "fmi3SerializeFMUState"},
      {"fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState"},
      {"fmi2GetDirectionalDerivative", "fmi3GetDirectionalDerivative"},
  };
  if (std::strcmp(fmi2_call, "fmi2Instantiate") == 0) {
    return type == fmi2::Type::kModelExchange ? "fmi3InstantiateModelExchange"
                                              : "fmi3InstantiateCoSimulation";
  }
  for (const Name& name : kNames) {
    if (std::strcmp(fmi2_call, name.fmi2) == 0) return name.fmi3;
  }
  return fmi2_call;
}

fmi3::Instance fmi3_instance(fmi2::Component component) {
  return static_cast<Fmi3Component*>(component)->instance;
}

fmi2::Component fmi3_instantiate(const fmi3::Functions& functions, const std::string& instance_name,
                                 fmi2::Type type, const std::string& token, const std::string& resource_uri,
                                 const fmi2::CallbackFunctions* callbacks) {
  auto c = std::make_unique<Fmi3Component>();
  c->f = &functions;
  c->callbacks = *callbacks;
  c->name = instance_name;
  const std::string path = file_uri_path(resource_uri);
  if (type == fmi2::Type::kModelExchange) {
    c->instance = functions.instantiate_model_exchange(instance_name.c_str(), token.c_str(), path.c_str(),
                                                       false, false, c.get(), &log_message);
  } else {
    c->instance =
        functions.instantiate_co_simulation(instance_name.c_str(), token.c_str(), path.c_str(), false, false,
                                            false, false, nullptr, 0, c.get(), &log_message, nullptr);
  }
  if (c->instance == nullptr) return nullptr;
  return c.release();
}

}  // namespace ctde
