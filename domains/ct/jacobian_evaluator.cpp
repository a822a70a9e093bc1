#include "domains/ct/jacobian_evaluator_impl.hpp"

#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <nvector/nvector_serial.h>

namespace ctde {

JacobianEvaluator::JacobianEvaluator(const JacobianPattern& pattern, RhsFunction rhs, void* user,
                                     Storage storage, JacobianValuesFunction at_point)
    : pattern_(pattern),
      rhs_(rhs),
      user_(user),
      storage_(storage),
      at_point_(at_point),
      values_(pattern.values_at_point() ? pattern.nonzeros() : 0),
      shifted_(pattern.size()),
      f_shifted_(pattern.size()),
      increment_(pattern.size()) {}

void JacobianEvaluator::set(SUNMatrix jac, std::size_t entry, std::size_t i, std::size_t j,
                            double value) const {
  switch (storage_) {
    case Storage::kDense:
      SUNDenseMatrix_Column(jac, static_cast<sunindextype>(j))[i] = value;
      return;
    case Storage::kBand:
      SM_COLUMN_ELEMENT_B(SUNBandMatrix_Column(jac, static_cast<sunindextype>(j)),
                          static_cast<sunindextype>(i), static_cast<sunindextype>(j)) = value;
      return;
    case Storage::kSparse:
      SUNSparseMatrix_Data(jac)[entry] = value;
      return;
    case Storage::kColumnMajor:
      plain_[i + j * pattern_.size()] = value;
      return;
  }
}

int JacobianEvaluator::evaluate(double t, N_Vector x, N_Vector fx, SUNMatrix jac, N_Vector weights,
                                double h) {
  return fill(t, NV_DATA_S(x), NV_DATA_S(fx), jac, NV_DATA_S(weights), h);
}

int JacobianEvaluator::evaluate(double t, const double* x, const double* fx, double* column_major) {
  const std::size_t n = pattern_.size();
  std::fill(column_major, column_major + n * n, 0.0);
  plain_ = column_major;
  const int code = fill(t, x, fx, nullptr, nullptr, 0.0);
  plain_ = nullptr;
  return code;
}

int JacobianEvaluator::fill(double t, const double* x0, const double* f0, SUNMatrix jac, const double* w,
                            double h) {
  ++evaluations_;
  const std::size_t n = pattern_.size();
  const auto starts = pattern_.column_starts();
  const auto rows = pattern_.row_indices();
  std::span<const double> values = pattern_.values();
  if (pattern_.values_at_point()) {
    if (at_point_ == nullptr) {
      throw std::logic_error(
          "JacobianEvaluator: the pattern has values at each point and no function gives them");
    }
    std::copy(values.begin(), values.end(), values_.begin());
    if (const int code = at_point_(t, x0, values_.data(), user_); code != 0) return code;
    values = values_;
  }
  if (storage_ == Storage::kSparse) {  // the structure, every time: SUNMatZero clears it
    sunindextype* pointers = SUNSparseMatrix_IndexPointers(jac);
    sunindextype* indices = SUNSparseMatrix_IndexValues(jac);
    for (std::size_t j = 0; j <= n; ++j) pointers[j] = static_cast<sunindextype>(starts[j]);
    for (std::size_t k = 0; k < rows.size(); ++k) indices[k] = static_cast<sunindextype>(rows[k]);
  } else if (storage_ != Storage::kColumnMajor) {
    SUNMatZero(jac);
  }
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = starts[j]; k < starts[j + 1]; ++k) {
      const double v = values[k];
      if (!std::isfinite(v) && pattern_.row_known(rows[k])) {  // (NaN in an unknown row: computed below)
        nonfinite_ = {rows[k], j, v};
        return -1;
      }
      set(jac, k, rows[k], j, std::isnan(v) ? 0.0 : v);
    }
  }
  if (pattern_.group_count() == 0) return 0;

  constexpr double kRoundoff = std::numeric_limits<double>::epsilon();
  const double sqrt_roundoff = std::sqrt(kRoundoff);
  double f_norm = 0;  // the weighted RMS norm of f
  if (w != nullptr) {
    for (std::size_t i = 0; i < n; ++i) f_norm += (f0[i] * w[i]) * (f0[i] * w[i]);
    f_norm = std::sqrt(f_norm / static_cast<double>(n));
  }
  const double min_increment =
      f_norm != 0 ? 1000.0 * std::abs(h) * kRoundoff * static_cast<double>(n) * f_norm : 1.0;
  std::copy(x0, x0 + n, shifted_.begin());
  for (std::size_t g = 0; g < pattern_.group_count(); ++g) {
    const auto columns = pattern_.group_columns(g);
    for (const std::uint32_t j : columns) {
      double inc = w != nullptr ? std::max(sqrt_roundoff * std::abs(x0[j]), min_increment / w[j])
                                : sqrt_roundoff * std::max(std::abs(x0[j]), 1.0);
      if (!(inc > 0)) inc = sqrt_roundoff;  // x_j = 0 with an infinite weight (atol 0)
      shifted_[j] = x0[j] + inc;
      increment_[j] = shifted_[j] - x0[j];
    }
    ++rhs_evals_;
    const int code = rhs_(t, shifted_.data(), f_shifted_.data(), user_);
    for (const std::uint32_t j : columns) shifted_[j] = x0[j];
    if (code != 0) return code;
    for (const std::uint32_t j : columns) {
      for (std::size_t k = starts[j]; k < starts[j + 1]; ++k) {
        const std::uint32_t i = rows[k];
        if (pattern_.row_known(i)) continue;
        const double d = (f_shifted_[i] - f0[i]) / increment_[j];
        if (!std::isfinite(d)) {
          nonfinite_ = {i, j, d};
          return -1;
        }
        set(jac, k, i, j, d);
      }
    }
  }
  return 0;
}

}  // namespace ctde
