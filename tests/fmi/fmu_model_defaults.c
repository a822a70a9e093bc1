/* The model hooks a model without events need not define (fmu_runtime.h):
 * weak definitions that the model's own, where it has them, replace. No
 * event indicators, nothing to update at an event, no event asked for at a
 * step's end. */
#include "fmu_runtime.h"

__attribute__((weak)) void model_indicators(Instance* m, double* z) {
  (void)m;
  (void)z;
}

__attribute__((weak)) int model_event(Instance* m) {
  (void)m;
  return 0;
}

__attribute__((weak)) int model_step_done(Instance* m) {
  (void)m;
  return 0;
}
