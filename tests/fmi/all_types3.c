/* Every FMI 3 variable type (FMI 3.0 Model Exchange and Co-Simulation,
 * all_types3): for each of Float32, Int8, UInt8, Int16, UInt16, UInt32,
 * Int64 and UInt64 an input <t>_in and an output <t>_out = <t>_in (Float32
 * continuous, the integers discrete); the String parameter `label` (fixed,
 * start "none") with the Int32 output label_length = strlen(label) and the
 * String output label_out = label; the Binary parameter `blob` (fixed,
 * start 0A0B) with the Int32 output blob_sum = the sum of its bytes.
 * The outputs are computed whenever they are read (the runtime calls
 * model_compute at every fmi3Get<Type> after Instantiated) and at the end
 * of each fmi3DoStep: in Co-Simulation they feed through at once, so a Get
 * after a Set in Step Mode shows the new value. In Instantiated (where the
 * runtime computes nothing) a Get shows the outputs of the start values.
 * Value references (where the runtime keeps them, fmu_runtime3.c):
 *   Float32 200 f32_in, 201 f32_out (f32[0], f32[1]);
 *   Int8 300 i8_in, 301 i8_out; UInt8 302 u8_in, 303 u8_out; Int16 304
 *   i16_in, 305 i16_out; UInt16 306 u16_in, 307 u16_out; UInt32 308
 *   u32_in, 309 u32_out; Int64 310 i64_in, 311 i64_out (i64[0..11]);
 *   UInt64 400 u64_in, 401 u64_out (u64[0], u64[1]);
 *   String 500 label, 501 label_out (s[0], s[1]); Binary 600 blob (bin[0]);
 *   Int32 100 label_length, 101 blob_sum (i[0], i[1]); Float64 15 time.
 * The inputs start at 0 (the description's start values, which the runtime
 * gives them). */
#include <string.h>

#include "fmu_runtime.h"

const int model_nx = 0;
const int model_nz = 0;

static void outputs(Instance* m) {
  m->f32[1] = m->f32[0];
  for (int k = 0; k < 12; k += 2) m->i64[k + 1] = m->i64[k];
  m->u64[1] = m->u64[0];
  m->i[0] = (int)strlen(m->s[0]);
  memcpy(m->s[1], m->s[0], sizeof m->s[1]);
  int sum = 0;
  for (size_t k = 0; k < m->bin_size[0]; ++k) sum += m->bin[0][k];
  m->i[1] = sum;
}

void model_defaults(Instance* m) { outputs(m); }
void model_initialize(Instance* m) { outputs(m); }
fmi2Status model_compute(Instance* m) {
  outputs(m);
  return fmi2OK;
}
int model_event(Instance* m) {
  outputs(m);
  return 0;
}
