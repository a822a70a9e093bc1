/* FMI 3.0 clocks for the test FMUs of fmu_runtime3.c (linked beside it for
 * the clocked models: clocked.c, ball.c with FMU_IMPACT_CLOCK), declared
 * here from the FMI 3.0 specification (our own declarations). A clock is
 * the model's i[vr - 100], as an Int32 variable: 1 active, 0 inactive. The
 * importer sets input clocks; the model computes its output clocks in
 * model_compute and deactivates its clocks in model_event (called by
 * fmi3UpdateDiscreteStates). */
#include <stdbool.h>
#include <stddef.h>

#include "fmu_runtime.h"

#define EXPORT __attribute__((visibility("default")))

typedef unsigned int fmi3ValueReference;
typedef bool fmi3Clock;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef enum { fmi3IntervalNotYetKnown, fmi3IntervalUnchanged, fmi3IntervalChanged } fmi3IntervalQualifier;

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

static int clock_index(Instance* m, fmi3ValueReference vr) {
  if (vr < 100 || vr >= 100 + FMU_MAX_VARS) {
    model_log(m, 3, "error", "not a clock's value reference");
    return -1;
  }
  return (int)(vr - 100);
}

EXPORT fmi3Status fmi3SetClock(void* c, const fmi3ValueReference vr[], size_t n, const fmi3Clock v[]) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n; ++k) {
    const int i = clock_index(m, vr[k]);
    if (i < 0) return fmi3Error;
    m->i[i] = v[k] ? 1 : 0;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetClock(void* c, const fmi3ValueReference vr[], size_t n, fmi3Clock v[]) {
  Instance* m = (Instance*)c;
  (void)model_compute(m); /* output clocks are computed with the outputs */
  for (size_t k = 0; k < n; ++k) {
    const int i = clock_index(m, vr[k]);
    if (i < 0) return fmi3Error;
    v[k] = m->i[i] != 0;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetIntervalDecimal(void* c, const fmi3ValueReference vr[], size_t n, double intervals[],
                                         fmi3IntervalQualifier qualifiers[]) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n; ++k) {
    double shift = 0;
    if (!model_clock_timing(m, vr[k], &intervals[k], &shift)) {
      model_log(m, 3, "error", "this clock's interval is in the description");
      return fmi3Error;
    }
    qualifiers[k] = fmi3IntervalChanged;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetShiftDecimal(void* c, const fmi3ValueReference vr[], size_t n, double shifts[]) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n; ++k) {
    double interval = 0;
    if (!model_clock_timing(m, vr[k], &interval, &shifts[k])) {
      model_log(m, 3, "error", "this clock's shift is in the description");
      return fmi3Error;
    }
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetIntervalDecimal(void* c, const fmi3ValueReference vr[], size_t n,
                                         const double intervals[]) {
  (void)c;
  (void)vr;
  (void)n;
  (void)intervals;
  return fmi3OK;
}
