/* A String parameter (FMI 2.0 Model Exchange and Co-Simulation, all_types):
 * the Real input u with the Real output y = u, and the String parameter
 * `label` (fixed, start "none") with the Integer output label_length =
 * strlen(label). The outputs are computed whenever they are read (the
 * runtime calls model_compute at every fmi2Get<Type>) and at the end of
 * each fmi2DoStep.
 * Value references (fmu_runtime.c): Real 0 u, 1 y (r[0], r[1]); String 0
 * label (s[0], up to 63 characters); Integer 0 label_length (i[0]). The
 * start values are the description's (the runtime gives them). */
#include <string.h>

#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

static void outputs(Instance* m) {
  m->r[1] = m->r[0];
  m->i[0] = (int)strlen(m->s[0]);
}

void model_defaults(Instance* m) { outputs(m); }
void model_initialize(Instance* m) { outputs(m); }
fmi2Status model_compute(Instance* m) {
  outputs(m);
  return fmi2OK;
}
int model_event(Instance* m) {
  outputs(m);
  return 0;
}
