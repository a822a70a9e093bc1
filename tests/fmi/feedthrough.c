/* Direct feedthrough (Model Exchange and Co-Simulation): Real input u,
 * Integer input n, Boolean input on; outputs y = k u (+ n when on) and
 * the Integer copy of n. Value references: Real 0 u, 1 y, 2 k;
 * Integer 0 n, 1 n_out; Boolean 2 on. */
#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

void model_defaults(Instance* m) { m->r[2] = 2.0; }
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  m->r[1] = m->r[2] * m->r[0] + (m->i[2] ? m->i[0] : 0);
  m->i[1] = m->i[0];
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { (void)m; (void)z; }
int model_event(Instance* m) { (void)m; return 0; }
int model_step_done(Instance* m) { (void)m; return 0; }
