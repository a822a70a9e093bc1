// Baselines for the CT phase: the two benchmark models written by hand directly on
// ARKODE ERKStep, without ctde. The framework's runs of the same models are compared
// with these (and with bench/ct/scipy_baseline.py).
//
//   statespace  x' = A x + B u, n = 8: a chain wall–m1–m2–m3–m4 of unit masses joined
//               by springs k = 1 and dampers c = 0.1, u = 1 pushing m4; A and B dense,
//               the right-hand side a dense matrix-vector product (what a StateSpace
//               actor computes). x = (p1..p4, v1..v4), x(0) = 0.
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
#include <string>
#include <vector>

#include "../arkode_erk.hpp"
#include "domains/ct/vector_ops.hpp"
#include "mass_chain.hpp"

namespace {

/// OPS=project in the environment: the vector operations compiled in this
/// project (domains/ct/vector_ops.hpp), as ctde's solver wrapper installs
/// them; otherwise the library's own, as Debian ships it (-O0).
bool project_ops() {
  const char* v = std::getenv("OPS");
  return v != nullptr && std::string(v) == "project";
}

constexpr double kT0 = 0.0;
constexpr double kTEnd = 100.0;
constexpr double kRtol = 1e-6;
constexpr double kAtol = 1e-9;
using mass_chain::kDamper;
using mass_chain::kSpring;

// ---- statespace: x' = A x + B u ----------------------------------------------------

struct StateSpace {
  static constexpr int kN = mass_chain::kN;
  std::array<double, std::size_t{kN} * kN> a{};  // row-major
  std::array<double, kN> b{};
  double u = 1.0;

  StateSpace() {
    const auto at = [this](int i, int j) -> double& { return a[i * kN + j]; };
    mass_chain::fill_a(at);
    b[kN - 1] = 1.0;  // u pushes the last mass
  }

  static int rhs(sunrealtype /*t*/, N_Vector x, N_Vector dxdt, void* user) {
    const auto* m = static_cast<const StateSpace*>(user);
    const double* xs = NV_DATA_S(x);
    double* d = NV_DATA_S(dxdt);
    for (int i = 0; i < kN; ++i) {
      double sum = m->b[i] * m->u;
      for (int j = 0; j < kN; ++j) sum += m->a[i * kN + j] * xs[j];
      d[i] = sum;
    }
    return 0;
  }
};

// ---- chain1000 ---------------------------------------------------------------------

struct Chain {
  static constexpr int kMasses = 1000;
  static constexpr int kN = 2 * kMasses;

  static int rhs(sunrealtype t, N_Vector x, N_Vector dxdt, void* /*user*/) {
    const double* p = NV_DATA_S(x);
    const double* v = p + kMasses;
    double* dp = NV_DATA_S(dxdt);
    double* dv = dp + kMasses;
    for (int i = 0; i < kMasses; ++i) {
      const double p_left = i > 0 ? p[i - 1] : 0.0;  // walls at both ends
      const double v_left = i > 0 ? v[i - 1] : 0.0;
      const double p_right = i + 1 < kMasses ? p[i + 1] : 0.0;
      const double v_right = i + 1 < kMasses ? v[i + 1] : 0.0;
      dp[i] = v[i];
      dv[i] = kSpring * (p_left - 2.0 * p[i] + p_right) + kDamper * (v_left - 2.0 * v[i] + v_right);
    }
    dv[0] += std::sin(t);
    return 0;
  }
};

// ---- driver --------------------------------------------------------------------------

struct Run {
  double wall_s = 0.0;
  long steps = 0;
  long rhs_evals = 0;
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
  check(ERK(GetNumSteps, mem, &run.steps), "GetNumSteps");
#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 2)
  check(ARKodeGetNumRhsEvals(mem, 0, &run.rhs_evals), "ARKodeGetNumRhsEvals");
#else
  check(ERKStepGetNumRhsEvals(mem, &run.rhs_evals), "ERKStepGetNumRhsEvals");
#endif
  const double* xs = NV_DATA_S(x);
  for (int i = 0; i < n; ++i) run.checksum += xs[i];
  ERK(Free, &mem);
  N_VDestroy(x);
  SUNContext_Free(&ctx);
  return run;
}

void bench(const char* model, ARKRhsFn rhs, void* user, int n, int repeats) {
  Run best;
  best.wall_s = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const Run run = integrate(rhs, user, n, kRtol, kAtol);
    if (run.wall_s < best.wall_s) best = run;
  }
  const Run reference = integrate(rhs, user, n, 1e-11, 1e-14);
  std::printf(
      "model=%s n=%d wall_s=%.6f steps=%ld rhs_evals=%ld checksum=%.12g ref_checksum=%.12g "
      "fused=%d repeats=%d sundials=%s\n",
      model, n, best.wall_s, best.steps, best.rhs_evals, best.checksum, reference.checksum,
      fused_ops() ? 1 : 0, repeats, SUNDIALS_VERSION);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 0;
  if (which != "all" && which != "statespace" && which != "chain1000") {
    std::fprintf(stderr, "usage: %s [statespace|chain1000|all] [repeats]\n", argv[0]);
    return 2;
  }
  StateSpace statespace;
  if (which == "all" || which == "statespace") {
    bench("statespace", StateSpace::rhs, &statespace, StateSpace::kN, repeats > 0 ? repeats : 200);
  }
  if (which == "all" || which == "chain1000") {
    bench("chain1000", Chain::rhs, nullptr, Chain::kN, repeats > 0 ? repeats : 5);
  }
  return 0;
}
