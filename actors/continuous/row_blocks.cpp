#include "actors/continuous/row_blocks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "core/fast_paths.hpp"

namespace ctde {

namespace {

// Two rows' sums side by side in one register (the vector extension of GCC and
// Clang): each lane is plain IEEE double arithmetic, the scalar loop's. Written
// out because GCC, left to vectorize the scalar form, vectorized across columns
// instead (shuffles, more instructions than the plain loop).
using Pair = double __attribute__((vector_size(2 * sizeof(double))));
static_assert(RowBlocks::kRows == 4, "multiply() holds a block's sums in two pairs");

Pair load(const double* p) {
  Pair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

RowBlocks::RowBlocks(std::span<const double> left, std::span<const double> right, std::size_t rows,
                     std::size_t n, std::size_t m)
    : rows_(rows), n_(n), m_(m) {
  const std::size_t columns = n + m;
  if (!fast_paths_enabled()) {  // the plain loop itself (core/fast_paths.hpp)
    plain_ = true;
    packed_.reserve(rows * columns);
    for (std::size_t r = 0; r < rows; ++r) {
      packed_.insert(packed_.end(), left.begin() + static_cast<std::ptrdiff_t>(r * n),
                     left.begin() + static_cast<std::ptrdiff_t>((r + 1) * n));
      if (m > 0) {
        packed_.insert(packed_.end(), right.begin() + static_cast<std::ptrdiff_t>(r * m),
                       right.begin() + static_cast<std::ptrdiff_t>((r + 1) * m));
      }
    }
    return;
  }
  const std::size_t nonzeros =
      static_cast<std::size_t>(std::count_if(left.begin(), left.end(), [](double a) { return a != 0.0; })) +
      static_cast<std::size_t>(std::count_if(right.begin(), right.end(), [](double a) { return a != 0.0; }));
  if (rows * columns >= kSparseMinEntries && nonzeros * kSparseDensity <= rows * columns) {
    row_starts_.reserve(rows + 1);
    for (std::size_t r = 0; r < rows; ++r) {
      row_starts_.push_back(packed_.size());
      for (std::size_t j = 0; j < columns; ++j) {
        const double a = j < n ? left[r * n + j] : right[r * m + (j - n)];
        if (a == 0.0) continue;
        packed_.push_back(a);
        columns_.push_back(j);
      }
    }
    row_starts_.push_back(packed_.size());
    return;
  }
  const std::size_t blocks = (rows + kRows - 1) / kRows;
  packed_.assign(blocks * columns * kRows, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    double* block = packed_.data() + (r / kRows) * columns * kRows + r % kRows;
    for (std::size_t j = 0; j < n; ++j) block[j * kRows] = left[r * n + j];
    for (std::size_t k = 0; k < m; ++k) block[(n + k) * kRows] = right[r * m + k];
  }
}

void RowBlocks::multiply(const double* v, const double* w, double* y) const {
  if (plain_) {
    const double* row = packed_.data();
    for (std::size_t r = 0; r < rows_; ++r) {
      double sum = 0.0;
      for (std::size_t j = 0; j < n_; ++j) sum += *row++ * v[j];
      for (std::size_t k = 0; k < m_; ++k) sum += *row++ * w[k];
      y[r] = sum;
    }
    return;
  }
  if (sparse()) {
    const std::size_t n = n_;
    for (std::size_t r = 0; r < rows_; ++r) {
      double sum = 0.0;
      for (std::size_t e = row_starts_[r]; e < row_starts_[r + 1]; ++e) {
        const std::size_t j = columns_[e];
        sum += packed_[e] * (j < n ? v[j] : w[j - n]);
      }
      y[r] = sum;
    }
    return;
  }
  const std::size_t n = n_;
  const std::size_t m = m_;
  const std::size_t rows = rows_;
  const double* p = packed_.data();
  for (std::size_t r0 = 0; r0 < rows; r0 += kRows) {
    Pair low{0.0, 0.0};   // rows r0, r0 + 1
    Pair high{0.0, 0.0};  // rows r0 + 2, r0 + 3
    for (std::size_t j = 0; j < n; ++j, p += kRows) {
      const Pair vj{v[j], v[j]};
      low += load(p) * vj;
      high += load(p + 2) * vj;
    }
    for (std::size_t k = 0; k < m; ++k, p += kRows) {
      const Pair wk{w[k], w[k]};
      low += load(p) * wk;
      high += load(p + 2) * wk;
    }
    double sums[kRows];
    std::memcpy(sums, &low, sizeof low);
    std::memcpy(sums + 2, &high, sizeof high);
    std::copy_n(sums, std::min(kRows, rows - r0), y + r0);
  }
}

}  // namespace ctde
