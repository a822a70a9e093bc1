#pragma once
// What the hand-written ARKODE baselines share (bench/ct/handwritten_arkode.cpp,
// bench/events/handwritten_ball.cpp): ERK(name, ...) calls ARKODE's shared
// function `name` (7.1+) or ERKStep's, the FUSED switch, the check of a
// SUNDIALS return flag, a new context and serial vector, and the counts of
// an integrator.

#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 1)
#define ERK(name, ...) ARKode##name(__VA_ARGS__)  // 7.1+: shared ARKODE functions
#else
#define ERK(name, ...) ERKStep##name(__VA_ARGS__)
#endif

/// FUSED=1 in the environment: fused N_Vector operations, as ctde's solver
/// wrapper enables them (one pass per linear combination of stages).
inline bool fused_ops() {
  const char* v = std::getenv("FUSED");
  return v != nullptr && std::string(v) == "1";
}

/// Ends the program when a SUNDIALS call failed (flag < 0), naming the call.
inline void check(int flag, const char* call) {
  if (flag < 0) {
    std::fprintf(stderr, "error: %s returned %d\n", call, flag);
    std::exit(1);
  }
}

/// A new SUNDIALS context (free it with SUNContext_Free).
inline SUNContext new_context() {
  SUNContext ctx = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  check(SUNContext_Create(SUN_COMM_NULL, &ctx), "SUNContext_Create");
#else
  check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
#endif
  return ctx;
}

/// A new serial vector of `n` entries in `ctx`, with fused operations when
/// FUSED=1.
inline N_Vector new_vector(sunindextype n, SUNContext ctx) {
  N_Vector v = N_VNew_Serial(n, ctx);
  if (v == nullptr) check(-1, "N_VNew_Serial");
  if (fused_ops()) check(N_VEnableFusedOps_Serial(v, SUNTRUE), "N_VEnableFusedOps_Serial");
  return v;
}

/// The accepted steps and the right-hand-side evaluations of the ERKStep
/// integrator `mem` so far, into `steps` and `rhs_evals`.
inline void get_counts(void* mem, long& steps, long& rhs_evals) {
  check(ERK(GetNumSteps, mem, &steps), "GetNumSteps");
#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 2)
  check(ARKodeGetNumRhsEvals(mem, 0, &rhs_evals), "ARKodeGetNumRhsEvals");
#else
  check(ERKStepGetNumRhsEvals(mem, &rhs_evals), "ERKStepGetNumRhsEvals");
#endif
}
