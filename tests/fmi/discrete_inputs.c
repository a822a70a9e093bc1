/* Discrete inputs of every type (Model Exchange and Co-Simulation; FMI 2
 * discrete_inputs, FMI 3 discrete_inputs3), each copied to a discrete
 * output of its type, and a continuous Real input u with the continuous
 * output y = u. The discrete outputs are computed in Initialization Mode
 * and Event Mode (at fmi2Get<Type> after fmi2Set<Type>, and at
 * fmi2NewDiscreteStates / fmi3UpdateDiscreteStates) and in Co-Simulation at
 * each step (from the inputs set before it); in Continuous-Time Mode and
 * between steps they hold (and the strict runtime refuses to set discrete
 * inputs in Continuous-Time Mode: only u can be set there).
 * Value references (the model's r[] and i[] alike in both versions):
 *   FMI 2: Real 0 u, 1 y, 2 r_in, 3 r_out; Integer 0 i_in, 1 i_out;
 *          Boolean 2 b_in, 3 b_out; Enumeration (type Level: 1 low, 2 mid,
 *          3 high) 4 e_in, 5 e_out.
 *   FMI 3: Float64 0 u, 1 y, 2 r_in, 3 r_out, 15 time; Int32 100 i_in,
 *          101 i_out; Boolean 102 b_in, 103 b_out; Enumeration (Level, an
 *          Int64 in the API: fmi3GetInt64 / fmi3SetInt64) 104 e_in,
 *          105 e_out.
 * Start values: u 0, r_in 0, i_in 0, b_in false, e_in 1 (low). */
#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

static void copy_discrete(Instance* m) {
  m->r[3] = m->r[2];
  m->i[1] = m->i[0];
  m->i[3] = m->i[2];
  m->i[5] = m->i[4];
}

void model_defaults(Instance* m) {
  m->r[0] = 0.0;
  m->r[2] = 0.0;
  m->i[0] = 0;
  m->i[2] = 0;
  m->i[4] = 1;
  m->r[1] = m->r[0];
  copy_discrete(m);
}
void model_initialize(Instance* m) { copy_discrete(m); }
fmi2Status model_compute(Instance* m) {
  m->r[1] = m->r[0];
  if (m->state == FMU_INITIALIZATION_MODE || m->state == FMU_EVENT_MODE || m->state == FMU_STEP_IN_PROGRESS) {
    copy_discrete(m);
  }
  return fmi2OK;
}
int model_event(Instance* m) {
  copy_discrete(m);
  return 0;
}
