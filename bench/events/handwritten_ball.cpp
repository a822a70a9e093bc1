// Baseline for the state-event benchmark (issue 5): the elastic bouncing balls of
// ball_bench.cpp written by hand directly on ARKODE ERKStep with its built-in
// rootfinding, without ctde.
//
//   ball1     one ball, h(0) = 10 m, v(0) = 0, g = 9.81 m/s², e = 1, until just
//             after impact 1000 (stop at 2000 t1, the apex after it); ball1@N:
//             until just after impact N
//   balls100  100 independent balls in one ODE system, h_i(0) = 1 + 0.0999 i m
//             (i = 0..99), v_i(0) = 0, e = 1, t in [0, 20] s (1035 impacts).
//             0.0999 rather than 0.1: with 1 + 0.1 i some balls hit the ground at
//             exactly the same instants (h ratios 9 or 9/25 give flight times in a
//             ratio of odd numbers); this set keeps impacts of different balls at
//             least 2.6e-5 s apart, so the benchmark is not about simultaneity.
//
// State y = (h_0..h_{n-1}, v_0..v_{n-1}), h' = v, v' = -g. One root function per
// ball, g_i = h_i, direction falling (ERKStepSetRootDirection -1). Dormand–Prince
// 5(4) (ARKODE_DORMAND_PRINCE_7_4_5, as ctde's erk45 and SciPy's RK45), the same
// rtol and atol as ctde, ARK_NORMAL towards the stop time. On ARK_ROOT_RETURN:
// ERKStepGetRootInfo, v_i ← -e v_i and h_i ← 0 for each ball found (without the
// latter ARKODE misses every impact after the first when one ball is alone: see
// integrate()), ERKStepReset at the root (in 6.4.1 it keeps the step size the
// controller proposed, where ctde and SciPy start again from a fresh estimate),
// ERKStepSetStopTime again (Reset clears it).
//
// Output, one line per model and tolerance pair:
//   model=… n=… rtol=… atol=… wall_s=… impacts=… expected=… max_abs_err=…
//   max_rel_err=… worst_ball=… worst_impact=… steps=… rhs_evals=… g_evals=… …
// wall_s is the best of `repeats` runs (creation to the stop time). The errors compare
// the k-th impact of ball i with the closed form t_ik = (2k - 1) sqrt(2 h_i(0) / g);
// max_rel_err divides by t_ik. A missed or duplicated impact shows as
// impacts != expected (the error is then over the impacts that were found, in order).
//
// Build: the `handwritten_ball` target of bench/CMakeLists.txt (or
//   g++ -std=c++20 -O2 bench/events/handwritten_ball.cpp -o handwritten_ball
//       -lsundials_arkode -lsundials_nvecserial      (one command line)).
// Run: ./handwritten_ball [ball1|ball1@N|balls100|all] [repeats] [rtol atol [interpolant_degree]]
//   (no tolerances: rtol 1e-10 atol 1e-12, then rtol 1e-6 atol 1e-9; no degree:
//   ARKODE's default dense output, as ctde's solver wrapper uses)

#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../arkode_erk.hpp"
#include "../best_of.hpp"
#include "balls.hpp"
#include "domains/ct/vector_ops.hpp"

namespace {

using namespace balls;

struct Run : TimedRun {
  long g_evals = 0;
  long resets = 0;
  std::vector<Impact> impacts;
};

int rhs(sunrealtype /*t*/, N_Vector y, N_Vector dydt, void* user) {
  const auto n = *static_cast<const sunindextype*>(user);
  const double* ys = NV_DATA_S(y);
  double* d = NV_DATA_S(dydt);
  for (sunindextype i = 0; i < n; ++i) {
    d[i] = ys[n + i];  // h' = v
    d[n + i] = -kGravity;
  }
  return 0;
}

int ground(sunrealtype /*t*/, N_Vector y, sunrealtype* g, void* user) {
  const auto n = *static_cast<const sunindextype*>(user);
  const double* ys = NV_DATA_S(y);
  for (sunindextype i = 0; i < n; ++i) g[i] = ys[i];  // g_i = h_i
  return 0;
}

/// interp_degree < 0: ARKODE's default Hermite interpolant, of a degree above 3
/// (results identical to degree 4 and 5 here), each evaluation of which costs extra
/// RHS calls: every root-function evaluation of a search pays them.
Run integrate(const Balls& balls, double rtol, double atol, int interp_degree) {
  sunindextype n = static_cast<sunindextype>(balls.h0.size());
  const int roots = static_cast<int>(n);
  Run run;
  run.impacts.reserve(static_cast<std::size_t>(expected_impacts(balls)) + 16);
  std::vector<int> direction(static_cast<std::size_t>(roots), -1);
  std::vector<int> found(static_cast<std::size_t>(roots), 0);

  SUNContext ctx = new_context();
  const auto start = std::chrono::steady_clock::now();
  N_Vector y = new_vector(2 * n, ctx);
  // OPS=project: the vector operations compiled in this project, as ctde installs them.
  const char* ops = std::getenv("OPS");
  if (ops != nullptr && std::string(ops) == "project") ctde::use_project_vector_ops(y);
  double* ys = NV_DATA_S(y);
  for (sunindextype i = 0; i < n; ++i) {
    ys[i] = balls.h0[static_cast<std::size_t>(i)];
    ys[n + i] = 0.0;
  }
  void* mem = ERKStepCreate(rhs, 0.0, y, ctx);
  if (mem == nullptr) check(-1, "ERKStepCreate");
  check(ERKStepSetTableNum(mem, ARKODE_DORMAND_PRINCE_7_4_5), "ERKStepSetTableNum");
  check(ERK(SStolerances, mem, rtol, atol), "SStolerances");
  check(ERK(SetUserData, mem, &n), "SetUserData");
  check(ERK(SetMaxNumSteps, mem, 100'000'000), "SetMaxNumSteps");
  check(ERK(SetStopTime, mem, balls.stop_time), "SetStopTime");
  check(ERK(RootInit, mem, roots, ground), "RootInit");
  check(ERK(SetRootDirection, mem, direction.data()), "SetRootDirection");
  check(ERK(SetNoInactiveRootWarn, mem), "SetNoInactiveRootWarn");
  if (interp_degree >= 0) check(ERK(SetInterpolantDegree, mem, interp_degree), "SetInterpolantDegree");

  sunrealtype t = 0.0;
  while (t < balls.stop_time) {
    const int flag = ERK(Evolve, mem, balls.stop_time, y, &t, ARK_NORMAL);
    check(flag, "Evolve");
    // SUNDIALS 6.4.1 zeroes the root-function counter at the first Evolve after a
    // Reset (the step and RHS counters keep counting): add it up per segment.
    long g_evals = 0;
    check(ERK(GetNumGEvals, mem, &g_evals), "GetNumGEvals");
    run.g_evals += g_evals;
    if (flag != ARK_ROOT_RETURN) break;  // ARK_TSTOP_RETURN (or ARK_SUCCESS) at the stop time
    check(ERK(GetRootInfo, mem, found.data()), "GetRootInfo");
    for (int i = 0; i < roots; ++i) {
      if (found[static_cast<std::size_t>(i)] == 0) continue;
      run.impacts.push_back({static_cast<std::size_t>(i), t});
      ys[n + i] = -kRestitution * ys[n + i];
      // ARKODE returns the state at the far side of the root (h_i slightly below 0,
      // by up to its root tolerance 100 uround (|t| + |step|)); restarting from
      // there, h_i < 0 then rising, a first step long enough to span the whole
      // flight (likely: the solution is a parabola, which Dormand-Prince
      // integrates exactly, so the step grows 20x per step) ends with h_i < 0
      // again and the next impact is never seen. Only an exact zero at t0 is
      // handled by ARKODE (the root function is inactive until it leaves 0), so
      // the ball is put on the ground.
      ys[i] = 0.0;
    }
    check(ERK(Reset, mem, t, y), "Reset");
    // SUNDIALS 6.4.1's Reset forgets the stop time: without this the steps run far
    // past it (76 s steps in balls100, stop time 20 s), every root is then
    // interpolated inside such a step, and the worst impact error grows 45-fold.
    check(ERK(SetStopTime, mem, balls.stop_time), "SetStopTime");
    ++run.resets;
  }
  get_counts(mem, run.steps, run.rhs_evals);
  const auto stop = std::chrono::steady_clock::now();
  run.wall_s = std::chrono::duration<double>(stop - start).count();
  ERK(Free, &mem);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
  return run;
}

void bench(const Balls& balls, double rtol, double atol, int interp_degree, int repeats) {
  const Run best = best_of<Run>(repeats, [&] { return integrate(balls, rtol, atol, interp_degree); });
  const Errors errors = impact_errors(balls, best.impacts);
  std::printf(
      "model=%s n=%zu rtol=%g atol=%g wall_s=%.6f impacts=%zu expected=%ld max_abs_err=%.3e "
      "max_rel_err=%.3e worst_ball=%ld worst_impact=%ld steps=%ld rhs_evals=%ld g_evals=%ld resets=%ld "
      "interp_degree=%s fused=%d repeats=%d sundials=%s\n",
      balls.name.c_str(), balls.h0.size(), rtol, atol, best.wall_s, best.impacts.size(),
      expected_impacts(balls), errors.max_abs, errors.max_rel, errors.worst_ball, errors.worst_impact,
      best.steps, best.rhs_evals, best.g_evals, best.resets,
      interp_degree < 0 ? "default" : std::to_string(interp_degree).c_str(), fused_ops() ? 1 : 0, repeats,
      SUNDIALS_VERSION);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  if ((which != "all" && which != "balls100" && ball1_impacts(which) == 0) || argc == 4 || argc > 6) {
    std::fprintf(stderr,
                 "usage: %s [ball1|ball1@N|balls100|all] [repeats] [rtol atol [interpolant_degree]]\n",
                 argv[0]);
    return 2;
  }
  std::vector<std::pair<double, double>> tolerances{{1e-10, 1e-12}, {1e-6, 1e-9}};
  if (argc >= 5) tolerances = {{std::atof(argv[3]), std::atof(argv[4])}};
  const int interp_degree = argc == 6 ? std::atoi(argv[5]) : -1;
  for (const auto& [rtol, atol] : tolerances) {
    if (ball1_impacts(which) > 0) bench(ball1(ball1_impacts(which)), rtol, atol, interp_degree, repeats);
    if (which == "all" || which == "balls100") bench(balls100(), rtol, atol, interp_degree, repeats);
  }
  return 0;
}
