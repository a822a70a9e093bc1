#pragma once
// The statespace model of the CT benchmarks, shared by ct_bench.cpp (a ctde
// StateSpace actor) and handwritten_arkode.cpp (bare ARKODE), so that both
// integrate the same x' = A x + B u: a chain wall–m1–…–m4 of unit masses
// joined by springs kSpring and dampers kDamper, x = (p1..p4, v1..v4).

namespace mass_chain {

constexpr double kSpring = 1.0;
constexpr double kDamper = 0.1;
constexpr int kMasses = 4;
constexpr int kN = 2 * kMasses;  ///< states

/// Writes the non-zero entries of A through `at(i, j)` (a double& for row i,
/// column j of a zeroed n × n matrix).
template <class At>
void fill_a(At&& at) {
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
}

}  // namespace mass_chain
