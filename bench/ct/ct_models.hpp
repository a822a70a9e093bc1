#pragma once
// The two ODEs of the CT benchmark, written directly (no ctde, no ARKODE):
// read by the hand-written ARKODE baseline, the Dormand–Prince floor and,
// for the matrices, the ctde model of the same system (ct_bench.cpp).
//
//   statespace  x' = A x + B u, n = 8: a chain wall–m1–m2–m3–m4 of unit masses
//               joined by springs k = 1 and dampers c = 0.1, u = 1 pushing m4;
//               A and B dense, the right-hand side a dense matrix-vector product
//               (what a StateSpace actor computes). x = (p1..p4, v1..v4).
//   chain1000   1000 unit masses in a line between two walls, each joined to
//               its neighbours (or the wall) by a spring k = 1 and a damper
//               c = 0.1; mass 1 driven by the force sin(t). x = (p1, v1, p2, v2, ...).
//
// Both start at x(0) = 0 and run on t in [0, 100] at rtol 1e-6, atol 1e-9.
// Also the command line of the two baselines, `[statespace|chain1000|all] [repeats]`.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace ct_models {

constexpr double kT0 = 0.0;
constexpr double kTEnd = 100.0;
constexpr double kRtol = 1e-6;
constexpr double kAtol = 1e-9;
constexpr double kSpring = 1.0;
constexpr double kDamper = 0.1;

struct StateSpace {
  static constexpr int kMasses = 4;
  static constexpr int kN = 2 * kMasses;
  std::array<double, kN * kN> a{};  // row-major
  std::array<double, kN> b{};
  double u = 1.0;

  StateSpace() {
    const auto at = [this](int i, int j) -> double& { return a[static_cast<std::size_t>(i * kN + j)]; };
    for (int i = 0; i < kMasses; ++i) {
      at(i, kMasses + i) = 1.0;  // p_i' = v_i
      const int v = kMasses + i;
      // spring and damper to the left neighbour (or the wall) and to the right one
      const int links = i + 1 < kMasses ? 2 : 1;
      at(v, i) = -kSpring * links;
      at(v, kMasses + i) = -kDamper * links;
      if (i > 0) {
        at(v, i - 1) = kSpring;
        at(v, kMasses + i - 1) = kDamper;
      }
      if (i + 1 < kMasses) {
        at(v, i + 1) = kSpring;
        at(v, kMasses + i + 1) = kDamper;
      }
    }
    b[kN - 1] = 1.0;  // u pushes the last mass
  }

  // The terms in the StateSpace actor's order (A x, then B u), so that the
  // floor, given ctde's steps, computes ctde's numbers.
  void derivatives(double /*t*/, const double* x, double* d) const {
    for (int i = 0; i < kN; ++i) {
      double sum = 0.0;
      for (int j = 0; j < kN; ++j) sum += a[static_cast<std::size_t>(i * kN + j)] * x[j];
      d[i] = sum + b[static_cast<std::size_t>(i)] * u;
    }
  }
};

struct Chain {
  static constexpr int kMasses = 1000;
  static constexpr int kN = 2 * kMasses;

  // x = (p1, v1, p2, v2, ...): ctde's order of the states (the two Integrators
  // of each mass in turn), so that the error norm adds the same terms in the
  // same order as ctde's and the floor takes ctde's steps. Each derivative is
  // the expression ctde's actors compute, term for term.
  static void derivatives(double t, const double* x, double* d) {
    for (int i = 0; i < kMasses; ++i) {
      const double p = x[2 * i];
      const double v = x[2 * i + 1];
      const double p_left = i > 0 ? x[2 * i - 2] : 0.0;  // walls at both ends
      const double v_left = i > 0 ? x[2 * i - 1] : 0.0;
      const double p_right = i + 1 < kMasses ? x[2 * i + 2] : 0.0;
      const double v_right = i + 1 < kMasses ? x[2 * i + 3] : 0.0;
      d[2 * i] = v;
      d[2 * i + 1] = kSpring * (p_left - 2.0 * p + p_right) + kDamper * (v_left - 2.0 * v + v_right);
    }
    d[1] += std::sin(t);
  }
};

/// The baselines' command line: which models to run and how many times.
struct Arguments {
  std::string which = "all";  ///< "statespace", "chain1000" or "all"
  int repeats = 0;            ///< at least 1; 0 when not given

  /// Whether `model` is to run.
  [[nodiscard]] bool runs(const std::string& model) const { return which == "all" || which == model; }
  /// The repeats given, else the model's own default `fallback`.
  [[nodiscard]] int repeats_or(int fallback) const { return repeats > 0 ? repeats : fallback; }
};

/// Reads `PROGRAM [statespace|chain1000|all] [repeats]`; prints the usage
/// and returns nothing when the model is none of these.
inline std::optional<Arguments> parse_arguments(int argc, char** argv) {
  Arguments args;
  if (argc > 1) args.which = argv[1];
  if (argc > 2) args.repeats = std::max(1, std::atoi(argv[2]));
  if (args.which != "all" && args.which != "statespace" && args.which != "chain1000") {
    std::fprintf(stderr, "usage: %s [statespace|chain1000|all] [repeats]\n", argv[0]);
    return std::nullopt;
  }
  return args;
}

}  // namespace ct_models
