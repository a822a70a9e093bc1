#include "domains/ct/linear_solver.hpp"

namespace ctde {

LinearSolverChoice choose_linear_solver(LinearSolverKind asked, const JacobianPattern& pattern,
                                        bool dense_function) {
  const std::size_t n = pattern.size();
  if (asked != LinearSolverKind::kAuto) return {asked, "asked for"};
  if (dense_function) return {LinearSolverKind::kDense, "the problem's own dense Jacobian"};
  const std::string shape = std::to_string(n) + " states, " + std::to_string(pattern.nonzeros()) +
                            " nonzeros, half-bandwidths " + std::to_string(pattern.lower_bandwidth()) + "/" +
                            std::to_string(pattern.upper_bandwidth());
  if (n <= kDenseMaxStates) return {LinearSolverKind::kDense, shape + ": small"};
  if (pattern.nonzeros() * kSparseMaxDensity > n * n) return {LinearSolverKind::kDense, shape + ": dense"};
  if (pattern.lower_bandwidth() <= kBandMaxHalfWidth && pattern.upper_bandwidth() <= kBandMaxHalfWidth) {
    return {LinearSolverKind::kBand, shape + ": banded"};
  }
  return {LinearSolverKind::kKlu, shape + ": sparse"};
}

}  // namespace ctde
