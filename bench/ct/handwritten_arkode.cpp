// Baselines for the CT phase: the two benchmark models written by hand directly on
// ARKODE ERKStep, without ctde. The framework's runs of the same models are compared
// with these (and with bench/ct/scipy_baseline.py).
//
//   statespace, chain1000: the ODEs of bench/ct/ct_models.hpp.
//   chain1000   1000 unit masses in a line between two walls, each joined to its
//               neighbours (or the wall) by a spring k = 1 and a damper c = 0.1;
//               mass 1 driven by the force sin(t). x = (p1..p1000, v1..v1000), x(0) = 0.
//
// Both: Dormand–Prince 5(4) (ARKODE_DORMAND_PRINCE_7_4_5, as SciPy's RK45), rtol 1e-6,
// atol 1e-9, t in [0, 100], ARK_NORMAL to t = 100. Output, one line per model:
//   model=… n=… wall_s=… steps=… rhs_evals=… checksum=… ref_checksum=… sundials=…
// wall_s is the best of `repeats` timed runs (creation to t = 100); checksum is the
// sum of the final state; ref_checksum the same sum from an untimed run at rtol 1e-11,
// atol 1e-14, to judge the checksums of both baselines against.
//
// Built by bench/CMakeLists.txt (it links libctde only for OPS=project).
// Run: [FUSED=1] [OPS=project] ./handwritten_arkode [statespace|chain1000|all] [repeats]
//   FUSED=1: fused vector operations enabled; OPS=project: the vector operations
//   compiled in this project (domains/ct/vector_ops.hpp) instead of Debian's -O0 ones.

#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../arkode_erk.hpp"
#include "../best_of.hpp"
#include "bench/ct/ct_models.hpp"
#include "domains/ct/vector_ops.hpp"

namespace {

/// OPS=project in the environment: the vector operations compiled in this
/// project (domains/ct/vector_ops.hpp), as ctde's solver wrapper installs
/// them; otherwise the library's own, as Debian ships it (-O0).
bool project_ops() {
  const char* v = std::getenv("OPS");
  return v != nullptr && std::string(v) == "project";
}

using ct_models::kAtol;
using ct_models::kRtol;
using ct_models::kT0;
using ct_models::kTEnd;

// The right-hand sides of bench/ct/ct_models.hpp on ARKODE's serial vectors.
int statespace_rhs(sunrealtype t, N_Vector x, N_Vector dxdt, void* user) {
  static_cast<const ct_models::StateSpace*>(user)->derivatives(t, NV_DATA_S(x), NV_DATA_S(dxdt));
  return 0;
}

int chain_rhs(sunrealtype t, N_Vector x, N_Vector dxdt, void* /*user*/) {
  ct_models::Chain::derivatives(t, NV_DATA_S(x), NV_DATA_S(dxdt));
  return 0;
}

// ---- driver --------------------------------------------------------------------------

struct Run : TimedRun {
  double checksum = 0.0;
};

Run integrate(ARKRhsFn rhs, void* user, int n, double rtol, double atol) {
  SUNContext ctx = new_context();
  const auto start = std::chrono::steady_clock::now();
  N_Vector x = new_vector(n, ctx);
  if (project_ops()) ctde::use_project_vector_ops(x);
  N_VConst(0.0, x);
  void* mem = ERKStepCreate(rhs, kT0, x, ctx);
  if (mem == nullptr) check(-1, "ERKStepCreate");
  check(ERKStepSetTableNum(mem, ARKODE_DORMAND_PRINCE_7_4_5), "ERKStepSetTableNum");
  check(ERK(SStolerances, mem, rtol, atol), "SStolerances");
  check(ERK(SetUserData, mem, user), "SetUserData");
  check(ERK(SetMaxNumSteps, mem, 10'000'000), "SetMaxNumSteps");
  check(ERK(SetStopTime, mem, kTEnd), "SetStopTime");
  sunrealtype t = kT0;
  check(ERK(Evolve, mem, kTEnd, x, &t, ARK_NORMAL), "Evolve");
  const auto stop = std::chrono::steady_clock::now();

  Run run;
  run.wall_s = std::chrono::duration<double>(stop - start).count();
  get_counts(mem, run.steps, run.rhs_evals);
  const double* xs = NV_DATA_S(x);
  for (int i = 0; i < n; ++i) run.checksum += xs[i];
  ERK(Free, &mem);
  N_VDestroy(x);
  SUNContext_Free(&ctx);
  return run;
}

void bench(const char* model, ARKRhsFn rhs, void* user, int n, int repeats) {
  const Run best = best_of<Run>(repeats, [&] { return integrate(rhs, user, n, kRtol, kAtol); });
  const Run reference = integrate(rhs, user, n, 1e-11, 1e-14);
  std::printf(
      "model=%s n=%d wall_s=%.6f steps=%ld rhs_evals=%ld checksum=%.12g ref_checksum=%.12g "
      "fused=%d repeats=%d sundials=%s\n",
      model, n, best.wall_s, best.steps, best.rhs_evals, best.checksum, reference.checksum,
      fused_ops() ? 1 : 0, repeats, SUNDIALS_VERSION);
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<ct_models::Arguments> args = ct_models::parse_arguments(argc, argv);
  if (!args) return 2;
  ct_models::StateSpace statespace;
  if (args->runs("statespace")) {
    bench("statespace", statespace_rhs, &statespace, ct_models::StateSpace::kN, args->repeats_or(200));
  }
  if (args->runs("chain1000"))
    bench("chain1000", chain_rhs, nullptr, ct_models::Chain::kN, args->repeats_or(5));
  return 0;
}
