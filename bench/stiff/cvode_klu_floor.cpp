// The floor of the stiff benchmark (issue 30): its models written by hand on
// SUNDIALS CVODE, BDF (variable order 1-5) with Newton iterations, the exact
// Jacobian in a compressed-sparse-column SUNSparseMatrix and the KLU sparse
// direct solver; no ctde. ctde's runs of the same models, and
// bench/stiff/scipy_bdf.py, are compared with this.
//
//   heat N      x_i' = c (x_{i-1} - 2 x_i + x_{i+1}), i = 0..N-1, c = (N+1)^2,
//               walls at 0 (x_{-1} = x_N = 0); x(0) = 1 for N/4 <= i < 3N/4,
//               else 0; t in [0, 1], rtol 1e-6, atol 1e-9, CV_NORMAL to the
//               stop time 1. Jacobian: tridiagonal, 3N - 2 nonzeros.
//   robertson   Robertson's chemical kinetics (3 species), y(0) = (1, 0, 0),
//               out to t = 0.4, 4e5 and 4e10 (CV_NORMAL, the last one the stop
//               time); rtol and atol: kRobertsonRtol, kRobertsonAtol below.
//
// Output, one line per run (key=value pairs, as bench/ct/handwritten_arkode.cpp):
//   model=heat n=... wall_s=... steps=... rhs_evals=... jac_evals=... lin_setups=...
//   checksum=... repeats=... sundials=...
// robertson adds, per output time T, y_T=y1,y2,y3 and relerr_T=e1,e2,e3 (the
// relative errors against the reference values below), and max_relerr. wall_s
// is the best of `repeats` runs (bench/best_of.hpp), timed from the creation
// of the state vector to the end time; checksum is the sum of the final state.
//
// Built by bench/CMakeLists.txt. Written against SUNDIALS 6.4; builds on 7.x.
// Run: cvode_klu_floor heat N [repeats] | cvode_klu_floor robertson [repeats]

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/best_of.hpp"

namespace {

/// Ends the program when a SUNDIALS call failed (flag < 0), naming the call.
void check(int flag, const char* call) {
  if (flag < 0) {
    std::fprintf(stderr, "error: %s returned %d\n", call, flag);
    std::exit(1);
  }
}

/// Ends the program when a SUNDIALS constructor returned null, naming it.
template <class T>
T checked(T made, const char* call) {
  if (made == nullptr) check(-1, call);
  return made;
}

/// A new SUNDIALS context (free it with SUNContext_Free).
SUNContext new_context() {
  SUNContext ctx = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  check(SUNContext_Create(SUN_COMM_NULL, &ctx), "SUNContext_Create");
#else
  check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
#endif
  return ctx;
}

// ---- heat equation --------------------------------------------------------------------

constexpr double kHeatRtol = 1e-6;
constexpr double kHeatAtol = 1e-9;
constexpr double kHeatTEnd = 1.0;

/// The heat equation's size: N cells and c = (N+1)^2.
struct Heat {
  sunindextype n = 0;
  double c = 0;
};

int heat_rhs(sunrealtype /*t*/, N_Vector x, N_Vector dxdt, void* user) {
  const Heat& heat = *static_cast<const Heat*>(user);
  const double* xs = NV_DATA_S(x);
  double* d = NV_DATA_S(dxdt);
  const sunindextype n = heat.n;  // n >= 2
  d[0] = heat.c * (-2.0 * xs[0] + xs[1]);
  for (sunindextype i = 1; i + 1 < n; ++i) d[i] = heat.c * (xs[i - 1] - 2.0 * xs[i] + xs[i + 1]);
  d[n - 1] = heat.c * (xs[n - 2] - 2.0 * xs[n - 1]);
  return 0;
}

/// The exact Jacobian, column by column: column j has c at rows j-1 and j+1
/// (where they exist) and -2c at row j.
int heat_jac(sunrealtype /*t*/, N_Vector /*x*/, N_Vector /*fx*/, SUNMatrix jac, void* user, N_Vector /*tmp1*/,
             N_Vector /*tmp2*/, N_Vector /*tmp3*/) {
  const Heat& heat = *static_cast<const Heat*>(user);
  sunindextype* colptrs = SM_INDEXPTRS_S(jac);
  sunindextype* rows = SM_INDEXVALS_S(jac);
  double* values = SM_DATA_S(jac);
  sunindextype k = 0;
  for (sunindextype j = 0; j < heat.n; ++j) {
    colptrs[j] = k;
    if (j > 0) {
      rows[k] = j - 1;
      values[k++] = heat.c;
    }
    rows[k] = j;
    values[k++] = -2.0 * heat.c;
    if (j + 1 < heat.n) {
      rows[k] = j + 1;
      values[k++] = heat.c;
    }
  }
  colptrs[heat.n] = k;
  return 0;
}

// ---- Robertson ------------------------------------------------------------------------

constexpr int kOutputs = 3;
constexpr std::array<double, kOutputs> kRobertsonTimes = {0.4, 4e5, 4e10};
constexpr std::array<const char*, kOutputs> kRobertsonTimeNames = {"0.4", "4e5", "4e10"};

// Reference values y(T) = (y1, y2, y3) of Robertson's problem. Published
// tables do not give these times to the digits needed here: the SUNDIALS
// example cvRoberts_dns.out (and LSODE's demo) prints them from a run at
// rtol 1e-4 (its y1(4e10) = 3.63e-8 is 30 % off), and the IVP test set of
// Mazzia et al. ("rober", also in Hairer & Wanner) gives its reference at
// t = 1e11 only: y = (0.2083340149701255e-7, 0.8333360770334713e-13,
// 0.9999999791665050). So they were computed for this benchmark: scipy 1.10
// solve_ivp Radau with the analytic Jacobian, rtol 1e-13, atol (1e-22, 1e-26,
// 1e-22), dense output at the three times. The same run carried on to 1e11
// matches the test set's reference there to 6e-13 relative, and this
// program at rtol 1e-14 with the same atol (ROBERTSON_RTOL, ROBERTSON_ATOL
// below) agrees with every value to 2e-12 relative.
constexpr std::array<std::array<double, 3>, kOutputs> kRobertsonReference = {{
    {9.8517211386099057e-01, 3.3863953789749069e-05, 1.4794022185220397e-02},
    {4.9382745209800589e-03, 1.9849940879544517e-08, 9.9506170562909002e-01},
    {5.2083451767988950e-08, 2.0833381779253179e-13, 9.9999994791635582e-01},
}};

// Tolerances: rtol 1e-8 with each species' atol about 1e-8 of the smallest
// value it must be accurate at (y1 5e-8 and y2 2e-13 at t = 4e10; y3 from its
// start at 0). The usual atol (1e-10, 1e-14, 1e-8), about 1e-8 of each
// species' largest value, leaves y1 and y2 at 4e10, far below their atol,
// 1.8e-3 relative off; these give 1.2e-7 at most (issue 30 asks 1e-6).
constexpr double kRobertsonRtol = 1e-8;
constexpr std::array<double, 3> kRobertsonAtol = {1e-16, 1e-21, 1e-12};

int robertson_rhs(sunrealtype /*t*/, N_Vector y, N_Vector dydt, void* /*user*/) {
  const double* ys = NV_DATA_S(y);
  double* d = NV_DATA_S(dydt);
  const double decay = 0.04 * ys[0];
  const double back = 1e4 * ys[1] * ys[2];
  const double fast = 3e7 * ys[1] * ys[1];
  d[0] = -decay + back;
  d[1] = decay - back - fast;
  d[2] = fast;
  return 0;
}

/// The exact Jacobian: 7 nonzeros (d y3'/d y1 and d y3'/d y3 are zero).
int robertson_jac(sunrealtype /*t*/, N_Vector y, N_Vector /*fy*/, SUNMatrix jac, void* /*user*/,
                  N_Vector /*tmp1*/, N_Vector /*tmp2*/, N_Vector /*tmp3*/) {
  const double* ys = NV_DATA_S(y);
  sunindextype* colptrs = SM_INDEXPTRS_S(jac);
  sunindextype* rows = SM_INDEXVALS_S(jac);
  double* values = SM_DATA_S(jac);
  const std::array<sunindextype, 4> cols = {0, 2, 5, 7};
  const std::array<sunindextype, 7> row_of = {0, 1, 0, 1, 2, 0, 1};
  std::copy(cols.begin(), cols.end(), colptrs);
  std::copy(row_of.begin(), row_of.end(), rows);
  values[0] = -0.04;  // column y1: rows y1', y2'
  values[1] = 0.04;
  values[2] = 1e4 * ys[2];  // column y2: rows y1', y2', y3'
  values[3] = -1e4 * ys[2] - 6e7 * ys[1];
  values[4] = 6e7 * ys[1];
  values[5] = 1e4 * ys[1];  // column y3: rows y1', y2'
  values[6] = -1e4 * ys[1];
  return 0;
}

// ---- driver ---------------------------------------------------------------------------

struct Run : TimedRun {
  long jac_evals = 0;
  long lin_setups = 0;
  double checksum = 0.0;
  std::array<std::array<double, 3>, kOutputs> outputs{};  // robertson: y at each output time
};

/// What one integration needs: the system, its size, Jacobian nonzeros,
/// initial state, tolerances and output times (the last one the stop time).
struct Problem {
  CVRhsFn rhs = nullptr;
  CVLsJacFn jac = nullptr;
  void* user = nullptr;
  sunindextype n = 0;
  sunindextype nonzeros = 0;
  void (*initial)(const Problem&, double*) = nullptr;
  double rtol = 0;
  const double* atol = nullptr;  // n values, or one when scalar_atol
  bool scalar_atol = true;
  const double* times = nullptr;  // n_times of them, at most kOutputs
  int n_times = 0;
  bool keep_outputs = false;  // the state at each time into Run::outputs (n = 3)
};

Run integrate(const Problem& p, SUNContext ctx) {
  const auto start = std::chrono::steady_clock::now();
  N_Vector x = checked(N_VNew_Serial(p.n, ctx), "N_VNew_Serial");
  p.initial(p, NV_DATA_S(x));
  void* mem = checked(CVodeCreate(CV_BDF, ctx), "CVodeCreate");
  check(CVodeInit(mem, p.rhs, 0.0, x), "CVodeInit");
  N_Vector atol_vector = nullptr;
  if (p.scalar_atol) {
    check(CVodeSStolerances(mem, p.rtol, p.atol[0]), "CVodeSStolerances");
  } else {
    atol_vector = checked(N_VNew_Serial(p.n, ctx), "N_VNew_Serial");
    std::copy(p.atol, p.atol + p.n, NV_DATA_S(atol_vector));
    check(CVodeSVtolerances(mem, p.rtol, atol_vector), "CVodeSVtolerances");
  }
  check(CVodeSetUserData(mem, p.user), "CVodeSetUserData");
  check(CVodeSetMaxNumSteps(mem, 10'000'000), "CVodeSetMaxNumSteps");
  SUNMatrix jac = checked(SUNSparseMatrix(p.n, p.n, p.nonzeros, CSC_MAT, ctx), "SUNSparseMatrix");
  SUNLinearSolver solver = checked(SUNLinSol_KLU(x, jac, ctx), "SUNLinSol_KLU");
  check(CVodeSetLinearSolver(mem, solver, jac), "CVodeSetLinearSolver");
  check(CVodeSetJacFn(mem, p.jac), "CVodeSetJacFn");
  check(CVodeSetStopTime(mem, p.times[p.n_times - 1]), "CVodeSetStopTime");

  Run run;
  sunrealtype t = 0.0;
  for (int k = 0; k < p.n_times; ++k) {
    check(CVode(mem, p.times[k], x, &t, CV_NORMAL), "CVode");
    if (p.keep_outputs) std::copy(NV_DATA_S(x), NV_DATA_S(x) + 3, run.outputs[k].begin());
  }
  const auto stop = std::chrono::steady_clock::now();

  run.wall_s = std::chrono::duration<double>(stop - start).count();
  check(CVodeGetNumSteps(mem, &run.steps), "CVodeGetNumSteps");
  check(CVodeGetNumRhsEvals(mem, &run.rhs_evals), "CVodeGetNumRhsEvals");
  check(CVodeGetNumJacEvals(mem, &run.jac_evals), "CVodeGetNumJacEvals");
  check(CVodeGetNumLinSolvSetups(mem, &run.lin_setups), "CVodeGetNumLinSolvSetups");
  const double* xs = NV_DATA_S(x);
  for (sunindextype i = 0; i < p.n; ++i) run.checksum += xs[i];
  CVodeFree(&mem);
  SUNLinSolFree(solver);
  SUNMatDestroy(jac);
  if (atol_vector != nullptr) N_VDestroy(atol_vector);
  N_VDestroy(x);
  return run;
}

void print_counts(const char* model, sunindextype n, const Run& best) {
  std::printf(
      "model=%s n=%lld wall_s=%.6f steps=%ld rhs_evals=%ld jac_evals=%ld lin_setups=%ld checksum=%.12g",
      model, static_cast<long long>(n), best.wall_s, best.steps, best.rhs_evals, best.jac_evals,
      best.lin_setups, best.checksum);
}

void heat_initial(const Problem& p, double* x) {
  for (sunindextype i = 0; i < p.n; ++i) x[i] = (4 * i >= p.n && 4 * i < 3 * p.n) ? 1.0 : 0.0;
}

void bench_heat(sunindextype n, int repeats, SUNContext ctx) {
  Heat heat{n, static_cast<double>(n + 1) * static_cast<double>(n + 1)};
  Problem p;
  p.rhs = heat_rhs;
  p.jac = heat_jac;
  p.user = &heat;
  p.n = n;
  p.nonzeros = 3 * n - 2;
  p.initial = heat_initial;
  p.rtol = kHeatRtol;
  p.atol = &kHeatAtol;
  p.times = &kHeatTEnd;
  p.n_times = 1;
  const Run best = best_of<Run>(repeats, [&] { return integrate(p, ctx); });
  print_counts("heat", n, best);
  std::printf(" repeats=%d sundials=%s\n", repeats, SUNDIALS_VERSION);
}

void robertson_initial(const Problem& /*p*/, double* y) {
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.0;
}

void bench_robertson(int repeats, SUNContext ctx) {
  Problem p;
  p.rhs = robertson_rhs;
  p.jac = robertson_jac;
  p.n = 3;
  p.nonzeros = 7;
  p.initial = robertson_initial;
  p.rtol = kRobertsonRtol;
  p.atol = kRobertsonAtol.data();
  p.scalar_atol = false;
  p.times = kRobertsonTimes.data();
  p.n_times = kOutputs;
  p.keep_outputs = true;
  // ROBERTSON_RTOL and ROBERTSON_ATOL=a1,a2,a3 in the environment replace the
  // tolerances (to compute or check the reference values); not for timing.
  std::array<double, 3> atol = kRobertsonAtol;
  if (const char* v = std::getenv("ROBERTSON_RTOL")) p.rtol = std::strtod(v, nullptr);
  if (const char* v = std::getenv("ROBERTSON_ATOL")) {
    char* end = nullptr;
    for (double& a : atol) {
      a = std::strtod(v, &end);
      v = *end == ',' ? end + 1 : end;
    }
    p.atol = atol.data();
  }
  const Run best = best_of<Run>(repeats, [&] { return integrate(p, ctx); });
  print_counts("robertson", p.n, best);
  double max_error = 0.0;
  for (int k = 0; k < kOutputs; ++k) {
    const std::array<double, 3>& y = best.outputs[k];
    std::array<double, 3> error{};
    for (int i = 0; i < 3; ++i) {
      const double ref = kRobertsonReference[k][i];
      error[i] = std::fabs(y[i] - ref) / std::fabs(ref);
      max_error = std::max(max_error, error[i]);
    }
    std::printf(" y_%s=%.17g,%.17g,%.17g relerr_%s=%.2e,%.2e,%.2e", kRobertsonTimeNames[k], y[0], y[1], y[2],
                kRobertsonTimeNames[k], error[0], error[1], error[2]);
  }
  std::printf(" max_relerr=%.2e rtol=%g atol=%g,%g,%g repeats=%d sundials=%s\n", max_error, p.rtol, p.atol[0],
              p.atol[1], p.atol[2], repeats, SUNDIALS_VERSION);
}

int usage(const char* program) {
  std::fprintf(stderr, "usage: %s heat N [repeats] | %s robertson [repeats]\n", program, program);
  return 2;
}

/// A whole number > 0 from `text`, or 0 when it is not one.
long positive(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return (*end == '\0' && value > 0) ? value : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(argv[0]);
  const std::string model = argv[1];
  SUNContext ctx = new_context();
  if (model == "heat" && (argc == 3 || argc == 4)) {
    const long n = positive(argv[2]);
    const long repeats = argc == 4 ? positive(argv[3]) : 3;
    if (n < 2 || repeats == 0) return usage(argv[0]);
    bench_heat(static_cast<sunindextype>(n), static_cast<int>(repeats), ctx);
  } else if (model == "robertson" && (argc == 2 || argc == 3)) {
    const long repeats = argc == 3 ? positive(argv[2]) : 20;
    if (repeats == 0) return usage(argv[0]);
    bench_robertson(static_cast<int>(repeats), ctx);
  } else {
    return usage(argv[0]);
  }
  SUNContext_Free(&ctx);
  return 0;
}
