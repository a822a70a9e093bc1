/* A stair (Model Exchange and Co-Simulation): an Integer output `count`
 * that steps by one at every t = k * 0.1 (time events), and a Real output
 * `level` = count / 10. When `count` reaches the parameter `last`, the
 * model asks to terminate. Value references: Integer 0 count, 1 last;
 * Real 0 level. With FMU_LOG_EVENTS it logs each step ("count k", OK,
 * category "logEvents") and the termination (a warning). */
#include <stdio.h>

#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

static void plan(Instance* m) {
  m->next_defined = 1;
  m->next_time = (m->i[0] + 1) * 0.1;
}
void model_defaults(Instance* m) {
  m->i[0] = 0;
  m->i[1] = 1000000;
}
void model_initialize(Instance* m) { plan(m); }
fmi2Status model_compute(Instance* m) {
  m->r[0] = m->i[0] / 10.0;
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { (void)m; (void)z; }
int model_event(Instance* m) {
  if (m->time >= m->next_time) {  /* the importer must give exactly the time asked for */
    m->i[0] += 1;
    plan(m);
    if (m->i[0] >= m->i[1]) m->terminate = 1;
#ifdef FMU_LOG_EVENTS
    char text[64];
    snprintf(text, sizeof text, "count %d", m->i[0]);
    model_log(m, 0, "logEvents", text);
    if (m->terminate) model_log(m, 1, "logStatusWarning", "count reached last: terminating");
#endif
  }
  return 0;
}
int model_step_done(Instance* m) { (void)m; return 0; }
