#pragma once
// The residual of a solved linear system, for the tests of the linear
// solvers (tests/ct/test_band_solver.cpp, test_dense_solver.cpp).

#include <nvector/nvector_serial.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ctde::test {

/// The largest |(A x - b)_i| of the n × n matrix `a` (column-major, zeros
/// included), and the largest |x_j|: a backward-stable solve has the first
/// at roundoff relative to the second.
struct Residual {
  double largest = 0;
  double x_norm = 0;
};
inline Residual residual(const std::vector<double>& a, sunindextype n, N_Vector x, N_Vector b) {
  Residual r;
  for (sunindextype j = 0; j < n; ++j) r.x_norm = std::max(r.x_norm, std::abs(NV_Ith_S(x, j)));
  for (sunindextype i = 0; i < n; ++i) {
    double row = -NV_Ith_S(b, i);
    for (sunindextype j = 0; j < n; ++j) row += a[static_cast<std::size_t>(i + j * n)] * NV_Ith_S(x, j);
    r.largest = std::max(r.largest, std::abs(row));
  }
  return r;
}

}  // namespace ctde::test
