#pragma once
/// (Private: not installed, it includes SUNDIALS.) J = ∂f/∂x over a JacobianPattern, written into the
/// SUNDIALS matrix of the Newton systems (dense, band or compressed sparse columns): the known rows copied,
/// the others by forward differences over the pattern's column groups, one evaluation of f per group
/// (docs/semantics.md, "Jacobians"). Known values given at each point
/// (JacobianPattern::values_at_point()) are asked of the JacobianValuesFunction
/// at each evaluation, before the differences.
///
/// The increment of column j is SUNDIALS' own choice for its dense
/// difference quotients: max(√u |x_j|, m / w_j), u the unit roundoff, w the
/// integrator's error weights and m = 1000 |h| u n ‖f‖_w (1 when f is 0),
/// so that x_j + inc is a representable change of x_j at the solution's
/// scale; the increment actually used is the difference of the two doubles.
///
/// Failures: f's own (> 0 recoverable: the integrator shortens its step; < 0
/// ends it) are passed on; a non-finite entry ends the step (< 0) with
/// nonfinite() naming its row and column.
///
/// Not copyable (its scratch vectors, allocated once); evaluate() allocates nothing.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include "jacobian_pattern.hpp"
#include "ode_solver.hpp"

namespace ctde {

class JacobianEvaluator {
 public:
  /// The matrix kinds it writes.
  enum class Storage : std::uint8_t { kDense, kBand, kSparse, kColumnMajor };

  /// Over `pattern` (which outlives it), for the right-hand side `rhs` of `problem`;
  /// `at_point` gives the pattern's values at each point (required when it has any).
  JacobianEvaluator(const JacobianPattern& pattern, RhsFunction rhs, void* user, Storage storage,
                    JacobianValuesFunction at_point = nullptr);
  JacobianEvaluator(const JacobianEvaluator&) = delete;
  JacobianEvaluator& operator=(const JacobianEvaluator&) = delete;

  /// Writes J at (t, x), fx = f(t, x), into `jac` (zeroed by the
  /// integrator, or not: every entry of the pattern is written, and a
  /// sparse matrix gets the pattern's structure). `weights` are the
  /// integrator's error weights, `h` its current step. Returns 0, or f's
  /// failure code, or -1 for a non-finite entry.
  int evaluate(double t, N_Vector x, N_Vector fx, SUNMatrix jac, N_Vector weights, double h);
  /// The same into a plain n × n column-major array (Storage::kColumnMajor),
  /// outside an integration: without error weights the increment of column
  /// j is √u max(|x_j|, 1).
  int evaluate(double t, const double* x, const double* fx, double* column_major);

  /// After evaluate() returned -1 for a non-finite entry: its row i, its
  /// column j and its value.
  struct Nonfinite {
    std::size_t row = 0;
    std::size_t column = 0;
    double value = 0;
  };
  [[nodiscard]] const Nonfinite& nonfinite() const { return nonfinite_; }
  /// Evaluations of f for difference quotients since construction.
  [[nodiscard]] long rhs_evals() const { return rhs_evals_; }
  [[nodiscard]] long evaluations() const { return evaluations_; }

 private:
  void set(SUNMatrix jac, std::size_t entry, std::size_t i, std::size_t j, double value) const;
  // Both evaluate()s: weights null for the plain increments.
  int fill(double t, const double* x, const double* fx, SUNMatrix jac, const double* weights, double h);
  double* plain_ = nullptr;  // Storage::kColumnMajor's target during fill()

  const JacobianPattern& pattern_;
  RhsFunction rhs_;
  void* user_;
  Storage storage_;
  JacobianValuesFunction at_point_;
  std::vector<double> values_;     // the pattern's values with those at this point
  std::vector<double> shifted_;    // x with a group's columns moved
  std::vector<double> f_shifted_;  // f there
  std::vector<double> increment_;  // per column
  Nonfinite nonfinite_;
  long rhs_evals_ = 0;
  long evaluations_ = 0;
};

}  // namespace ctde
