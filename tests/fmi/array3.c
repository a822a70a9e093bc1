/* FMI 3 arrays (FMI 3.0 Model Exchange and Co-Simulation, array3): the
 * continuous state x of 3 elements (start 1 0 1, an output) with
 * x1' = x2, x2' = -x1, x3' = -0.5 k x3, so x = (cos t, -sin t, e^(-k t / 2))
 * from the start values at t = 0; the parameter k (tunable, start 1); the
 * continuous input u of 3 elements (start 0 0 0) with the continuous output
 * y = 2 u. The runtime takes the 3 elements of x as the 3 continuous states
 * (fmi3GetContinuousStates and the derivatives in the order x1, x2, x3) and
 * an array's values in Get and Set in element order.
 * Value references (Float64, the model's r[]): 0 x (r[0..2]), 3 der(x)
 * (r[3..5]), 6 u (r[6..8]), 9 y (r[9..11]), 12 k (r[12]), 15 time. The
 * start values are the description's (the runtime gives them). */
#include "fmu_runtime.h"

const int model_nx = 3;
const int model_nz = 0;

static void outputs(Instance* m) {
  m->r[3] = m->r[1];
  m->r[4] = -m->r[0];
  m->r[5] = -0.5 * m->r[12] * m->r[2];
  for (int j = 0; j < 3; ++j) m->r[9 + j] = 2 * m->r[6 + j];
}

void model_defaults(Instance* m) { outputs(m); }
void model_initialize(Instance* m) { outputs(m); }
fmi2Status model_compute(Instance* m) {
  outputs(m);
  return fmi2OK;
}
