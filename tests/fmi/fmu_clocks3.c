/* FMI 3.0 clocks for the test FMUs of fmu_runtime3.c (linked beside it for
 * the clocked models: clocked.c, ball.c with FMU_IMPACT_CLOCK), declared
 * here from the FMI 3.0 specification (our own declarations). A clock is
 * the model's i[vr - 100], as an Int32 variable: 1 active, 0 inactive. The
 * importer sets input clocks; the model computes its output clocks in
 * model_compute and deactivates its clocks in model_event (called by
 * fmi3UpdateDiscreteStates).
 * As strict as the standard (fmu_rules.h), each function refuses (fmi3Error,
 * an "error" log line, the Error state) calls outside its states and value
 * references that are not clocks: fmi3SetClock only in Event Mode, on input
 * clocks, and setting one inactive only when it canBeDeactivated;
 * fmi3GetClock only in Event Mode; fmi3GetIntervalDecimal in
 * Initialization and Event Mode, fmi3GetShiftDecimal in Initialization
 * Mode, both on input clocks; fmi3SetIntervalDecimal on input clocks in
 * Initialization Mode, and in Event Mode on tunable clocks. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fmu_rules.h"
#include "fmu_runtime.h"

#define EXPORT __attribute__((visibility("default")))

typedef unsigned int fmi3ValueReference;
typedef bool fmi3Clock;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef enum { fmi3IntervalNotYetKnown, fmi3IntervalUnchanged, fmi3IntervalChanged } fmi3IntervalQualifier;

#define CLOCK FMU_TYPE(FMU_CLOCK)
#define IN(s) FMU_IN(FMU_##s)
/* The intervalVariability kinds of time-based (input) clocks, and of periodic ones. */
#define PERIODIC " constant fixed tunable "
#define TIME_BASED " constant fixed tunable changing countdown "
#define INPUT_CLOCK " constant fixed tunable changing countdown triggered "

/* The interval and shift of periodic clock `vr` when the description has
 * no intervalDecimal (fmi3GetIntervalDecimal, fmi3GetShiftDecimal): 1 when
 * known. A model that has such a clock defines it. */
__attribute__((weak)) int model_clock_timing(Instance* m, unsigned int vr, double* interval, double* shift) {
  (void)m;
  (void)vr;
  (void)interval;
  (void)shift;
  return 0;
}

/* fmu_allow in `states`, then every reference a clock within the runtime's
 * array; with `kinds` (" fixed tunable "...) an input clock of one of these
 * intervalVariability kinds. */
static int clocks(Instance* m, const char* fn, unsigned states, const char* kinds,
                  const fmi3ValueReference vr[], size_t n) {
  if (!fmu_allow(m, fn, FMU_ANY, states)) return 0;
  if (!fmu_access(m, fn, 0, CLOCK, vr, n)) return 0;
  for (size_t k = 0; k < n; ++k) {
    const FmuVar* v = fmu_variable(m, vr[k], CLOCK);
    if (kinds != NULL && v->causality != FMU_INPUT) {
      return fmu_fail(m, fn, "clock %u ('%s') is not an input clock", vr[k], v->name);
    }
    char kind[24];
    snprintf(kind, sizeof kind, " %s ", v->interval_variability);
    if (kinds != NULL && strstr(kinds, kind) == NULL) {
      return fmu_fail(m, fn, "clock %u ('%s') is a %s clock, not one of%s", vr[k], v->name,
                      v->interval_variability, kinds);
    }
    if (vr[k] < 100 || vr[k] >= 100 + FMU_MAX_VARS) {
      return fmu_fail(m, fn, "clock %u ('%s') is outside the runtime's array", vr[k], v->name);
    }
  }
  return 1;
}

EXPORT fmi3Status fmi3SetClock(void* c, const fmi3ValueReference vr[], size_t n, const fmi3Clock v[]) {
  Instance* m = (Instance*)c;
  if (!clocks(m, "fmi3SetClock", IN(EVENT_MODE), INPUT_CLOCK, vr, n)) return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    const FmuVar* var = fmu_variable(m, vr[k], CLOCK);
    if (!v[k] && !var->can_be_deactivated) {
      fmu_fail(m, "fmi3SetClock", "clock %u ('%s') cannot be deactivated (canBeDeactivated is not true)",
               vr[k], var->name);
      return fmi3Error;
    }
  }
  for (size_t k = 0; k < n; ++k) m->i[vr[k] - 100] = v[k] ? 1 : 0;
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetClock(void* c, const fmi3ValueReference vr[], size_t n, fmi3Clock v[]) {
  Instance* m = (Instance*)c;
  if (!clocks(m, "fmi3GetClock", IN(EVENT_MODE), NULL, vr, n)) return fmi3Error;
  (void)model_compute(m); /* output clocks are computed with the outputs */
  for (size_t k = 0; k < n; ++k) v[k] = m->i[vr[k] - 100] != 0;
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetIntervalDecimal(void* c, const fmi3ValueReference vr[], size_t n, double intervals[],
                                         fmi3IntervalQualifier qualifiers[]) {
  Instance* m = (Instance*)c;
  if (!clocks(m, "fmi3GetIntervalDecimal", IN(INITIALIZATION_MODE) | IN(EVENT_MODE), TIME_BASED, vr, n))
    return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    double shift = 0;
    if (!model_clock_timing(m, vr[k], &intervals[k], &shift)) {
      fmu_fail(m, "fmi3GetIntervalDecimal", "clock %u: this clock's interval is in the description", vr[k]);
      return fmi3Error;
    }
    qualifiers[k] = fmi3IntervalChanged;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetShiftDecimal(void* c, const fmi3ValueReference vr[], size_t n, double shifts[]) {
  Instance* m = (Instance*)c;
  if (!clocks(m, "fmi3GetShiftDecimal", IN(INITIALIZATION_MODE), PERIODIC, vr, n)) return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    double interval = 0;
    if (!model_clock_timing(m, vr[k], &interval, &shifts[k])) {
      fmu_fail(m, "fmi3GetShiftDecimal", "clock %u: this clock's shift is in the description", vr[k]);
      return fmi3Error;
    }
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetIntervalDecimal(void* c, const fmi3ValueReference vr[], size_t n,
                                         const double intervals[]) {
  Instance* m = (Instance*)c;
  (void)intervals;
  if (!clocks(m, "fmi3SetIntervalDecimal", IN(INITIALIZATION_MODE) | IN(EVENT_MODE), " fixed tunable ", vr,
              n))
    return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    const FmuVar* v = fmu_variable(m, vr[k], CLOCK);
    if (m->state == FMU_EVENT_MODE && strcmp(v->interval_variability, "tunable") != 0) {
      fmu_fail(m, "fmi3SetIntervalDecimal",
               "clock %u ('%s', intervalVariability %s) is set only in Initialization Mode", vr[k], v->name,
               v->interval_variability);
      return fmi3Error;
    }
  }
  return fmi3OK;
}
