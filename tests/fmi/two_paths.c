/* Two paths through one FMU (Model Exchange and Co-Simulation), for the loop checks:
 * x' = -x from 1; output y1 = 2 u1 depends on the input u1 directly,
 * output y2 = x only on the state. Value references: Real 0 x, 1 der(x),
 * 2 u1, 3 y1, 4 y2. */
#include "fmu_runtime.h"

const int model_nx = 1;
const int model_nz = 0;

void model_defaults(Instance* m) { m->r[0] = 1.0; }
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  m->r[1] = -m->r[0];
  m->r[3] = 2 * m->r[2];
  m->r[4] = m->r[0];
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { (void)m; (void)z; }
int model_event(Instance* m) { (void)m; return 0; }
int model_step_done(Instance* m) { (void)m; return 0; }
