#pragma once
/// (Private: not installed, it includes SUNDIALS.) The banded LU of the
/// Newton systems, compiled here: a SUNLinearSolver over SUNDIALS' band
/// matrix (its storage, with the upper bandwidth's room for fill-in), in
/// place of SUNLinSol_Band, whose factorization and solves run at -O0 in
/// Debian's library (at 1e5 states they were most of a heat equation's run:
/// docs/performance.md, "Stiff systems").
///
/// The method is the one of LINPACK's and SUNDIALS' band solvers: Gaussian
/// elimination with partial pivoting by columns, the multipliers kept below
/// the diagonal, row interchanges recorded; a zero pivot makes setup() fail
/// recoverably (the integrator shortens its step), with the pivot's
/// (1-based) column as the solver's last flag, as SUNLinSol_Band reports it.

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

namespace ctde {

/// A new band solver for square band matrices (SUNBandMatrix with their
/// storage upper bandwidth mu + ml), of any order: its setup takes the
/// order from the matrix. Free it with SUNLinSolFree. Null when out of memory.
[[nodiscard]] SUNLinearSolver make_band_solver(SUNContext ctx);

}  // namespace ctde
