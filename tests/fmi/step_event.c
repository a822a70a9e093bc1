/* Step events (Model Exchange): x' = 1 from 0; after the first accepted
 * step that ends with x >= 0.5, fmi2CompletedIntegratorStep asks for an
 * event, at which x is reset to 0 and the Integer output `resets` counts
 * it (once). Value references: Real 0 x, 1 der(x), 2 at (the time of the
 * reset); Integer 0 resets. With FMU_TERMINATE_ON_STEP that step asks to
 * terminate the simulation instead of asking for an event. With
 * FMU_LOG_STEPS it logs each evaluation ("compute at t = ...") and each
 * completed step ("step done at t = ..."), with the time to 17 digits. */
#include "fmu_runtime.h"

#ifdef FMU_LOG_STEPS
#include <stdio.h>
static void log_time(Instance* m, const char* what) {
  char text[64];
  snprintf(text, sizeof text, "%s at t = %.17g", what, m->time);
  model_log(m, 0, "logStatusAll", text);
}
#endif

const int model_nx = 1;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->r[0] = 0.0;
  m->r[2] = -1.0;
  m->i[0] = 0;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
#ifdef FMU_LOG_STEPS
  log_time(m, "compute");
#endif
  m->r[1] = 1.0;
  return fmi2OK;
}
void model_indicators(Instance* m, double* z) { (void)m; (void)z; }
int model_event(Instance* m) {
  if (m->i[0] == 0 && m->r[0] >= 0.5) {
    m->r[0] = 0.0;
    m->r[2] = m->time;
    m->i[0] = 1;
    return 1;
  }
  return 0;
}
int model_step_done(Instance* m) {
#ifdef FMU_LOG_STEPS
  log_time(m, "step done");
#endif
  const int due = m->i[0] == 0 && m->r[0] >= 0.5;
#ifdef FMU_TERMINATE_ON_STEP
  if (due) m->terminate = 1;
  return 0;
#else
  return due;
#endif
}
