#pragma once
/// Which linear solver an implicit method's Newton systems (I - γJ) δ = r use
/// (the director option `linear_solver`, docs/model-reference.md), chosen
/// from the Jacobian's structure when asked for "auto".

#include <string>

#include "jacobian_pattern.hpp"
#include "solver_kind.hpp"

namespace ctde {

/// A choice and why it was made (for `ctde validate` and the trace).
struct LinearSolverChoice {
  LinearSolverKind kind = LinearSolverKind::kDense;
  std::string reason;
};

/// `asked` itself unless it is kAuto; for kAuto, from `pattern`:
///   - dense for at most kDenseMaxStates states, or more than one entry in
///     kSparseMaxDensity nonzero (a dense LU is then as cheap as any);
///   - band when both half-bandwidths are at most kBandMaxHalfWidth (a 1-D
///     field in its natural order: tridiagonal, pentadiagonal);
///   - klu (sparse LU with fill-reducing ordering) for any other sparse one.
/// gmres (matrix-free, no preconditioner) is never chosen: it is for very
/// large systems that are only mildly stiff, and is asked for by name.
/// With the problem's own dense Jacobian function, auto is dense.
[[nodiscard]] LinearSolverChoice choose_linear_solver(LinearSolverKind asked, const JacobianPattern& pattern,
                                                      bool dense_function = false);

inline constexpr std::size_t kDenseMaxStates = 16;
inline constexpr std::size_t kSparseMaxDensity = 10;
inline constexpr std::size_t kBandMaxHalfWidth = 4;

}  // namespace ctde
