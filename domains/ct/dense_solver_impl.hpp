#pragma once
/// (Private: not installed, it includes SUNDIALS.) The dense LU of the
/// Newton systems by LAPACK (dgetrf, dgetrs: Debian's liblapack, already
/// linked for a linearization's eigenvalues): a SUNLinearSolver over
/// SUNDIALS' dense matrix (column-major, its leading dimension its rows), in
/// place of SUNLinSol_Dense, whose factorization runs at -O0 in Debian's
/// library (a dense stiff StateSpace of 300 states spent 82 % of its run in
/// it: docs/performance.md, "Stiff systems").
///
/// Gaussian elimination with partial pivoting, LAPACK's blocked algorithm
/// (up to order 16, the same elimination unblocked in a loop of its own:
/// LAPACK's calls cost more than a small matrix's arithmetic);
/// a zero pivot makes setup() fail recoverably (the integrator shortens its
/// step), with the pivot's (1-based) column as the solver's last flag, as
/// SUNLinSol_Dense reports it.

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

namespace ctde {

/// A new dense solver for square dense matrices (SUNDenseMatrix), of any
/// order: its setup takes the order from the matrix. Free it with
/// SUNLinSolFree. Null when out of memory.
[[nodiscard]] SUNLinearSolver make_dense_solver(SUNContext ctx);

}  // namespace ctde
