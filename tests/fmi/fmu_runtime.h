/* The FMU side of FMI 2.0 for the test FMUs of tests/fmi/: our own C
 * declarations of the types the standard defines (written from the FMI 2.0
 * specification, as actors/fmi/fmi2_api.hpp on the importer's side) and the
 * interface between the generic runtimes (fmu_runtime.c and fmu_runtime3.c,
 * which export the fmi2 / fmi3 functions) and one model (ball.c,
 * stair.c...). The runtimes follow the FMI state machine (fmu_rules.h): the
 * model sees the instance's state in m->state. The instance keeps the
 * variables in one array per kind of value (r, i, f32, i64, u64, s, bin),
 * an array variable's N elements in N consecutive slots; which value
 * references go where is below. */
#ifndef CTDE_TEST_FMU_RUNTIME_H
#define CTDE_TEST_FMU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

typedef void* fmi2Component;
typedef void* fmi2ComponentEnvironment;
typedef void* fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char* fmi2String;
typedef char fmi2Byte;

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

typedef struct {
  void (*logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
  void* (*allocateMemory)(size_t, size_t);
  void (*freeMemory)(void*);
  void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* The states of the FMI state machine an instance is in (m->state).
 * FMU_STEP_MODE is FMI 2's stepComplete and FMI 3's Step Mode;
 * FMU_STEP_IN_PROGRESS is the state inside fmi2DoStep / fmi3DoStep (a model
 * computes its discrete outputs of a Co-Simulation step then);
 * FMU_STEP_FAILED is FMI 2's stepFailed (after fmi2DoStep returned
 * fmi2Discard); FMU_ERROR follows any call that returned an error. */
typedef enum {
  FMU_INSTANTIATED,
  FMU_INITIALIZATION_MODE,
  FMU_EVENT_MODE,
  FMU_CONTINUOUS_TIME_MODE,
  FMU_STEP_MODE,
  FMU_STEP_IN_PROGRESS,
  FMU_STEP_FAILED,
  FMU_TERMINATED,
  FMU_ERROR
} FmuState;

struct FmuDescription; /* fmu_rules.h */

/* One instance: variables by value reference, one array per kind of
 * value, FMU_MAX_VARS slots each (element j of an array variable is the
 * slot after element j - 1; fmu_rules.c maps value
 * references to slots: FMI 2 Real r[vr], Integer, Enumeration and Boolean
 * i[vr], String s[vr]; FMI 3 Float64 r[vr], Int32, Boolean, Enumeration
 * and Clock i[vr - 100], Float32 f32[vr - 200], Int8, UInt8, Int16,
 * UInt16, UInt32 and Int64 i64[vr - 300], UInt64 u64[vr - 400], String
 * s[vr - 500], Binary bin[vr - 600] of bin_size[vr - 600] bytes). */
#define FMU_MAX_VARS 16
#define FMU_MAX_STRING 63 /* characters of a String value (without its NUL) */
#define FMU_MAX_BINARY 64 /* bytes of a Binary value */
typedef struct {
  double time;
  double r[FMU_MAX_VARS];                    /* Real / Float64 variables */
  int i[FMU_MAX_VARS];                       /* Integer, Int32, Enumeration, Boolean and Clock variables */
  float f32[FMU_MAX_VARS];                   /* FMI 3 Float32 */
  int64_t i64[FMU_MAX_VARS];                 /* FMI 3 Int8, UInt8, Int16, UInt16, UInt32, Int64 */
  uint64_t u64[FMU_MAX_VARS];                /* FMI 3 UInt64 */
  char s[FMU_MAX_VARS][FMU_MAX_STRING + 1];  /* String, NUL-terminated */
  uint8_t bin[FMU_MAX_VARS][FMU_MAX_BINARY]; /* FMI 3 Binary */
  size_t bin_size[FMU_MAX_VARS];             /* its size in bytes */
  int next_defined;                          /* a time event is due at next_time */
  double next_time;
  int terminate;     /* the model asks to end the run */
  int type;          /* fmi2Type */
  char message[256]; /* what the model wants logged with an error or discard */
  fmi2CallbackFunctions cb;
  void* env3; /* FMI 3: the importer's environment and log callback */
  void (*log3)(void*, int, const char*, const char*);
  char name[64];
  /* The runtime's (fmu_rules.h): */
  int state;       /* FmuState */
  int event_calls; /* fmi2NewDiscreteStates / fmi3UpdateDiscreteStates calls in this Event Mode, counting
                      the current one (model_event sees 1 at the first) */
  int discrete_states_needed;  /* model_event sets it to ask for another event iteration */
  int last_event_needed_more;  /* the last event iteration asked for another */
  double start_time;           /* of the experiment */
  int setup_done;              /* FMI 2: fmi2SetupExperiment was called */
  double event_time;           /* FMI 3: the time of the last Event Mode (fmi3SetTime may not go before) */
  double step_times[2];        /* FMI 3: the times of the last two fmi3CompletedIntegratorStep calls */
  int steps_completed;         /* FMI 3: fmi3CompletedIntegratorStep calls since Continuous-Time Mode began */
  struct FmuDescription* desc; /* the variables of modelDescription.xml */
} Instance;

/* FMI 2: the Real value references of continuous state k and of its
 * derivative: every FMI 2 model lays its states out as 0, 2, 4..., each
 * followed by its derivative. (FMI 3 takes the states from the description:
 * the variables the <ContinuousStateDerivative> elements' derivatives are
 * of, element-wise; fmu_rules.h.) (The GUID is FMU_GUID, defined for each
 * FMU by CMake.) */
static inline size_t state_vr(size_t k) { return 2 * k; }
static inline size_t der_vr(size_t k) { return 2 * k + 1; }

/* What each model defines. */
extern const int model_nx; /* continuous states (array elements count) */
extern const int model_nz; /* event indicators */
/* Start values, after the runtime gave every variable its start from the
 * description (fmu_reset): the model's other values. */
void model_defaults(Instance* m);
void model_initialize(Instance* m); /* at fmi2ExitInitializationMode */
/* Derivatives and outputs from time, states and inputs: fmi2OK, or
 * fmi2Discard with m->message set. */
fmi2Status model_compute(Instance* m);
/* The three hooks below are optional: a model without events leaves them
 * to the weak defaults of fmu_model_defaults.c (no indicators, nothing to
 * update, no event asked for). */
void model_indicators(Instance* m, double* z);
/* An event at m->time (fmi2NewDiscreteStates / fmi3UpdateDiscreteStates
 * in Event Mode, and time events inside a Co-Simulation step): update the
 * discrete state (and states); return 1 when the continuous states
 * changed. Setting m->discrete_states_needed asks for another iteration. */
int model_event(Instance* m);
/* After an accepted integrator step: 1 asks for an event. */
int model_step_done(Instance* m);

/* Optional (a weak symbol: null in a model without it): the partial
 * derivative of the Real unknown `unknown` (a state derivative or an
 * output) with respect to the Real known `known` (a state or an input) at
 * the values computed last, by value reference; the directional derivatives
 * of fmu_partials.h are made of them. */
double model_partial(Instance* m, unsigned int unknown, unsigned int known) __attribute__((weak));

/* Defined by the runtime: a message through the importer's logger
 * (status 0 OK, 1 Warning... as fmi2Status and fmi3Status). */
void model_log(Instance* m, int status, const char* category, const char* text);

#endif
