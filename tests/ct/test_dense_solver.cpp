// The dense LU by LAPACK (domains/ct/dense_solver_impl.hpp): random dense
// systems solved to their residual's roundoff, row interchanges included; a
// singular matrix refused with its zero pivot's column, as SUNLinSol_Dense
// refuses it.
#include <doctest/doctest.h>

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "core/fast_paths.hpp"
#include "domains/ct/dense_solver_impl.hpp"
#include "support/residual.hpp"
#include "support/sundials_context.hpp"

using ctde::test::SundialsContext;

TEST_CASE("the dense solver solves random dense systems, pivoting where the diagonal is small") {
  const SundialsContext context;
  SUNContext ctx = context.get();
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const sunindextype n : {1, 2, 7, 16, 17, 64, 300}) {  // the loop up to 16, LAPACK above
    CAPTURE(n);
    SUNMatrix a = SUNDenseMatrix(n, n, ctx);
    SUNLinearSolver s = ctde::make_dense_solver(ctx);
    REQUIRE(a != nullptr);
    REQUIRE(s != nullptr);
    // Small diagonals: pivoting is needed. A copy, as the factorization overwrites a.
    std::vector<double> copy(static_cast<std::size_t>(n * n));
    for (sunindextype j = 0; j < n; ++j) {
      for (sunindextype i = 0; i < n; ++i) {
        const double v = i == j ? 1e-3 * value(random) : value(random);
        SM_ELEMENT_D(a, i, j) = v;
        copy[static_cast<std::size_t>(i + j * n)] = v;
      }
    }
    N_Vector b = N_VNew_Serial(n, ctx);
    N_Vector x = N_VNew_Serial(n, ctx);
    for (sunindextype i = 0; i < n; ++i) NV_Ith_S(b, i) = value(random);
    REQUIRE(SUNLinSolSetup(s, a) == 0);
    REQUIRE(SUNLinSolSolve(s, a, x, b, 0.0) == 0);
    // Backward stable: the residual is roundoff relative to |A| |x|.
    const ctde::test::Residual r = ctde::test::residual(copy, n, x, b);
    CHECK(r.largest <= 1e-13 * static_cast<double>(n) * std::max(r.x_norm, 1.0));
    // The solve in place (x is b), as the integrators call it.
    N_VScale(1.0, b, x);
    REQUIRE(SUNLinSolSolve(s, a, x, x, 0.0) == 0);
    const ctde::test::Residual in_place = ctde::test::residual(copy, n, x, b);
    CHECK(in_place.largest <= 1e-13 * static_cast<double>(n) * std::max(in_place.x_norm, 1.0));
    N_VDestroy(b);
    N_VDestroy(x);
    SUNLinSolFree(s);
    SUNMatDestroy(a);
  }
}

TEST_CASE("the dense solver's own loop up to 16 states gives SUNLinSol_Dense's solutions bit for bit") {
  // The same elimination in the same order (a fast path: with
  // CTDE_FAST_PATHS=off LAPACK factors every order, checked above).
  const SundialsContext context;
  SUNContext ctx = context.get();
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const sunindextype n : {1, 3, 9, 16}) {
    CAPTURE(n);
    SUNMatrix a = SUNDenseMatrix(n, n, ctx);
    SUNMatrix reference_a = SUNDenseMatrix(n, n, ctx);
    N_Vector b = N_VNew_Serial(n, ctx);
    N_Vector x = N_VNew_Serial(n, ctx);
    N_Vector reference_x = N_VNew_Serial(n, ctx);
    for (sunindextype j = 0; j < n; ++j) {
      for (sunindextype i = 0; i < n; ++i) {
        SM_ELEMENT_D(a, i, j) = SM_ELEMENT_D(reference_a, i, j) =
            i == j ? 1e-3 * value(random) : value(random);
      }
      NV_Ith_S(b, j) = value(random);
    }
    SUNLinearSolver s = ctde::make_dense_solver(ctx);
    SUNLinearSolver reference = SUNLinSol_Dense(b, reference_a, ctx);
    REQUIRE(SUNLinSolSetup(s, a) == 0);
    REQUIRE(SUNLinSolSetup(reference, reference_a) == 0);
    REQUIRE(SUNLinSolSolve(s, a, x, b, 0.0) == 0);
    REQUIRE(SUNLinSolSolve(reference, reference_a, reference_x, b, 0.0) == 0);
    if (ctde::fast_paths_enabled()) {
      for (sunindextype i = 0; i < n; ++i) CHECK(NV_Ith_S(x, i) == NV_Ith_S(reference_x, i));
    }
    SUNLinSolFree(reference);
    SUNLinSolFree(s);
    N_VDestroy(b);
    N_VDestroy(x);
    N_VDestroy(reference_x);
    SUNMatDestroy(reference_a);
    SUNMatDestroy(a);
  }
}

TEST_CASE(
    "the dense solver refuses a singular matrix recoverably, naming its zero pivot's column as "
    "SUNLinSol_Dense does") {
  const SundialsContext context;
  SUNContext ctx = context.get();
  // Orders below and above the one where LAPACK takes over; one zero column.
  for (const auto& [n, zero_column] : {std::pair<sunindextype, sunindextype>{4, 2}, {40, 30}}) {
    CAPTURE(n);
    const auto fill = [&](SUNMatrix a) {
      for (sunindextype j = 0; j < n; ++j) {
        for (sunindextype i = 0; i < n; ++i)
          SM_ELEMENT_D(a, i, j) = j == zero_column ? 0.0 : (i == j ? 2.0 : (i + j) % 3 == 0 ? -1.0 : 0.0);
      }
    };
    SUNMatrix a = SUNDenseMatrix(n, n, ctx);
    SUNMatrix reference_a = SUNDenseMatrix(n, n, ctx);
    N_Vector template_vector = N_VNew_Serial(n, ctx);
    SUNLinearSolver s = ctde::make_dense_solver(ctx);
    SUNLinearSolver reference = SUNLinSol_Dense(template_vector, reference_a, ctx);
    fill(a);
    fill(reference_a);
    // Both refuse it recoverably (a positive value: the integrator shortens its step).
    CHECK(SUNLinSolSetup(s, a) > 0);
    CHECK(SUNLinSolSetup(reference, reference_a) > 0);
    CHECK(SUNLinSolLastFlag(s) == zero_column + 1);
    CHECK(SUNLinSolLastFlag(s) == SUNLinSolLastFlag(reference));
    SUNLinSolFree(reference);
    SUNLinSolFree(s);
    N_VDestroy(template_vector);
    SUNMatDestroy(reference_a);
    SUNMatDestroy(a);
  }
}
