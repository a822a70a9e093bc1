#include "domains/ct/dense_solver_impl.hpp"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <new>
#include <vector>

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

DenseContent& content(SUNLinearSolver s) { return *static_cast<DenseContent*>(s->content); }

SUNLinearSolver_Type dense_type(SUNLinearSolver /*s*/) { return SUNLINEARSOLVER_DIRECT; }
SUNLinearSolver_ID dense_id(SUNLinearSolver /*s*/) { return SUNLINEARSOLVER_CUSTOM; }
sunindextype dense_last_flag(SUNLinearSolver s) { return content(s).last_flag; }

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
  if (size > 0) dgetrf_(&size, &size, SUNDenseMatrix_Data(a), &size, c.pivots.data(), &info);
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
  if (n > 0) dgetrs_("N", &n, &one, SUNDenseMatrix_Data(a), &n, c.pivots.data(), y, &n, &info, 1);
  c.last_flag = info;
  return info == 0 ? 0 : kUnrecoverable;
}

int dense_free(SUNLinearSolver s) {
  if (s == nullptr) return 0;
  delete static_cast<DenseContent*>(s->content);
  s->content = nullptr;
  SUNLinSolFreeEmpty(s);
  return 0;
}

}  // namespace

SUNLinearSolver make_dense_solver(sunindextype n, SUNContext ctx) {
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  auto* c = new (std::nothrow) DenseContent;
  if (c == nullptr) {
    SUNLinSolFreeEmpty(s);
    return nullptr;
  }
  c->pivots.resize(static_cast<std::size_t>(n));
  s->content = c;
  s->ops->gettype = dense_type;
  s->ops->getid = dense_id;
  s->ops->setup = dense_setup;
  s->ops->solve = dense_solve;
  s->ops->lastflag = dense_last_flag;
  s->ops->free = dense_free;
  return s;
}

}  // namespace ctde
