/* Discard (Model Exchange): x' = -1 from x = 1; fmi2GetDerivatives
 * returns fmi2Discard where x < 0 (outside the model's domain). With the
 * parameter `reset` true, an event indicator z = x - 0.25 resets x to 1
 * before the domain's edge, so only the solver's trial points leave it;
 * with `reset` false the solution reaches x < 0 and the run fails.
 * Value references: Real 0 x, 1 der(x); Boolean 0 reset; Integer 1 resets. */
#include <stdio.h>

#include "fmu_runtime.h"

const int model_nx = 1;
const int model_nz = 1;

void model_defaults(Instance* m) {
  m->r[0] = 1.0;
  m->i[0] = 1;
  m->i[1] = 0;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  if (m->r[0] < 0) {
    snprintf(m->message, sizeof m->message, "x = %g is outside the domain x >= 0", m->r[0]);
    return fmi2Discard;
  }
  m->r[1] = -1.0;
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { z[0] = m->i[0] ? m->r[0] - 0.25 : 1.0; }
int model_event(Instance* m) {
  if (m->i[0] && m->r[0] <= 0.25) {
    m->r[0] = 1.0;
    m->i[1] += 1;
    return 1;
  }
  return 0;
}
int model_step_done(Instance* m) { (void)m; return 0; }
