#include "domains/ct/band_solver_impl.hpp"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_band.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "domains/ct/direct_solver_impl.hpp"

namespace ctde {

namespace {

struct BandContent {
  std::vector<sunindextype> pivots;  // row interchanged with k at step k
  /// 1 / U(k, k): the backward substitution multiplies (a division's
  /// latency, on its chain of dependent rows, was most of the solve).
  std::vector<sunrealtype> inverse_diagonal;
  sunindextype last_flag = 0;
};

BandContent& content(SUNLinearSolver s) { return direct_content<BandContent>(s); }

/// A(i, j) of the band matrix `a` is column(j)[i - j]: column j's pointer at
/// its diagonal. The pointers are read from the matrix's own table:
/// SUNBandMatrix_Column is a call into Debian's -O0 library per column
/// (5 % of the heat network's run at N = 1e5, bench/stiff).
class BandColumns {
 public:
  explicit BandColumns(SUNMatrix a)
      : cols_(SUNBandMatrix_Cols(a)), stored_upper_(SUNBandMatrix_StoredUpperBandwidth(a)) {}
  [[nodiscard]] sunrealtype* operator()(sunindextype j) const { return cols_[j] + stored_upper_; }

 private:
  sunrealtype** cols_;
  sunindextype stored_upper_;
};

int band_setup(SUNLinearSolver s, SUNMatrix a) {
  BandContent& c = content(s);
  const BandColumns column(a);
  const sunindextype n = SUNBandMatrix_Columns(a);
  const sunindextype ml = SUNBandMatrix_LowerBandwidth(a);
  const sunindextype smu = SUNBandMatrix_StoredUpperBandwidth(a);
  c.pivots.resize(static_cast<std::size_t>(n));
  c.inverse_diagonal.resize(static_cast<std::size_t>(n));
  // The fill-in rows above the upper band start at zero.
  const sunindextype mu = SUNBandMatrix_UpperBandwidth(a);
  for (sunindextype j = 0; j < n; ++j) {
    sunrealtype* col = column(j);
    for (sunindextype i = std::max<sunindextype>(0, j - smu); i < j - mu; ++i) col[i - j] = 0.0;
  }
  for (sunindextype k = 0; k < n; ++k) {
    sunrealtype* __restrict col_k = column(k);
    const sunindextype last_row = std::min(n - 1, k + ml);
    // The pivot: the largest magnitude in column k at or below the diagonal.
    sunindextype l = k;
    sunrealtype largest = std::abs(col_k[0]);
    for (sunindextype i = k + 1; i <= last_row; ++i) {
      if (std::abs(col_k[i - k]) > largest) {
        largest = std::abs(col_k[i - k]);
        l = i;
      }
    }
    c.pivots[static_cast<std::size_t>(k)] = l;
    if (largest == 0.0) {
      c.last_flag = k + 1;
      return static_cast<int>(std::min<sunindextype>(k + 1, 1'000'000'000));  // > 0: recoverable
    }
    const sunindextype last_col = std::min(n - 1, k + smu);
    if (l != k) {
      for (sunindextype j = k; j <= last_col; ++j) {
        sunrealtype* col_j = column(j);
        std::swap(col_j[k - j], col_j[l - j]);
      }
    }
    // The multipliers, then the update of the columns to the right.
    const sunrealtype inverse = 1.0 / col_k[0];
    c.inverse_diagonal[static_cast<std::size_t>(k)] = inverse;
    for (sunindextype i = k + 1; i <= last_row; ++i) col_k[i - k] *= inverse;
    for (sunindextype j = k + 1; j <= last_col; ++j) {
      sunrealtype* __restrict col_j = column(j);
      const sunrealtype a_kj = col_j[k - j];
      if (a_kj == 0.0) continue;
      for (sunindextype i = k + 1; i <= last_row; ++i) col_j[i - j] -= col_k[i - k] * a_kj;
    }
  }
  c.last_flag = 0;
  return 0;
}

int band_solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, sunrealtype /*tol*/) {
  BandContent& c = content(s);
  const BandColumns column(a);
  const sunindextype n = SUNBandMatrix_Columns(a);
  const sunindextype ml = SUNBandMatrix_LowerBandwidth(a);
  const sunindextype smu = SUNBandMatrix_StoredUpperBandwidth(a);
  sunrealtype* __restrict y = NV_DATA_S(x);
  if (x != b) std::copy(NV_DATA_S(b), NV_DATA_S(b) + n, y);
  // L: the interchanges and the multipliers, forward.
  for (sunindextype k = 0; k < n; ++k) {
    const sunindextype l = c.pivots[static_cast<std::size_t>(k)];
    if (l != k) std::swap(y[k], y[l]);
    const sunrealtype yk = y[k];
    if (yk == 0.0) continue;
    const sunrealtype* __restrict col_k = column(k);
    const sunindextype last_row = std::min(n - 1, k + ml);
    for (sunindextype i = k + 1; i <= last_row; ++i) y[i] -= col_k[i - k] * yk;
  }
  // U, backward.
  for (sunindextype k = n - 1; k >= 0; --k) {
    const sunrealtype* __restrict col_k = column(k);
    const sunrealtype yk = y[k] * c.inverse_diagonal[static_cast<std::size_t>(k)];
    y[k] = yk;
    for (sunindextype i = std::max<sunindextype>(0, k - smu); i < k; ++i) y[i] -= col_k[i - k] * yk;
  }
  c.last_flag = 0;
  return 0;
}

}  // namespace

SUNLinearSolver make_band_solver(SUNContext ctx) {
  return make_direct_solver<BandContent>(ctx, band_setup, band_solve);
}

}  // namespace ctde
