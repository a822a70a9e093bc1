/* The generic FMU of fmu_runtime.c for FMI 3.0 (Model Exchange, and
 * Co-Simulation without event mode): the same models (ball.c, stair.c...)
 * behind the FMI 3.0 functions, declared here from the FMI 3.0
 * specification (our own declarations), as strict as the standard
 * (fmu_rules.h): it reads its modelDescription.xml at instantiation (beside
 * the resource folder, a path; instantiation fails, naming the path, when
 * it cannot) and refuses, with fmi3Error and an "error" log line
 * "<function>: <why>" through the log callback, every call the FMI 3.0
 * state machine forbids:
 *   - a function in a state that does not allow it
 *     (fmi3EnterInitializationMode only in Instantiated;
 *     fmi3ExitInitializationMode only in Initialization Mode, to Event Mode
 *     (ME) or Step Mode (CS); fmi3EnterEventMode, fmi3SetTime,
 *     fmi3SetContinuousStates and fmi3CompletedIntegratorStep only in
 *     Continuous-Time Mode; fmi3UpdateDiscreteStates in Event Mode;
 *     fmi3EnterContinuousTimeMode in Event Mode after at least one
 *     fmi3UpdateDiscreteStates, the last saying discreteStatesNeedUpdate
 *     false; fmi3GetContinuousStateDerivatives, fmi3GetEventIndicators,
 *     fmi3GetContinuousStates and fmi3GetNominalsOfContinuousStates in
 *     Initialization, Event, Continuous-Time Mode and Terminated;
 *     fmi3Get<Type> from Instantiated to Terminated; fmi3Terminate from
 *     Event, Continuous-Time or Step Mode; fmi3DoStep in Step Mode; the
 *     clock functions as fmu_clocks3.c says);
 *   - a Model Exchange function on a Co-Simulation instance or the
 *     reverse, an instance of an interface the XML does not declare, and
 *     eventModeUsed (this FMU has no event mode in Co-Simulation);
 *   - a value reference that is no variable, or a variable of another type
 *     (fmi3GetInt64 and fmi3SetInt64 serve Int64 and Enumeration
 *     variables), or without slots in the runtime's arrays (below), a
 *     variable fmi3Set<Type> may not set in the state (by its causality,
 *     variability and initial: fmu_may_set; continuous-time states in Event
 *     and Continuous-Time Mode too), nValues other than the number of the
 *     variables' elements (an array variable counts its elements), a NULL
 *     values array (or valueSizes) for values, a NULL string or one longer
 *     than FMU_MAX_STRING (63) characters for fmi3SetString, a NULL binary
 *     or one longer than FMU_MAX_BINARY (64) bytes for fmi3SetBinary, and
 *     an Enumeration value beyond 32 bits;
 *   - array sizes that are not the model's numbers of states (the sum of
 *     the elements of the states) and event indicators;
 *   - fmi3SetTime before the start time, the last Event Mode or the second
 *     last fmi3CompletedIntegratorStep;
 *   - fmi3DoStep at a communication point that is not the FMU's time (the
 *     start time, then the end of the last step, within 1e-12 relative) or
 *     with a step size <= 0;
 *   - a second live instance when the XML says
 *     canBeInstantiatedOnlyOncePerProcess="true", and (at instantiation) a
 *     description whose continuous states do not have the model's model_nx
 *     elements, or that fmu_rules.c refuses (fmu_rules.h).
 * After an error the instance is in the Error state: only fmi3FreeInstance
 * and fmi3Reset are accepted.
 * Every variable type has its fmi3Get<Type> and fmi3Set<Type>: Float64,
 * Float32, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64 (and
 * Enumeration), UInt64, Boolean, String, Binary (and the clock functions
 * in fmu_clocks3.c). Value references, and where the model finds the
 * values (fmu_runtime.h; each range holds FMU_MAX_VARS = 16 slots; element
 * j of an array variable of value reference vr is in the slot of vr + j,
 * and no two variables may share a slot):
 *   Float64                              0..15    r[vr] (the independent
 *                                                 variable: any value
 *                                                 reference, the FMU's time)
 *   Int32, Boolean, Enumeration, Clock   100..115 i[vr - 100]
 *   Float32                              200..215 f32[vr - 200]
 *   Int8, UInt8, Int16, UInt16, UInt32,  300..315 i64[vr - 300]
 *   Int64
 *   UInt64                               400..415 u64[vr - 400]
 *   String                               500..515 s[vr - 500] (up to 63
 *                                                 characters)
 *   Binary                               600..615 bin[vr - 600] and its size
 *                                                 bin_size[vr - 600] (up to
 *                                                 64 bytes)
 * The variables start with the description's start values (arrays: one per
 * element), then the model's model_defaults. fmi3GetString and
 * fmi3GetBinary return pointers into the instance, valid while it lives,
 * whose contents change with the variables (the standard asks the importer
 * to copy them before its next call). The
 * continuous states are the description's (fmu_rules.h): element-wise, in
 * the order of <ContinuousStateDerivative>, so an array state of N
 * elements is N of them. The FMU-state functions (fmi3GetFMUState ...
 * fmi3DeserializeFMUState) work when the description declares
 * canGetAndSetFMUState (and canSerializeFMUState) and refuse otherwise
 * (fmu_state.h). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_partials.h"
#include "fmu_rules.h"
#include "fmu_runtime.h"
#include "fmu_state.h"

#define EXPORT __attribute__((visibility("default")))

typedef unsigned int fmi3ValueReference;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(void* env, fmi3Status status, const char* category,
                                       const char* message);

static void report3(Instance* m, fmi3Status status, const char* category, const char* text) {
  if (m->log3 != NULL) m->log3(m->env3, (int)status, category, text);
}

void model_log(Instance* m, int status, const char* category, const char* text) {
  report3(m, (fmi3Status)status, category, text);
}

#define IN(s) FMU_IN(FMU_##s)
/* Returns fmi3Error from the function unless `fn` is allowed now. */
#define ALLOW(fn, interface, states)                                       \
  do {                                                                     \
    if (!fmu_allow((Instance*)c, fn, interface, states)) return fmi3Error; \
  } while (0)
/* Returns fmi3Error from the function after fmu_fail. */
#define FAIL(m, fn, ...)          \
  do {                            \
    fmu_fail(m, fn, __VA_ARGS__); \
    return fmi3Error;             \
  } while (0)

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

static void* instantiate(const char* fn, const char* name, const char* token, const char* resources,
                         int co_simulation, void* env, fmi3LogMessageCallback log) {
  char text[1200];
  if (name == NULL) name = "";
  if (token == NULL || strcmp(token, FMU_GUID) != 0) {
    snprintf(text, sizeof text, "wrong instantiation token %s, expected %s", token == NULL ? "(null)" : token,
             FMU_GUID);
    if (log != NULL) log(env, fmi3Error, "error", text);
    return NULL;
  }
  char why[1024];
  FmuDescription* desc = fmu_open(resources, 1, co_simulation, why, sizeof why);
  if (desc != NULL && desc->nx != model_nx) {
    snprintf(why, sizeof why, "the model description has %d continuous-state elements, the model %d",
             desc->nx, model_nx);
    Instance closing = {.desc = desc};
    fmu_close(&closing);
    desc = NULL;
  }
  if (desc == NULL) {
    snprintf(text, sizeof text, "%s: %s", fn, why);
    if (log != NULL) log(env, fmi3Error, "error", text);
    return NULL;
  }
  Instance* m = (Instance*)calloc(1, sizeof(Instance));
  if (m == NULL) {
    free(desc);
    return NULL;
  }
  m->env3 = env;
  m->log3 = (void (*)(void*, int, const char*, const char*))log;
  m->type = co_simulation;
  m->desc = desc;
  snprintf(m->name, sizeof m->name, "%s", name);
  fmu_reset(m);
  return m;
}

EXPORT void* fmi3InstantiateModelExchange(const char* name, const char* token, const char* resources,
                                          bool visible, bool logging, void* env, fmi3LogMessageCallback log) {
  (void)visible;
  (void)logging;
  return instantiate("fmi3InstantiateModelExchange", name, token, resources, 0, env, log);
}
EXPORT void fmi3FreeInstance(void* c) {
  if (c == NULL) return;
  fmu_close((Instance*)c);
  free(c);
}
EXPORT fmi3Status fmi3Reset(void* c) {
  if (c == NULL) return fmi3Error;
  fmu_reset((Instance*)c);
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterInitializationMode(void* c, bool tol_defined, double tol, double start,
                                              bool stop_defined, double stop) {
  Instance* m = (Instance*)c;
  (void)tol_defined;
  (void)tol;
  ALLOW("fmi3EnterInitializationMode", FMU_ANY, IN(INSTANTIATED));
  if (!isfinite(start)) FAIL(m, "fmi3EnterInitializationMode", "start time %g", start);
  if (stop_defined && !(stop >= start)) {
    FAIL(m, "fmi3EnterInitializationMode", "stop time %g is before the start time %g", stop, start);
  }
  m->start_time = start;
  m->time = start;
  m->state = FMU_INITIALIZATION_MODE;
  return fmi3OK;
}
EXPORT fmi3Status fmi3ExitInitializationMode(void* c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3ExitInitializationMode", FMU_ANY, IN(INITIALIZATION_MODE));
  model_initialize(m);
  m->event_calls = 0;
  m->last_event_needed_more = 0;
  m->event_time = m->time;
  m->state = m->type == 1 ? FMU_STEP_MODE : FMU_EVENT_MODE;
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterEventMode(void* c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3EnterEventMode", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  m->event_calls = 0;
  m->last_event_needed_more = 0;
  m->event_time = m->time;
  m->state = FMU_EVENT_MODE;
  return fmi3OK;
}
EXPORT fmi3Status fmi3Terminate(void* c) {
  ALLOW("fmi3Terminate", FMU_ANY, IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(STEP_MODE));
  ((Instance*)c)->state = FMU_TERMINATED;
  return fmi3OK;
}

/* ---- The FMU state (fmu_state.h) */
EXPORT fmi3Status fmi3GetFMUState(void* c, void** state) {
  return fmu_get_state((Instance*)c, "fmi3GetFMUState", state) ? fmi3OK : fmi3Error;
}
EXPORT fmi3Status fmi3SetFMUState(void* c, void* state) {
  return fmu_set_state((Instance*)c, "fmi3SetFMUState", state) ? fmi3OK : fmi3Error;
}
EXPORT fmi3Status fmi3FreeFMUState(void* c, void** state) {
  return fmu_free_state((Instance*)c, "fmi3FreeFMUState", state) ? fmi3OK : fmi3Error;
}
EXPORT fmi3Status fmi3SerializedFMUStateSize(void* c, void* state, size_t* size) {
  return fmu_serialized_state_size((Instance*)c, "fmi3SerializedFMUStateSize", state, size) ? fmi3OK
                                                                                            : fmi3Error;
}
EXPORT fmi3Status fmi3SerializeFMUState(void* c, void* state, uint8_t bytes[], size_t size) {
  return fmu_serialize_state((Instance*)c, "fmi3SerializeFMUState", state, bytes, size) ? fmi3OK : fmi3Error;
}
EXPORT fmi3Status fmi3DeserializeFMUState(void* c, const uint8_t bytes[], size_t size, void** state) {
  return fmu_deserialize_state((Instance*)c, "fmi3DeserializeFMUState", bytes, size, state) ? fmi3OK
                                                                                            : fmi3Error;
}

/* ---- Variables: each in the instance's array of its kind (fmu_runtime.h,
 * FmuStorage), element j of an array in the slot after element j - 1. */
typedef const char* fmi3String;
typedef const uint8_t* fmi3Binary;

#define FLOAT64 FMU_TYPE(FMU_FLOAT64)
#define FLOAT32 FMU_TYPE(FMU_FLOAT32)
#define INT32 FMU_TYPE(FMU_INT32)
#define BOOLEAN FMU_TYPE(FMU_BOOLEAN)
#define INT64 (FMU_TYPE(FMU_INT64) | FMU_TYPE(FMU_ENUMERATION))
#define UINT64 FMU_TYPE(FMU_UINT64)
#define STRING FMU_TYPE(FMU_STRING)
#define BINARY FMU_TYPE(FMU_BINARY)

/* fmu_access (the variables exist, have these types and slots, may be set),
 * then nValues the number of the variables' elements (an array's count
 * each) and a values array for them. */
static int access3(Instance* m, const char* fn, int set, unsigned types, const fmi3ValueReference vr[],
                   size_t n, const void* values, size_t n_values) {
  if (!fmu_access(m, fn, set, types, vr, n)) return 0;
  size_t elements = 0;
  for (size_t k = 0; k < n; ++k) elements += fmu_variable(m, vr[k], types)->elements;
  if (n_values != elements) {
    return fmu_fail(m, fn, "nValues is %zu, but the %zu value references have %zu elements", n_values, n,
                    elements);
  }
  if (n_values > 0 && values == NULL) return fmu_fail(m, fn, "no values (NULL) for %zu values", n_values);
  return 1;
}

/* For each element of the variables vr[0..n-1] (access3 checked them):
 * `var` its variable, `e` its index in the values, `at` its slot in the
 * array of the variable's kind. */
#define EACH_ELEMENT(types)                                                          \
  for (size_t k = 0, e = 0; k < n; ++k)                                              \
    for (const FmuVar* var = fmu_variable(m, vr[k], types); var != NULL; var = NULL) \
      for (size_t j = 0, at = (size_t)var->slot; j < var->elements; ++j, ++e, ++at)

/* Outputs computed from states and inputs (not in Instantiated, where Get returns start values). */
static fmi3Status compute(Instance* m) {
  if (m->state == FMU_INSTANTIATED) return fmi3OK;
  if (model_compute(m) != fmi2OK) {
    report3(m, fmi3Discard, "discard", m->message);
    return fmi3Discard;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(void* c, const fmi3ValueReference vr[], size_t n, double v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetFloat64", 0, FLOAT64, vr, n, v, nv)) return fmi3Error;
  const fmi3Status s = compute(m);
  if (s != fmi3OK) return s;
  EACH_ELEMENT(FLOAT64) v[e] = var->causality == FMU_INDEPENDENT ? m->time : m->r[at];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetFloat32(void* c, const fmi3ValueReference vr[], size_t n, float v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetFloat32", 0, FLOAT32, vr, n, v, nv)) return fmi3Error;
  const fmi3Status s = compute(m);
  if (s != fmi3OK) return s;
  EACH_ELEMENT(FLOAT32) v[e] = m->f32[at];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetInt32(void* c, const fmi3ValueReference vr[], size_t n, int32_t v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetInt32", 0, INT32, vr, n, v, nv)) return fmi3Error;
  (void)compute(m);
  EACH_ELEMENT(INT32) v[e] = m->i[at];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetInt64(void* c, const fmi3ValueReference vr[], size_t n, int64_t v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetInt64", 0, INT64, vr, n, v, nv)) return fmi3Error;
  (void)compute(m);
  EACH_ELEMENT(INT64) v[e] = var->type == FMU_ENUMERATION ? m->i[at] : m->i64[at];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetUInt64(void* c, const fmi3ValueReference vr[], size_t n, uint64_t v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetUInt64", 0, UINT64, vr, n, v, nv)) return fmi3Error;
  (void)compute(m);
  EACH_ELEMENT(UINT64) v[e] = m->u64[at];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetBoolean(void* c, const fmi3ValueReference vr[], size_t n, bool v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetBoolean", 0, BOOLEAN, vr, n, v, nv)) return fmi3Error;
  (void)compute(m);
  EACH_ELEMENT(BOOLEAN) v[e] = m->i[at] != 0;
  return fmi3OK;
}
/* Pointers into the instance, valid while it lives; their contents change with the variables. */
EXPORT fmi3Status fmi3GetString(void* c, const fmi3ValueReference vr[], size_t n, fmi3String v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetString", 0, STRING, vr, n, v, nv)) return fmi3Error;
  (void)compute(m);
  EACH_ELEMENT(STRING) v[e] = m->s[at];
  return fmi3OK;
}
/* Pointers into the instance, as fmi3GetString's strings. */
EXPORT fmi3Status fmi3GetBinary(void* c, const fmi3ValueReference vr[], size_t n, size_t sizes[],
                                fmi3Binary v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3GetBinary", 0, BINARY, vr, n, v, nv)) return fmi3Error;
  if (nv > 0 && sizes == NULL) {
    fmu_fail(m, "fmi3GetBinary", "no valueSizes (NULL) for %zu values", nv);
    return fmi3Error;
  }
  (void)compute(m);
  EACH_ELEMENT(BINARY) {
    sizes[e] = m->bin_size[at];
    v[e] = m->bin[at];
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetFloat64(void* c, const fmi3ValueReference vr[], size_t n, const double v[],
                                 size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetFloat64", 1, FLOAT64, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(FLOAT64) m->r[at] = v[e];
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetFloat32(void* c, const fmi3ValueReference vr[], size_t n, const float v[],
                                 size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetFloat32", 1, FLOAT32, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(FLOAT32) m->f32[at] = v[e];
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetInt32(void* c, const fmi3ValueReference vr[], size_t n, const int32_t v[],
                               size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetInt32", 1, INT32, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(INT32) m->i[at] = v[e];
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetInt64(void* c, const fmi3ValueReference vr[], size_t n, const int64_t v[],
                               size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetInt64", 1, INT64, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(INT64) {
    if (var->type == FMU_ENUMERATION && (v[e] < INT32_MIN || v[e] > INT32_MAX)) {
      FAIL(m, "fmi3SetInt64", "value %lld of Enumeration variable %u is beyond this runtime's 32 bits",
           (long long)v[e], vr[k]);
    }
  }
  EACH_ELEMENT(INT64) {
    if (var->type == FMU_ENUMERATION) {
      m->i[at] = (int)v[e];
    } else {
      m->i64[at] = v[e];
    }
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetUInt64(void* c, const fmi3ValueReference vr[], size_t n, const uint64_t v[],
                                size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetUInt64", 1, UINT64, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(UINT64) m->u64[at] = v[e];
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetBoolean(void* c, const fmi3ValueReference vr[], size_t n, const bool v[],
                                 size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetBoolean", 1, BOOLEAN, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(BOOLEAN) m->i[at] = v[e] ? 1 : 0;
  return fmi3OK;
}
/* Copies the strings (of up to FMU_MAX_STRING characters). */
EXPORT fmi3Status fmi3SetString(void* c, const fmi3ValueReference vr[], size_t n, const fmi3String v[],
                                size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetString", 1, STRING, vr, n, v, nv)) return fmi3Error;
  EACH_ELEMENT(STRING) {
    if (v[e] == NULL) FAIL(m, "fmi3SetString", "value %zu (of variable %u) is NULL", e, vr[k]);
    if (strlen(v[e]) > FMU_MAX_STRING) {
      FAIL(m, "fmi3SetString", "value %zu (of variable %u) has %zu characters, more than this runtime's %d",
           e, vr[k], strlen(v[e]), FMU_MAX_STRING);
    }
  }
  EACH_ELEMENT(STRING) memmove(m->s[at], v[e], strlen(v[e]) + 1);
  return fmi3OK;
}
/* Copies the values (of up to FMU_MAX_BINARY bytes). */
EXPORT fmi3Status fmi3SetBinary(void* c, const fmi3ValueReference vr[], size_t n, const size_t sizes[],
                                const fmi3Binary v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (!access3(m, "fmi3SetBinary", 1, BINARY, vr, n, v, nv)) return fmi3Error;
  if (nv > 0 && sizes == NULL) FAIL(m, "fmi3SetBinary", "no valueSizes (NULL) for %zu values", nv);
  EACH_ELEMENT(BINARY) {
    if (sizes[e] > FMU_MAX_BINARY) {
      FAIL(m, "fmi3SetBinary", "value %zu (of variable %u) has %zu bytes, more than this runtime's %d", e,
           vr[k], sizes[e], FMU_MAX_BINARY);
    }
    if (sizes[e] > 0 && v[e] == NULL)
      FAIL(m, "fmi3SetBinary", "value %zu (of variable %u) is NULL", e, vr[k]);
  }
  EACH_ELEMENT(BINARY) {
    if (sizes[e] > 0) memmove(m->bin[at], v[e], sizes[e]);
    m->bin_size[at] = sizes[e];
  }
  return fmi3OK;
}

/* fmi3Get<Type> and fmi3Set<Type> of the integer types the instance holds
 * in m->i64 (their C types keep the values in range). */
#define INTEGER_ACCESSORS(Name, T, TYPE)                                                                \
  EXPORT fmi3Status fmi3Get##Name(void* c, const fmi3ValueReference vr[], size_t n, T v[], size_t nv) { \
    Instance* m = (Instance*)c;                                                                         \
    if (!access3(m, "fmi3Get" #Name, 0, FMU_TYPE(TYPE), vr, n, v, nv)) return fmi3Error;                \
    (void)compute(m);                                                                                   \
    EACH_ELEMENT(FMU_TYPE(TYPE)) v[e] = (T)m->i64[at];                                                  \
    return fmi3OK;                                                                                      \
  }                                                                                                     \
  EXPORT fmi3Status fmi3Set##Name(void* c, const fmi3ValueReference vr[], size_t n, const T v[],        \
                                  size_t nv) {                                                          \
    Instance* m = (Instance*)c;                                                                         \
    if (!access3(m, "fmi3Set" #Name, 1, FMU_TYPE(TYPE), vr, n, v, nv)) return fmi3Error;                \
    EACH_ELEMENT(FMU_TYPE(TYPE)) m->i64[at] = v[e];                                                     \
    return fmi3OK;                                                                                      \
  }
INTEGER_ACCESSORS(Int8, int8_t, FMU_INT8)
INTEGER_ACCESSORS(UInt8, uint8_t, FMU_UINT8)
INTEGER_ACCESSORS(Int16, int16_t, FMU_INT16)
INTEGER_ACCESSORS(UInt16, uint16_t, FMU_UINT16)
INTEGER_ACCESSORS(UInt32, uint32_t, FMU_UINT32)

/* ---- Model Exchange */

/* An array argument of `n` values where the model has `want`. */
static int sized(Instance* m, const char* fn, const void* array, size_t n, int want, const char* what) {
  if (n != (size_t)want) return fmu_fail(m, fn, "%zu %s, but the model has %d", n, what, want);
  if (n > 0 && array == NULL) return fmu_fail(m, fn, "a NULL array for %zu %s", n, what);
  return 1;
}

EXPORT fmi3Status fmi3UpdateDiscreteStates(void* c, bool* need_update, bool* terminate,
                                           bool* nominals_changed, bool* values_changed, bool* next_defined,
                                           double* next) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3UpdateDiscreteStates", FMU_ME, IN(EVENT_MODE));
  if (need_update == NULL || terminate == NULL || nominals_changed == NULL || values_changed == NULL ||
      next_defined == NULL || next == NULL) {
    FAIL(m, "fmi3UpdateDiscreteStates", "NULL result arguments");
  }
  ++m->event_calls;
  m->discrete_states_needed = 0;
  const int changed = model_event(m);
  m->last_event_needed_more = m->discrete_states_needed != 0;
  *need_update = m->discrete_states_needed != 0;
  *terminate = m->terminate != 0;
  *nominals_changed = false;
  *values_changed = changed != 0;
  *next_defined = m->next_defined != 0;
  *next = m->next_time;
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterContinuousTimeMode(void* c) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3EnterContinuousTimeMode", FMU_ME, IN(EVENT_MODE));
  if (m->event_calls == 0) {
    FAIL(m, "fmi3EnterContinuousTimeMode", "fmi3UpdateDiscreteStates was not called in this Event Mode");
  }
  if (m->last_event_needed_more) {
    FAIL(m, "fmi3EnterContinuousTimeMode",
         "the event iteration has not converged (the last fmi3UpdateDiscreteStates said "
         "discreteStatesNeedUpdate)");
  }
  m->steps_completed = 0;
  m->state = FMU_CONTINUOUS_TIME_MODE;
  return fmi3OK;
}
EXPORT fmi3Status fmi3CompletedIntegratorStep(void* c, bool no_prior, bool* enter, bool* terminate) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  ALLOW("fmi3CompletedIntegratorStep", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  if (enter == NULL || terminate == NULL) FAIL(m, "fmi3CompletedIntegratorStep", "NULL result arguments");
  m->step_times[0] = m->step_times[1];
  m->step_times[1] = m->time;
  ++m->steps_completed;
  *enter = model_step_done(m) != 0;
  *terminate = m->terminate != 0;
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetTime(void* c, double t) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3SetTime", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  if (!isfinite(t)) FAIL(m, "fmi3SetTime", "time %g", t);
  /* not before the start, the last Event Mode or the second last completed integrator step */
  double earliest = m->event_time > m->start_time ? m->event_time : m->start_time;
  const char* what = m->event_time > m->start_time ? "the last Event Mode" : "the start time";
  if (m->steps_completed >= 2 && m->step_times[0] > earliest) {
    earliest = m->step_times[0];
    what = "the second last fmi3CompletedIntegratorStep";
  }
  if (t < earliest - 1e-12 * fmax(fabs(t), fabs(earliest))) {
    FAIL(m, "fmi3SetTime", "time %.17g is before %s at %.17g", t, what, earliest);
  }
  m->time = t;
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetContinuousStates(void* c, const double x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3SetContinuousStates", FMU_ME, IN(CONTINUOUS_TIME_MODE));
  if (!sized(m, "fmi3SetContinuousStates", x, n, m->desc->nx, "states")) return fmi3Error;
  for (size_t k = 0; k < n; ++k) m->r[m->desc->state_slot[k]] = x[k];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStateDerivatives(void* c, double dx[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3GetContinuousStateDerivatives", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi3GetContinuousStateDerivatives", dx, n, m->desc->nx, "derivatives")) return fmi3Error;
  const fmi3Status s = compute(m);
  if (s != fmi3OK) return s;
  for (size_t k = 0; k < n; ++k) dx[k] = m->r[m->desc->der_slot[k]];
  return fmi3OK;
}
/* From Initialization Mode to Terminated (and Step Mode); nSeed and nSensitivity count
 * the knowns and the unknowns (scalar variables); fmu_partials.h checks the rest. */
EXPORT fmi3Status fmi3GetDirectionalDerivative(void* c, const unsigned int unknowns[], size_t n_unknowns,
                                               const unsigned int knowns[], size_t n_knowns,
                                               const double seed[], size_t n_seed, double sensitivity[],
                                               size_t n_sensitivity) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3GetDirectionalDerivative", FMU_ANY,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(STEP_MODE) | IN(TERMINATED));
  if (n_seed != n_knowns || n_sensitivity != n_unknowns) {
    fmu_fail(m, "fmi3GetDirectionalDerivative",
             "nSeed %zu and nSensitivity %zu, for %zu knowns and %zu unknowns", n_seed, n_sensitivity,
             n_knowns, n_unknowns);
    return fmi3Error;
  }
  const fmi3Status s = compute(m);
  if (s != fmi3OK) return s;
  return fmu_directional(m, "fmi3GetDirectionalDerivative", unknowns, n_unknowns, knowns, n_knowns, seed,
                         sensitivity)
             ? fmi3OK
             : fmi3Error;
}
EXPORT fmi3Status fmi3GetEventIndicators(void* c, double z[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3GetEventIndicators", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi3GetEventIndicators", z, n, model_nz, "event indicators")) return fmi3Error;
  if (n > 0) model_indicators(m, z);
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStates(void* c, double x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3GetContinuousStates", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi3GetContinuousStates", x, n, m->desc->nx, "states")) return fmi3Error;
  for (size_t k = 0; k < n; ++k) x[k] = m->r[m->desc->state_slot[k]];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(void* c, double x[], size_t n) {
  Instance* m = (Instance*)c;
  ALLOW("fmi3GetNominalsOfContinuousStates", FMU_ME,
        IN(INITIALIZATION_MODE) | IN(EVENT_MODE) | IN(CONTINUOUS_TIME_MODE) | IN(TERMINATED));
  if (!sized(m, "fmi3GetNominalsOfContinuousStates", x, n, m->desc->nx, "states")) return fmi3Error;
  for (size_t k = 0; k < n; ++k) x[k] = 1.0;
  return fmi3OK;
}

/* ---- Co-Simulation (without event mode): Euler substeps, time events at their times. */
EXPORT void* fmi3InstantiateCoSimulation(const char* name, const char* token, const char* resources,
                                         bool visible, bool logging, bool event_mode_used,
                                         bool early_return_allowed, const fmi3ValueReference required[],
                                         size_t n_required, void* env, fmi3LogMessageCallback log,
                                         void* intermediate_update) {
  (void)visible;
  (void)logging;
  (void)early_return_allowed;
  (void)required;
  (void)intermediate_update;
  if (event_mode_used || n_required > 0) {
    if (log != NULL) {
      log(env, fmi3Error, "error",
          event_mode_used ? "fmi3InstantiateCoSimulation: eventModeUsed, but this FMU has no event mode "
                            "(hasEventMode is not true)"
                          : "fmi3InstantiateCoSimulation: requiredIntermediateVariables, but this FMU has no "
                            "intermediate update");
    }
    return NULL;
  }
  return instantiate("fmi3InstantiateCoSimulation", name, token, resources, 1, env, log);
}

/* Whether communication point t is the FMU's time `now` (1e-12 relative). */
static int same_time(double t, double now) { return fabs(t - now) <= 1e-12 * fmax(fabs(t), fabs(now)); }

EXPORT fmi3Status fmi3DoStep(void* c, double t, double h, bool no_prior, bool* event_needed, bool* terminate,
                             bool* early_return, double* last_time) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  ALLOW("fmi3DoStep", FMU_CS, IN(STEP_MODE));
  if (event_needed == NULL || terminate == NULL || early_return == NULL || last_time == NULL) {
    FAIL(m, "fmi3DoStep", "NULL result arguments");
  }
  if (!same_time(t, m->time)) {
    char ta[32], tb[32];
    snprintf(ta, sizeof ta, "%.15g", t);
    snprintf(tb, sizeof tb, "%.15g", m->time);
    if (strcmp(ta, tb) == 0) {
      snprintf(ta, sizeof ta, "%.17g", t);
      snprintf(tb, sizeof tb, "%.17g", m->time);
    }
    FAIL(m, "fmi3DoStep", "communication point %s is not the FMU's time %s", ta, tb);
  }
  if (!(h > 0) || !isfinite(h)) FAIL(m, "fmi3DoStep", "communication step size %g is not > 0", h);
  const double end = t + h;
  const int substeps = 100;
  m->state = FMU_STEP_IN_PROGRESS;
  m->time = t;
  for (int s = 0; s < substeps && !m->terminate; ++s) {
    double t1 = s + 1 == substeps ? end : t + h * (s + 1) / substeps;
    while (m->next_defined && m->next_time <= t1 + 1e-9 * (1 + (t1 < 0 ? -t1 : t1)) && !m->terminate) {
      m->time = m->next_time;
      m->event_calls = 1;
      m->discrete_states_needed = 0;
      (void)model_event(m);
    }
    if (m->desc->nx > 0) {
      if (model_compute(m) != fmi2OK) {
        report3(m, fmi3Discard, "discard", m->message);
        m->state = FMU_STEP_MODE;
        return fmi3Discard;
      }
      for (int k = 0; k < m->desc->nx; ++k)
        m->r[m->desc->state_slot[k]] += (t1 - m->time) * m->r[m->desc->der_slot[k]];
    }
    m->time = t1;
  }
  const fmi2Status s = model_compute(m); /* the outputs at the step's end */
  m->state = FMU_STEP_MODE;
  if (s != fmi2OK) {
    report3(m, fmi3Discard, "discard", m->message);
    return fmi3Discard;
  }
  *event_needed = false;
  *terminate = m->terminate != 0;
  *early_return = false;
  *last_time = m->time;
  return fmi3OK;
}
