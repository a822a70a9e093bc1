/* A nonlinear system with an input, for Jacobians from directional
 * derivatives (Model Exchange): x' = y, y' = -k x^3 - y + u x, the output
 * w = x u + sin(y). Value references: 0 x, 1 der(x), 2 y, 3 der(y), 4 u
 * (input), 5 k (parameter), 6 w (output). model_partial gives the exact
 * partial derivatives; coupled.xml.in declares them to the importer or not
 * (@FMU_DIRECTIONAL@). */
#include <math.h>

#include "fmu_runtime.h"

const int model_nx = 2;
const int model_nz = 0;

void model_defaults(Instance* m) {
  m->r[0] = 1.0;
  m->r[2] = 0.0;
  m->r[4] = 0.0;
  m->r[5] = 2.0;
}
void model_initialize(Instance* m) { (void)m; }
fmi2Status model_compute(Instance* m) {
  const double x = m->r[0], y = m->r[2], u = m->r[4], k = m->r[5];
  m->r[1] = y;
  m->r[3] = -k * x * x * x - y + u * x;
  m->r[6] = x * u + sin(y);
  return fmi2OK;
}
double model_partial(Instance* m, unsigned int unknown, unsigned int known) {
  const double x = m->r[0], y = m->r[2], u = m->r[4], k = m->r[5];
  switch (unknown * 10 + known) {
    case 12:
      return 1.0; /* der(x) / y */
    case 30:
      return -3.0 * k * x * x + u; /* der(y) / x */
    case 32:
      return -1.0; /* der(y) / y */
    case 34:
      return x; /* der(y) / u */
    case 60:
      return u; /* w / x */
    case 62:
      return cos(y); /* w / y */
    case 64:
      return x; /* w / u */
    default:
      return 0.0;
  }
}
