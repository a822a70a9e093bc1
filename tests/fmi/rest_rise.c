/* Event indicators that rest at zero (Model Exchange, no states): z0 = 0
 * until t = 0.5, then t - 0.5 (resting at zero, then rising: an event by
 * FMI's domains z > 0 and z <= 0); z1 = 0.25 - t (falling through zero at
 * t = 0.25). Each event is counted once, with its
 * time. Value references: Real 0 rise_at, 1 fall_at; Integer 0 rises,
 * 1 falls. */
#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 2;

void model_defaults(Instance* m) {
  m->r[0] = -1.0;
  m->r[1] = -1.0;
  m->i[0] = 0;
  m->i[1] = 0;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) { (void)m; return fmi2OK; }
void model_indicators(Instance* m, double* z) {
  z[0] = m->time < 0.5 ? 0.0 : m->time - 0.5;
  z[1] = 0.25 - m->time;
}
int model_event(Instance* m) {
  if (m->i[0] == 0 && m->time > 0.5) {
    m->i[0] = 1;
    m->r[0] = m->time;
  }
  if (m->i[1] == 0 && m->time >= 0.25) {
    m->i[1] = 1;
    m->r[1] = m->time;
  }
  return 0;
}
int model_step_done(Instance* m) { (void)m; return 0; }
