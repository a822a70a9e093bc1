/* A generic FMI 2.0 FMU (Model Exchange and Co-Simulation) around one model
 * of fmu_runtime.h, as strict as the standard (fmu_rules.h): it reads its
 * modelDescription.xml at fmi2Instantiate (beside the resource folder of
 * the file:// URI it is given; instantiation fails, naming the path, when
 * it cannot) and refuses, with fmi2Error and an "error" log line
 * "<function>: <why>", every call the FMI 2.0 state machine forbids:
 *   - a function in a state that does not allow it (fmi2SetupExperiment
 *     and fmi2EnterInitializationMode only in Instantiated, the latter
 *     after fmi2SetupExperiment; fmi2ExitInitializationMode only in
 *     Initialization Mode, to Event Mode (ME) or stepComplete (CS);
 *     fmi2EnterEventMode in Event or Continuous-Time Mode;
 *     fmi2NewDiscreteStates in Event Mode; fmi2EnterContinuousTimeMode in
 *     Event Mode once the last fmi2NewDiscreteStates said
 *     newDiscreteStatesNeeded false; fmi2CompletedIntegratorStep and
 *     fmi2SetContinuousStates in Continuous-Time Mode; fmi2SetTime in Event
 *     or Continuous-Time Mode; fmi2GetDerivatives in Event, Continuous-Time
 *     Mode and Terminated; fmi2GetEventIndicators, fmi2GetContinuousStates
 *     also in Initialization Mode, fmi2GetNominalsOfContinuousStates also in
 *     Instantiated; fmi2Get<Type> from Initialization Mode to Terminated
 *     (not in Instantiated); fmi2Terminate from Event, Continuous-Time Mode,
 *     stepComplete or stepFailed; fmi2DoStep in stepComplete;
 *     fmi2GetStatus and fmi2GetBooleanStatus in stepComplete, stepFailed
 *     and Terminated);
 *   - a Model Exchange function on a Co-Simulation instance or the
 *     reverse, and an instance of an interface the XML does not declare;
 *   - a value reference that is no variable of the function's type or
 *     has no slot in the instance's arrays (fmu_runtime.h), a variable
 *     fmi2Set<Type> may not set in the state (by its causality,
 *     variability and initial: fmu_may_set), a NULL string for
 *     fmi2SetString and one longer than FMU_MAX_STRING (63) characters;
 *   - array sizes that are not the model's numbers of states and event
 *     indicators;
 *   - fmi2DoStep at a communication point that is not the FMU's time (the
 *     start time, then the end of the last step, within 1e-12 relative) or
 *     with a step size <= 0;
 *   - a second live instance when the XML says
 *     canBeInstantiatedOnlyOncePerProcess="true".
 * After an error the instance is in the Error state: only fmi2FreeInstance
 * and fmi2Reset are accepted. Variables start with the description's start
 * values (then the model's model_defaults); fmi2GetString returns pointers
 * into the instance (valid while it lives, their contents changing with the
 * variables). fmi2DoStep returning fmi2Discard (the model
 * asks to terminate, or fails) leaves it in stepFailed (fmi2Get<Type>,
 * fmi2GetStatus, fmi2GetBooleanStatus, fmi2Terminate).
 * Co-Simulation integrates with explicit Euler substeps and handles the
 * model's time events inside doStep; the model sees FMU_STEP_IN_PROGRESS
 * in m->state during the step (and model_compute once at its end). Defining
 * FMU_OMIT_GET_DERIVATIVES leaves fmi2GetDerivatives out (a broken FMU).
 * The FMU-state functions (fmi2GetFMUstate ... fmi2DeSerializeFMUstate)
 * work when the description declares canGetAndSetFMUstate (and
 * canSerializeFMUstate) and refuse otherwise (fmu_state.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_partials.h"
#include "fmu_rules.h"
#include "fmu_runtime.h"
#include "fmu_state.h"

#define EXPORT __attribute__((visibility("default")))
#ifndef FMU_VERSION_STRING
#define FMU_VERSION_STRING "2.0"
#endif

static void report(Instance* m, fmi2Status status, const char* category, const char* text) {
  if (m->cb.logger != NULL) m->cb.logger(m->cb.componentEnvironment, m->name, status, category, "%s", text);
}

void model_log(Instance* m, int status, const char* category, const char* text) {
  report(m, (fmi2Status)status, category, text);
}

#define IN(s) FMU_IN(FMU_##s)
/* Returns fmi2Error from the function unless `fn` is allowed now. */
#define ALLOW(fn, interface, states)                                       \
  do {                                                                     \
    if (!fmu_allow((Instance*)c, fn, interface, states)) return fmi2Error; \
  } while (0)
/* Returns fmi2Error from the function after fmu_fail. */
#define FAIL(m, fn, ...)          \
  do {                            \
    fmu_fail(m, fn, __VA_ARGS__); \
    return fmi2Error;             \
  } while (0)

EXPORT const char* fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char* fmi2GetVersion(void) { return FMU_VERSION_STRING; }

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions* cb, fmi2Boolean visible,
                                     fmi2Boolean logging) {
  (void)visible;
  (void)logging;
  if (cb == NULL) return NULL;
  if (name == NULL) name = "";
  if (type != fmi2ModelExchange && type != fmi2CoSimulation) {
    if (cb->logger != NULL) {
      cb->logger(cb->componentEnvironment, name, fmi2Error, "error", "fmi2Instantiate: unknown fmuType %d",
                 (int)type);
    }
    return NULL;
  }
  if (guid == NULL || strcmp(guid, FMU_GUID) != 0) {
    if (cb->logger != NULL) {
      cb->logger(cb->componentEnvironment, name, fmi2Error, "error", "wrong GUID %s, expected %s",
                 guid == NULL ? "(null)" : guid, FMU_GUID);
    }
    return NULL;
  }
  char why[1024];
  FmuDescription* desc = fmu_open(resources, 0, type == fmi2CoSimulation, why, sizeof why);
  if (desc == NULL) {
    if (cb->logger != NULL)
      cb->logger(cb->componentEnvironment, name, fmi2Error, "error", "fmi2Instantiate: %s", why);
    return NULL;
  }
  Instance* m = (Instance*)calloc(1, sizeof(Instance));
  if (m == NULL) {
    free(desc);
    return NULL;
  }
  m->cb = *cb;
  m->type = (int)type;
  m->desc = desc;
  snprintf(m->name, sizeof m->name, "%s", name);
  fmu_reset(m);
  return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) {
  if (c == NULL) return;
  fmu_close((Instance*)c);
  free(c);
}
EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String cats[]) {
  (void)on;
  (void)n;
  (void)cats;
  ALLOW("fmi2SetDebugLogging", FMU_ANY, ~FMU_IN(FMU_ERROR));
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tol_defined, fmi2Real tol, fmi2Real start,
                                      fmi2Boolean stop_defined, fmi2Real stop) {
  Instance* m = (Instance*)c;
  (void)tol_defined;
  (void)tol;
  ALLOW("fmi2SetupExperiment", FMU_ANY, IN(INSTANTIATED));
  if (!isfinite(start)) FAIL(m, "fmi2SetupExperiment", "start time %g", start);
  if (stop_defined && !(stop >= start))
    FAIL(m, "fmi2SetupExperiment", "stop time %g is before the start time %g", stop, start);
  m->start_time = start;
  m->time = start;
  m->setup_done = 1;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2EnterInitializationMode", FMU_ANY, IN(INSTANTIATED));
  if (!m->setup_done) {
    fmu_fail(m, "fmi2EnterInitializationMode", "fmi2SetupExperiment was not called before");
    return fmi2Error;
  }
  m->state = FMU_INITIALIZATION_MODE;
  return fmi2OK;
}
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2ExitInitializationMode", FMU_ANY, IN(INITIALIZATION_MODE));
  model_initialize(m);
  m->event_calls = 0;
  m->last_event_needed_more = 0;
  m->state = m->type == fmi2CoSimulation ? FMU_STEP_MODE : FMU_EVENT_MODE;
  return fmi2OK;
}
EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
  ALLOW("fmi2Terminate", FMU_ANY,
        IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(STEP_MODE) | IN(STEP_FAILED));
  ((Instance*)c)->state = FMU_TERMINATED;
  return fmi2OK;
}
EXPORT fmi2Status fmi2Reset(fmi2Component c) {
  if (c == NULL) return fmi2Error;
  fmu_reset((Instance*)c);
  return fmi2OK;
}

/* ---- The FMU state (fmu_state.h) */
EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* state) {
  return fmu_get_state((Instance*)c, "fmi2GetFMUstate", state) ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state) {
  return fmu_set_state((Instance*)c, "fmi2SetFMUstate", state) ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* state) {
  return fmu_free_state((Instance*)c, "fmi2FreeFMUstate", state) ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t* size) {
  return fmu_serialized_state_size((Instance*)c, "fmi2SerializedFMUstateSize", state, size) ? fmi2OK
                                                                                            : fmi2Error;
}
EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size) {
  return fmu_serialize_state((Instance*)c, "fmi2SerializeFMUstate", state, (unsigned char*)bytes, size)
             ? fmi2OK
             : fmi2Error;
}
EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size,
                                          fmi2FMUstate* state) {
  return fmu_deserialize_state((Instance*)c, "fmi2DeSerializeFMUstate", (const unsigned char*)bytes, size,
                               state)
             ? fmi2OK
             : fmi2Error;
}

/* ---- Variables: Real in m->r[vr], Integer, Enumeration and Boolean in
 * m->i[vr], String in m->s[vr] (fmu_access checks that vr has a slot). */
#define REAL FMU_TYPE(FMU_REAL)
#define INTEGER (FMU_TYPE(FMU_INTEGER) | FMU_TYPE(FMU_ENUMERATION))
#define BOOLEAN FMU_TYPE(FMU_BOOLEAN)
#define STRING FMU_TYPE(FMU_STRING)

/* Outputs computed from states and inputs (not in stepFailed, where the values stay those of the failure). */
static fmi2Status compute(Instance* m) {
  if (m->state == FMU_STEP_FAILED) return fmi2OK;
  const fmi2Status s = model_compute(m);
  if (s != fmi2OK) report(m, s, "discard", m->message);
  return s;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2GetReal", 0, REAL, vr, n)) return fmi2Error;
  const fmi2Status s = compute(m);
  if (s != fmi2OK) return s;
  for (size_t k = 0; k < n; ++k) v[k] = m->r[vr[k]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2GetInteger", 0, INTEGER, vr, n)) return fmi2Error;
  (void)compute(m);
  for (size_t k = 0; k < n; ++k) v[k] = m->i[vr[k]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2GetBoolean", 0, BOOLEAN, vr, n)) return fmi2Error;
  (void)compute(m);
  for (size_t k = 0; k < n; ++k) v[k] = m->i[vr[k]] != 0;
  return fmi2OK;
}
/* Pointers into the instance, valid while it lives; their contents change with the variables. */
EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2GetString", 0, STRING, vr, n)) return fmi2Error;
  if (n > 0 && v == NULL) FAIL(m, "fmi2GetString", "no values (NULL) for %zu values", n);
  (void)compute(m);
  for (size_t k = 0; k < n; ++k) v[k] = m->s[vr[k]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2SetReal", 1, REAL, vr, n)) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->r[vr[k]] = v[k];
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const fmi2Integer v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2SetInteger", 1, INTEGER, vr, n)) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->i[vr[k]] = v[k];
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const fmi2Boolean v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2SetBoolean", 1, BOOLEAN, vr, n)) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->i[vr[k]] = v[k] ? 1 : 0;
  return fmi2OK;
}
/* Copies the strings (of up to FMU_MAX_STRING characters). */
EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                const fmi2String v[]) {
  Instance* m = (Instance*)c;
  if (!fmu_access(m, "fmi2SetString", 1, STRING, vr, n)) return fmi2Error;
  if (n > 0 && v == NULL) FAIL(m, "fmi2SetString", "no values (NULL) for %zu values", n);
  for (size_t k = 0; k < n; ++k) {
    if (v[k] == NULL) FAIL(m, "fmi2SetString", "the value of variable %u is NULL", vr[k]);
    if (strlen(v[k]) > FMU_MAX_STRING) {
      FAIL(m, "fmi2SetString", "the value of variable %u has %zu characters, more than this runtime's %d",
           vr[k], strlen(v[k]), FMU_MAX_STRING);
    }
  }
  for (size_t k = 0; k < n; ++k) memmove(m->s[vr[k]], v[k], strlen(v[k]) + 1);
  return fmi2OK;
}

/* ---- Model Exchange */

/* An array argument of `n` values where the model has `want`. */
static int sized(Instance* m, const char* fn, const void* array, size_t n, int want, const char* what) {
  if (n != (size_t)want) return fmu_fail(m, fn, "%zu %s, but the model has %d", n, what, want);
  if (n > 0 && array == NULL) return fmu_fail(m, fn, "a NULL array for %zu %s", n, what);
  return 1;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2EnterEventMode", FMU_ME, IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE));
  if (m->state == FMU_CONTINUOUS_TIME_MODE) {
    m->event_calls = 0;
    m->last_event_needed_more = 0;
    m->state = FMU_EVENT_MODE;
  }
  return fmi2OK;
}
EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2NewDiscreteStates", FMU_ME, IN(EVENT_MODE));
  if (info == NULL) FAIL(m, "fmi2NewDiscreteStates", "no fmi2EventInfo (NULL)");
  ++m->event_calls;
  m->discrete_states_needed = 0;
  const int changed = model_event(m);
  m->last_event_needed_more = m->discrete_states_needed != 0;
  info->newDiscreteStatesNeeded = m->discrete_states_needed != 0;
  info->terminateSimulation = m->terminate;
  info->nominalsOfContinuousStatesChanged = 0;
  info->valuesOfContinuousStatesChanged = changed;
  info->nextEventTimeDefined = m->next_defined;
  info->nextEventTime = m->next_time;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2EnterContinuousTimeMode", FMU_ME, IN(EVENT_MODE));
  if (m->last_event_needed_more) {
    fmu_fail(m, "fmi2EnterContinuousTimeMode",
             "the event iteration has not converged (the last fmi2NewDiscreteStates said "
             "newDiscreteStatesNeeded)");
    return fmi2Error;
  }
  m->state = FMU_CONTINUOUS_TIME_MODE;
  return fmi2OK;
}
EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_prior, fmi2Boolean* enter,
                                              fmi2Boolean* terminate) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  ALLOW("fmi2CompletedIntegratorStep", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  if (enter == NULL || terminate == NULL) {
    fmu_fail(m, "fmi2CompletedIntegratorStep", "NULL result arguments");
    return fmi2Error;
  }
  *enter = model_step_done(m);
  *terminate = m->terminate;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real t) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2SetTime", FMU_ME, IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE));
  if (!isfinite(t)) FAIL(m, "fmi2SetTime", "time %g", t);
  m->time = t;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2SetContinuousStates", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  if (!sized(m, "fmi2SetContinuousStates", x, n, model_nx, "states")) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->r[state_vr(k)] = x[k];
  return fmi2OK;
}
#ifndef FMU_OMIT_GET_DERIVATIVES
EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2GetDerivatives", FMU_ME, IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi2GetDerivatives", dx, n, model_nx, "derivatives")) return fmi2Error;
  const fmi2Status s = compute(m);
  if (s != fmi2OK) return s;
  for (size_t k = 0; k < n; ++k) dx[k] = m->r[der_vr(k)];
  return fmi2OK;
}
#endif
/* From Initialization Mode to Terminated (stepComplete in Co-Simulation); fmu_partials.h checks the rest. */
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference unknowns[],
                                               size_t n_unknowns, const fmi2ValueReference knowns[],
                                               size_t n_knowns, const fmi2Real seed[],
                                               fmi2Real sensitivity[]) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2GetDirectionalDerivative", FMU_ANY,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(STEP_MODE) | IN(TERMINATED));
  const fmi2Status s = compute(m);
  if (s != fmi2OK) return s;
  return fmu_directional(m, "fmi2GetDirectionalDerivative", unknowns, n_unknowns, knowns, n_knowns, seed,
                         sensitivity)
             ? fmi2OK
             : fmi2Error;
}
EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2GetEventIndicators", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi2GetEventIndicators", z, n, model_nz, "event indicators")) return fmi2Error;
  if (n > 0) model_indicators(m, z);
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2GetContinuousStates", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi2GetContinuousStates", x, n, model_nx, "states")) return fmi2Error;
  for (size_t k = 0; k < n; ++k) x[k] = m->r[state_vr(k)];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi2GetNominalsOfContinuousStates", FMU_ME,
        IN(INSTANTIATED) | IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) |
            IN(TERMINATED));
  if (!sized(m, "fmi2GetNominalsOfContinuousStates", x, n, model_nx, "states")) return fmi2Error;
  for (size_t k = 0; k < n; ++k) x[k] = 1.0;
  return fmi2OK;
}

/* ---- Co-Simulation: Euler substeps; time events at their exact times. */

/* Whether communication point t is the FMU's time `now` (1e-12 relative). */
static int same_time(double t, double now) { return fabs(t - now) <= 1e-12 * fmax(fabs(t), fabs(now)); }

/* Two times for a message, with enough digits to tell them apart. */
static void two_times(double a, double b, char* ta, char* tb, size_t size) {
  snprintf(ta, size, "%.15g", a);
  snprintf(tb, size, "%.15g", b);
  if (strcmp(ta, tb) == 0) {
    snprintf(ta, size, "%.17g", a);
    snprintf(tb, size, "%.17g", b);
  }
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_prior) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  ALLOW("fmi2DoStep", FMU_CS, IN(STEP_MODE));
  if (!same_time(t, m->time)) {
    char ta[32], tb[32];
    two_times(t, m->time, ta, tb, sizeof ta);
    fmu_fail(m, "fmi2DoStep", "communication point %s is not the FMU's time %s", ta, tb);
    return fmi2Error;
  }
  if (!(h > 0) || !isfinite(h)) {
    fmu_fail(m, "fmi2DoStep", "communication step size %g is not > 0", h);
    return fmi2Error;
  }
  const double end = t + h;
  const int substeps = 100;
  m->state = FMU_STEP_IN_PROGRESS;
  m->time = t;
  for (int s = 0; s < substeps; ++s) {
    double t1 = t + h * (s + 1) / substeps;
    if (s + 1 == substeps) t1 = end;
    while (m->next_defined && m->next_time <= t1 + 1e-9 * (1 + fabs(t1))) { /* rounding of k * 0.1 */
      m->time = m->next_time;
      m->event_calls = 1;
      m->discrete_states_needed = 0;
      (void)model_event(m);
    }
    if (model_nx > 0) {
      if (model_compute(m) != fmi2OK) {
        report(m, fmi2Discard, "discard", m->message);
        m->state = FMU_STEP_FAILED;
        return fmi2Discard;
      }
      for (int k = 0; k < model_nx; ++k)
        m->r[state_vr((size_t)k)] += (t1 - m->time) * m->r[der_vr((size_t)k)];
    }
    m->time = t1;
  }
  if (model_compute(m) != fmi2OK) { /* the outputs at the step's end */
    report(m, fmi2Discard, "discard", m->message);
    m->state = FMU_STEP_FAILED;
    return fmi2Discard;
  }
  if (m->terminate) { /* fmi2GetBooleanStatus(fmi2Terminated) says why */
    m->state = FMU_STEP_FAILED;
    return fmi2Discard;
  }
  m->state = FMU_STEP_MODE;
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, int kind, fmi2Boolean* value) {
  ALLOW("fmi2GetBooleanStatus", FMU_CS, IN(STEP_MODE) | IN(STEP_FAILED) | IN(TERMINATED));
  if (kind != 3) return fmi2Discard; /* only fmi2Terminated */
  if (value == NULL) FAIL((Instance*)c, "fmi2GetBooleanStatus", "value NULL");
  *value = ((Instance*)c)->terminate;
  return fmi2OK;
}
EXPORT fmi2Status fmi2CancelStep(fmi2Component c) {
  ALLOW("fmi2CancelStep", FMU_CS, IN(STEP_IN_PROGRESS)); /* never: fmi2DoStep returns when done */
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetStatus(fmi2Component c, int kind, fmi2Status* s) {
  ALLOW("fmi2GetStatus", FMU_CS, IN(STEP_MODE) | IN(STEP_FAILED) | IN(TERMINATED));
  if (kind != 0) return fmi2Discard; /* only fmi2DoStepStatus */
  if (s == NULL) FAIL((Instance*)c, "fmi2GetStatus", "value NULL");
  *s = fmi2OK;
  return fmi2OK;
}
