/* A clocked counter (FMI 3.0, fmu_clocks3.c): the input clock `tick`
 * (Clock 100, the model's i[0]); at each tick the clocked output `count`
 * (Int32 101, i[1]) is the number of ticks so far and the clocked output
 * `y` (Float64 2) is twice the clocked input `u` (Float64 1). The previous
 * count is i[2]. No continuous states. The XML says how `tick` ticks:
 * periodic (tick3, tick_fixed3) or triggered by the importer (triggered3). */
#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->i[0] = 0;
  m->i[1] = 0;
  m->i[2] = 0;
  m->r[1] = 0;
  m->r[2] = 0;
}
void model_initialize(Instance* m) { (void)m; }
/* The clocked equations, while `tick` is active. */
fmi2Status model_compute(Instance* m) {
  if (m->i[0]) {
    m->i[1] = m->i[2] + 1;
    m->r[2] = 2 * m->r[1];
  }
  return fmi2OK;
}
/* fmi3UpdateDiscreteStates: the tick's count becomes the previous one, and the clock is deactivated. */
int model_event(Instance* m) {
  if (m->i[0]) {
    model_compute(m);
    m->i[2] = m->i[1];
    m->i[0] = 0;
  }
  return 0;
}
/* tick_fixed3: a fixed clock without intervalDecimal asks: every 0.1 s from 0.1 s. */
int model_clock_timing(Instance* m, unsigned int vr, double* interval, double* shift) {
  (void)m;
  if (vr != 100) return 0;
  *interval = 0.1;
  *shift = 0.1;
  return 1;
}
