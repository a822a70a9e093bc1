/* Bouncing ball (Model Exchange): h' = v, v' = -g; when h reaches 0
 * falling, v = -e v. Event indicator z = h.
 * Value references: 0 h, 1 der(h), 2 v, 3 der(v), 4 g, 5 e. */
#include "fmu_runtime.h"

const int model_nx = 2;
const int model_nz = 1;

void model_defaults(Instance* m) {
  m->r[0] = 1.0;
  m->r[2] = 0.0;
  m->r[4] = 9.81;
  m->r[5] = 0.7;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  m->r[1] = m->r[2];
  m->r[3] = -m->r[4];
#ifdef FMU_IMPACT_CLOCK
  /* ball_clock3 (fmu_clocks3.c): the output clock `impact` (Clock 100, i[0])
   * is active at the event of an impact, and its clocked output
   * `impact_speed` (Float64 6) is the speed then. */
  m->i[0] = m->r[0] <= 0 && m->r[2] < 0;
  if (m->i[0]) m->r[6] = -m->r[2];
#endif
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { z[0] = m->r[0]; }
int model_event(Instance* m) {
  if (m->r[0] <= 0 && m->r[2] < 0) {
    m->r[2] = -m->r[5] * m->r[2];
    return 1;
  }
  return 0;
}
int model_step_done(Instance* m) { (void)m; return 0; }
