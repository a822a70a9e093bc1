#include "actors/continuous/row_blocks.hpp"

#include <algorithm>
#include <array>

namespace ctde {

RowBlocks::RowBlocks(std::span<const double> left, std::span<const double> right, std::size_t rows,
                     std::size_t n, std::size_t m)
    : rows_(rows), n_(n), m_(m) {
  const std::size_t columns = n + m;
  const std::size_t blocks = (rows + kRows - 1) / kRows;
  packed_.assign(blocks * columns * kRows, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    double* block = packed_.data() + (r / kRows) * columns * kRows + r % kRows;
    for (std::size_t j = 0; j < n; ++j) block[j * kRows] = left[r * n + j];
    for (std::size_t k = 0; k < m; ++k) block[(n + k) * kRows] = right[r * m + k];
  }
}

void RowBlocks::multiply(const double* v, const double* w, double* y) const {
  const std::size_t n = n_;
  const std::size_t m = m_;
  const std::size_t rows = rows_;
  const double* __restrict p = packed_.data();
  for (std::size_t r0 = 0; r0 < rows; r0 += kRows) {
    std::array<double, kRows> sum{};
    for (std::size_t j = 0; j < n; ++j, p += kRows) {
      const double vj = v[j];
      for (std::size_t l = 0; l < kRows; ++l) sum[l] += p[l] * vj;
    }
    for (std::size_t k = 0; k < m; ++k, p += kRows) {
      const double wk = w[k];
      for (std::size_t l = 0; l < kRows; ++l) sum[l] += p[l] * wk;
    }
    const std::size_t count = std::min(kRows, rows - r0);
    for (std::size_t l = 0; l < count; ++l) y[r0 + l] = sum[l];
  }
}

}  // namespace ctde
