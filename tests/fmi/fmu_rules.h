/* The rules of the FMI state machines (FMI 2.0 and 3.0) for the test FMUs
 * of tests/fmi/, shared by both runtimes (fmu_runtime.c, fmu_runtime3.c,
 * fmu_clocks3.c), written from the specifications' text.
 *
 * At instantiation the runtime reads its own modelDescription.xml (beside
 * the resource folder the importer names: FMI 2 a file:// URI,
 * percent-decoded; FMI 3 a path) with a small line-based parser into a
 * table of variables: name, value reference, type, causality, variability,
 * initial (with the standard's defaults), whether it is a continuous-time
 * state, its number of elements (FMI 3 arrays: the product of its
 * <Dimension start="N"/> sizes; only fixed sizes) and its start values
 * (FMI 2 the type element's start; FMI 3 the start attribute, one
 * blank-separated value per element, or for String and Binary one
 * <Start value="..."/> child per element, Binary in hex). A variable
 * element may span lines (its children on their own lines) or be on one
 * (<Float64 ... start="1 0 1"><Dimension start="3"/></Float64>); every
 * other element of interest is on one line. Each variable gets its slots
 * in the instance's arrays (FmuStorage), and the runtime gives every
 * variable its start values at instantiation and reset (fmu_reset). FMI 3
 * continuous states are the variables the derivatives listed by
 * <ContinuousStateDerivative> are of (in that order, element-wise; the
 * ModelVariables order of the variables with a derivative attribute when
 * the list is missing).
 * The interface elements' capability flags are read too
 * (canBeInstantiatedOnlyOncePerProcess, and canGetAndSetFMUstate and
 * canSerializeFMUstate, FMI 3 spelling them ...FMUState: fmu_state.h).
 * Then every call is checked against the instance's state (m->state) and
 * every value reference against the table: that it exists, has the
 * function's type, has slots in the instance's arrays, and (for Set) may be
 * set in this state. A refused call logs "<function>: <why>" with category
 * "error" through the importer's logger and puts the instance in the Error
 * state, where only FreeInstance and Reset are accepted. A description the
 * parser refuses (an unknown attribute value, start values that are no
 * values of the type or not one per element, FMI 3 variables sharing
 * slots) fails the instantiation, naming why. */
#ifndef CTDE_TEST_FMU_RULES_H
#define CTDE_TEST_FMU_RULES_H

#include <stddef.h>

#include "fmu_runtime.h"

/* Variable types: FMI 2's (Real, Integer, Boolean, String, Enumeration) and
 * FMI 3's (which share Boolean, String and Enumeration). */
typedef enum {
  FMU_REAL,
  FMU_INTEGER,
  FMU_BOOLEAN,
  FMU_STRING,
  FMU_ENUMERATION,
  FMU_FLOAT32,
  FMU_FLOAT64,
  FMU_INT8,
  FMU_UINT8,
  FMU_INT16,
  FMU_UINT16,
  FMU_INT32,
  FMU_UINT32,
  FMU_INT64,
  FMU_UINT64,
  FMU_BINARY,
  FMU_CLOCK,
  FMU_TYPE_COUNT
} FmuType;
#define FMU_TYPE(t) (1u << (t))

typedef enum {
  FMU_PARAMETER,
  FMU_CALCULATED_PARAMETER,
  FMU_INPUT,
  FMU_OUTPUT,
  FMU_LOCAL,
  FMU_INDEPENDENT,
  FMU_STRUCTURAL_PARAMETER
} FmuCausality;
typedef enum { FMU_CONSTANT, FMU_FIXED, FMU_TUNABLE, FMU_DISCRETE, FMU_CONTINUOUS } FmuVariability;
typedef enum { FMU_EXACT, FMU_APPROX, FMU_CALCULATED, FMU_NO_INITIAL } FmuInitial;

/* The instance's arrays (fmu_runtime.h) that hold variables' values. */
typedef enum {
  FMU_STORE_NONE, /* none: FMI 3's independent variable (the FMU's time) */
  FMU_STORE_R,    /* m->r: FMI 2 Real, FMI 3 Float64 */
  FMU_STORE_I,    /* m->i: FMI 2 Integer, Enumeration, Boolean; FMI 3 Int32, Enumeration, Boolean, Clock */
  FMU_STORE_F32,  /* m->f32: FMI 3 Float32 */
  FMU_STORE_I64,  /* m->i64: FMI 3 Int8, UInt8, Int16, UInt16, UInt32, Int64 */
  FMU_STORE_U64,  /* m->u64: FMI 3 UInt64 */
  FMU_STORE_S,    /* m->s: String */
  FMU_STORE_BIN   /* m->bin, m->bin_size: FMI 3 Binary */
} FmuStorage;

#define FMU_MAX_START_TEXT 256
typedef struct {
  unsigned int vr;
  int type;                      /* FmuType */
  int causality;                 /* FmuCausality */
  int variability;               /* FmuVariability */
  int initial;                   /* FmuInitial: the default when the XML has none (inputs: exact) */
  int index;                     /* 1-based position in <ModelVariables> */
  long derivative;               /* of the state (FMI 2: its index; FMI 3: its value reference), or -1 */
  int is_state;                  /* a continuous-time state: some variable is its derivative */
  int reinit;                    /* FMI 3: reinit="true" */
  int can_be_deactivated;        /* FMI 3 clocks: canBeDeactivated="true" */
  char interval_variability[16]; /* FMI 3 clocks: constant, fixed, tunable, changing, countdown, triggered */
  char name[64];
  size_t elements; /* 1, or an FMI 3 array's number of elements */
  int storage;     /* FmuStorage */
  int slot;        /* the first element's index in the storage's array (the others follow), or -1 when the
                      variable does not fit there (or has no storage) */
  int n_starts;    /* start values: 0 or `elements` */
  char starts[FMU_MAX_START_TEXT]; /* their texts, one after the other, each NUL-terminated */
} FmuVar;

#define FMU_MAX_DESCRIBED 64
typedef struct FmuDescription {
  int fmi3;
  int model_exchange;   /* a <ModelExchange> element */
  int co_simulation;    /* a <CoSimulation> element */
  int once_per_process; /* canBeInstantiatedOnlyOncePerProcess="true" */
  /* Per interface (0 <ModelExchange>, 1 <CoSimulation>): canGetAndSetFMUstate
   * and canSerializeFMUstate (FMI 3: canGetAndSetFMUState,
   * canSerializeFMUState) say "true" (the FMU-state functions, fmu_state.h). */
  int can_get_and_set_state[2];
  int can_serialize_state[2];
  /* Per interface: providesDirectionalDerivative (FMI 3: providesDirectionalDerivatives)
   * says "true" (fmu_partials.h). */
  int provides_directional[2];
  int n;
  FmuVar vars[FMU_MAX_DESCRIBED];
  /* FMI 3: the continuous states, element-wise, in the order of the
   * <ContinuousStateDerivative> elements: element k is m->r[state_slot[k]],
   * its derivative m->r[der_slot[k]]. (FMI 2 uses state_vr and der_vr.) */
  int nx;
  int state_slot[FMU_MAX_VARS];
  int der_slot[FMU_MAX_VARS];
} FmuDescription;

/* Instantiation: the description beside `resources` (FMI 2: a file URI;
 * FMI 3: a path), for an instance of the interface `co_simulation` (0 ME,
 * 1 CS) that the description must declare, and not a second live instance
 * when the description says canBeInstantiatedOnlyOncePerProcess. NULL with
 * `why` (naming the path when it cannot be read) when refused. */
FmuDescription* fmu_open(const char* resources, int fmi3, int co_simulation, char* why, size_t why_size);
/* fmi2FreeInstance / fmi3FreeInstance: the instance's description, and it no longer counts as live. */
void fmu_close(Instance* m);
/* Instantiation and Reset: back to Instantiated with the start values
 * (every variable's from the description, then model_defaults). */
void fmu_reset(Instance* m);

/* The interfaces a function belongs to. */
enum { FMU_ANY, FMU_ME, FMU_CS };
#define FMU_IN(state) (1u << (state))

/* Logs `fn: <formatted>` as an error and puts the instance in the Error
 * state; returns 0. */
int fmu_fail(Instance* m, const char* fn, const char* format, ...) __attribute__((format(printf, 3, 4)));
/* Whether `fn` (of interface FMU_ANY, FMU_ME or FMU_CS) may be called in
 * the instance's state, one of the FMU_IN() bits of `states`: 1, or 0
 * after fmu_fail. NULL instances are refused (without a log). */
int fmu_allow(Instance* m, const char* fn, int interface, unsigned states);
/* The name of the instance's state, as in messages ("Event Mode"). */
const char* fmu_state_name(const Instance* m);

/* fmi2Get<Type> / fmi2Set<Type> / fmi3Get<Type> / fmi3Set<Type> with the
 * value references vr[0..n-1], of the types `types` (FMU_TYPE bits): the
 * call is allowed in this state, every reference is a variable of one of
 * these types with slots in the instance's arrays (or FMI 3's independent
 * variable), and with `set` every variable may be set now. 1, or 0 after
 * fmu_fail. */
int fmu_access(Instance* m, const char* fn, int set, unsigned types, const unsigned int vr[], size_t n);
/* The variable with value reference `vr` and one of the types `types`, or NULL. */
const FmuVar* fmu_variable(const Instance* m, unsigned int vr, unsigned types);
/* Whether variable `v` may be set in the instance's state. */
int fmu_may_set(const Instance* m, const FmuVar* v);

#endif
