/* An initial value from an input (Model Exchange and Co-Simulation; FMI 2
 * init_input, FMI 3 init_input3): x' = -x, with x(0) = x0, the Real input
 * x0 as it is when Initialization Mode ends (fmi2ExitInitializationMode /
 * fmi3ExitInitializationMode), so x(t) = x0 e^-(t - t0); output x. In
 * Initialization Mode x follows x0 (a Get of x there gives x0). An importer
 * that does not set the connected inputs during Initialization Mode makes x
 * start at x0's start value 0 (and stay 0). Later values of x0 do not
 * matter. Value references: Real (Float64) 0 x, 1 der(x), 2 x0 (FMI 3: and
 * 15 time). */
#include "fmu_runtime.h"

const int model_nx = 1;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->r[2] = 0.0;
  m->r[0] = m->r[2];
}
void model_initialize(Instance* m) { m->r[0] = m->r[2]; }
fmi2Status model_compute(Instance* m) {
  if (m->state == FMU_INITIALIZATION_MODE) m->r[0] = m->r[2];
  m->r[1] = -m->r[0];
  return fmi2OK;
}
