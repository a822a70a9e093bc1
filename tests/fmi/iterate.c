/* Event iteration (Model Exchange; FMI 2 iterate, FMI 3 iterate3): one
 * time event at t = 0.5 (announced by nextEventTime). In its Event Mode,
 * fmi2NewDiscreteStates / fmi3UpdateDiscreteStates says
 * newDiscreteStatesNeeded (discreteStatesNeedUpdate) true at the first
 * `passes` - 1 calls and false at the passes-th (at once when passes <= 1);
 * passes = -1 never settles. The output `count` is the number of calls the
 * last time event took so far, `events` the number of time events. Other
 * Event Modes (the one after Initialization Mode, or one the importer
 * enters for its own reasons) settle at the first call and change neither.
 * Value references: FMI 2 Integer 0 passes (parameter, fixed, start 3),
 * 1 count, 2 events (outputs, start 0); FMI 3 the same as Int32 100, 101,
 * 102 (and Float64 15 time). The model's i[3] is 1 while the event's
 * iteration runs. */
#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->i[0] = 3;
  m->i[1] = 0;
  m->i[2] = 0;
  m->i[3] = 0;
}
void model_initialize(Instance* m) {
  m->next_defined = 1;
  m->next_time = 0.5;
}
fmi2Status model_compute(Instance* m) {
  (void)m;
  return fmi2OK;
}
int model_event(Instance* m) {
  if (m->event_calls == 1) {
    m->i[3] = 0;
    if (m->next_defined && m->time >= m->next_time) { /* the time event: the importer must reach 0.5 */
      m->next_defined = 0;
      m->i[1] = 0;
      m->i[2] += 1;
      m->i[3] = 1;
    }
  }
  if (m->i[3]) {
    m->i[1] += 1;
    const int passes = m->i[0];
    if (passes < 0 || m->i[1] < passes) {
      m->discrete_states_needed = 1;
    } else {
      m->i[3] = 0;
    }
  }
  return 0;
}
