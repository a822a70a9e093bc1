// The band LU compiled here (domains/ct/band_solver_impl.hpp): random band
// systems solved to their residual's roundoff, row interchanges included; a
// singular matrix refused with its zero pivot's column.
#include <doctest/doctest.h>

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_band.h>

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "domains/ct/band_solver_impl.hpp"
#include "support/residual.hpp"
#include "support/sundials_context.hpp"

using ctde::test::SundialsContext;

TEST_CASE("the band solver solves random band systems, pivoting where the diagonal is small") {
  const SundialsContext context;
  SUNContext ctx = context.get();
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const auto& [n, ml, mu] : {std::tuple{1, 0, 0}, std::tuple{10, 1, 1}, std::tuple{50, 2, 3},
                                  std::tuple{200, 4, 1}, std::tuple{30, 0, 2}}) {
    CAPTURE(n);
    CAPTURE(ml);
    CAPTURE(mu);
    SUNMatrix a = SUNBandMatrix(n, mu, ml, ctx);
    SUNLinearSolver s = ctde::make_band_solver(ctx);
    REQUIRE(a != nullptr);
    REQUIRE(s != nullptr);
    // A dense copy of the band, with small diagonals: pivoting is needed.
    std::vector<double> dense(static_cast<std::size_t>(n * n), 0.0);
    for (sunindextype j = 0; j < n; ++j) {
      double* col = SUNBandMatrix_Column(a, j);
      for (sunindextype i = std::max<sunindextype>(0, j - mu); i <= std::min<sunindextype>(n - 1, j + ml);
           ++i) {
        const double v = i == j ? 1e-3 * value(random) : value(random);
        col[i - j] = v;
        dense[static_cast<std::size_t>(i + j * n)] = v;
      }
    }
    N_Vector b = N_VNew_Serial(n, ctx);
    N_Vector x = N_VNew_Serial(n, ctx);
    for (sunindextype i = 0; i < n; ++i) NV_Ith_S(b, i) = value(random);
    REQUIRE(SUNLinSolSetup(s, a) == 0);
    REQUIRE(SUNLinSolSolve(s, a, x, b, 0.0) == 0);
    // Backward stable: the residual is roundoff relative to |A| |x| (x may
    // be large: random matrices with small diagonals are ill-conditioned).
    const ctde::test::Residual r = ctde::test::residual(dense, n, x, b);
    CHECK(r.largest <= 1e-12 * static_cast<double>(ml + mu + 1) * std::max(r.x_norm, 1.0));
    N_VDestroy(b);
    N_VDestroy(x);
    SUNLinSolFree(s);
    SUNMatDestroy(a);
  }
}

TEST_CASE("the band solver refuses a singular matrix, naming its zero pivot's column") {
  const SundialsContext context;
  SUNContext ctx = context.get();
  const sunindextype n = 4;
  SUNMatrix a = SUNBandMatrix(n, 1, 1, ctx);
  SUNLinearSolver s = ctde::make_band_solver(ctx);
  // Column 2 is zero: the elimination meets a zero pivot there.
  for (sunindextype j = 0; j < n; ++j) {
    double* col = SUNBandMatrix_Column(a, j);
    for (sunindextype i = std::max<sunindextype>(0, j - 1); i <= std::min<sunindextype>(n - 1, j + 1); ++i)
      col[i - j] = j == 2 ? 0.0 : (i == j ? 2.0 : -1.0);
  }
  CHECK(SUNLinSolSetup(s, a) > 0);
  CHECK(SUNLinSolLastFlag(s) == 3);
  SUNLinSolFree(s);
  SUNMatDestroy(a);
}
