/* Van der Pol's oscillator (Model Exchange): x0' = x1,
 * x1' = mu (1 - x0^2) x1 - x0. Value references: 0 x0, 1 der(x0), 2 x1,
 * 3 der(x1), 4 mu. */
#include "fmu_runtime.h"

const int model_nx = 2;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->r[0] = 2.0;
  m->r[2] = 0.0;
  m->r[4] = 1.0;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  const double x0 = m->r[0];
  const double x1 = m->r[2];
  m->r[1] = x1;
  m->r[3] = m->r[4] * (1 - x0 * x0) * x1 - x0;
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { (void)m; (void)z; }
int model_event(Instance* m) { (void)m; return 0; }
int model_step_done(Instance* m) { (void)m; return 0; }
