#include "domains/ct/dense_solver_impl.hpp"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/fast_paths.hpp"
#include "domains/ct/direct_solver_impl.hpp"

// LAPACK's LU factorization and solve (Debian's liblapack; the trailing
// length is gfortran's hidden length of the CHARACTER argument).
// NOLINTBEGIN(readability-identifier-naming): LAPACK's names
extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
extern "C" void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
                        const int* ipiv, double* b, const int* ldb, int* info, std::size_t trans_length);
// NOLINTEND(readability-identifier-naming)

namespace ctde {

namespace {

/// A failure the integrator cannot recover from (a negative return; SUNDIALS
/// 6 and 7 name their codes differently, both take any negative one).
constexpr int kUnrecoverable = -1;

struct DenseContent {
  std::vector<int> pivots;  // LAPACK's: row k was interchanged with row pivots[k] (1-based)
  sunindextype last_flag = 0;
};

/// Up to this order the LU is small_lu's loop: LAPACK's calls (its
/// blocking, its checks, BLAS's dispatch) cost more than a small matrix's
/// arithmetic (Robertson's 3 states ran 10 % slower through them). A fast
/// path (core/fast_paths.hpp): off, LAPACK factors every order.
constexpr int kSmall = 16;

/// True when small_lu and small_solve serve order n.
bool small(int n) {
  static const bool fast = fast_paths_enabled();
  return fast && n <= kSmall;
}

/// LAPACK's dgetrf for small n, unblocked: column-major `a` (leading
/// dimension n) overwritten by L (unit diagonal, below) and U; pivots
/// 1-based as LAPACK's (the first largest magnitude of each column). Returns
/// LAPACK's info: 0, or the 1-based column of the first zero pivot.
int small_lu(double* a, int n, int* pivots) {
  int info = 0;
  for (int k = 0; k < n; ++k) {
    double* col_k = a + static_cast<std::ptrdiff_t>(k) * n;
    int l = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::abs(col_k[i]) > std::abs(col_k[l])) l = i;
    }
    pivots[k] = l + 1;
    if (col_k[l] == 0.0) {
      if (info == 0) info = k + 1;
      continue;  // as LAPACK: the elimination goes on, U is singular
    }
    if (l != k) {
      for (int j = 0; j < n; ++j)
        std::swap(a[k + static_cast<std::ptrdiff_t>(j) * n], a[l + static_cast<std::ptrdiff_t>(j) * n]);
    }
    const double inverse = 1.0 / col_k[k];
    for (int i = k + 1; i < n; ++i) col_k[i] *= inverse;
    for (int j = k + 1; j < n; ++j) {
      double* col_j = a + static_cast<std::ptrdiff_t>(j) * n;
      const double a_kj = col_j[k];
      if (a_kj == 0.0) continue;
      for (int i = k + 1; i < n; ++i) col_j[i] -= col_k[i] * a_kj;
    }
  }
  return info;
}

/// LAPACK's dgetrs for small_lu's factors: y <- A⁻¹ y.
void small_solve(const double* a, int n, const int* pivots, double* y) {
  for (int k = 0; k < n; ++k) {
    const int l = pivots[k] - 1;
    if (l != k) std::swap(y[k], y[l]);
  }
  for (int k = 0; k < n; ++k) {  // L, unit diagonal
    const double* col_k = a + static_cast<std::ptrdiff_t>(k) * n;
    for (int i = k + 1; i < n; ++i) y[i] -= col_k[i] * y[k];
  }
  for (int k = n - 1; k >= 0; --k) {  // U
    const double* col_k = a + static_cast<std::ptrdiff_t>(k) * n;
    y[k] /= col_k[k];
    for (int i = 0; i < k; ++i) y[i] -= col_k[i] * y[k];
  }
}

DenseContent& content(SUNLinearSolver s) { return direct_content<DenseContent>(s); }

int dense_setup(SUNLinearSolver s, SUNMatrix a) {
  DenseContent& c = content(s);
  const sunindextype n = SUNDenseMatrix_Columns(a);
  if (SUNDenseMatrix_Rows(a) != n || n > INT_MAX) {
    c.last_flag = kUnrecoverable;
    return kUnrecoverable;
  }
  const int size = static_cast<int>(n);
  c.pivots.resize(static_cast<std::size_t>(n));
  int info = 0;
  if (small(size)) {
    info = small_lu(SUNDenseMatrix_Data(a), size, c.pivots.data());
  } else {
    dgetrf_(&size, &size, SUNDenseMatrix_Data(a), &size, c.pivots.data(), &info);
  }
  c.last_flag = info;
  if (info < 0) return kUnrecoverable;
  return info;  // > 0: U(info, info) is zero, recoverable
}

int dense_solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, sunrealtype /*tol*/) {
  DenseContent& c = content(s);
  const auto n = static_cast<int>(SUNDenseMatrix_Columns(a));
  sunrealtype* y = NV_DATA_S(x);
  if (x != b) std::copy(NV_DATA_S(b), NV_DATA_S(b) + n, y);
  const int one = 1;
  int info = 0;
  if (small(n)) {
    small_solve(SUNDenseMatrix_Data(a), n, c.pivots.data(), y);
  } else {
    dgetrs_("N", &n, &one, SUNDenseMatrix_Data(a), &n, c.pivots.data(), y, &n, &info, 1);
  }
  c.last_flag = info;
  return info == 0 ? 0 : kUnrecoverable;
}

}  // namespace

SUNLinearSolver make_dense_solver(SUNContext ctx) {
  return make_direct_solver<DenseContent>(ctx, dense_setup, dense_solve);
}

}  // namespace ctde
