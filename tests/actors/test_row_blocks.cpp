// RowBlocks (actors/continuous/row_blocks.hpp): the products of StateSpace,
// several rows at a time, against the plain row-by-row sums bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "actors/continuous/row_blocks.hpp"

using ctde::RowBlocks;

namespace {

// y[r] = ((0 + L_r0 v_0) + ... + L_r,n-1 v_n-1) + R_r0 w_0 + ..., row by row.
std::vector<double> row_by_row(const std::vector<double>& left, const std::vector<double>& right,
                               std::size_t rows, std::size_t n, std::size_t m, const std::vector<double>& v,
                               const std::vector<double>& w) {
  std::vector<double> y(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) sum += left[r * n + j] * v[j];
    for (std::size_t k = 0; k < m; ++k) sum += right[r * m + k] * w[k];
    y[r] = sum;
  }
  return y;
}

}  // namespace

TEST_CASE("RowBlocks computes a 2 x 2 system's A x + B u") {
  const std::vector<double> a{0, 1, -2, -3};
  const std::vector<double> b{0, 1};
  const RowBlocks blocks(a, b, 2, 2, 1);
  const std::vector<double> x{1, -1};
  const double u = 4;
  std::vector<double> y(2);
  blocks.multiply(x.data(), &u, y.data());
  CHECK(y == std::vector<double>{-1, -2 + 3 + 4});
}

TEST_CASE("RowBlocks gives the row-by-row sums bit for bit, for every block size and remainder") {
  std::mt19937_64 random(21);
  // Magnitudes over 12 decades: the order of the additions shows in the last bits.
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-6, 6);
  const auto value = [&] { return std::ldexp(mantissa(random), 2 * exponent(random)); };
  std::size_t differs_from_reversed = 0;
  for (std::size_t rows = 1; rows <= 3 * RowBlocks::kRows + 1; ++rows) {
    for (std::size_t n = 1; n <= 9; ++n) {
      for (std::size_t m = 0; m <= 3; ++m) {
        CAPTURE(rows);
        CAPTURE(n);
        CAPTURE(m);
        std::vector<double> left(rows * n), right(rows * m), v(n), w(m);
        for (double& e : left) e = value();
        for (double& e : right) e = value();
        for (double& e : v) e = value();
        for (double& e : w) e = value();
        const RowBlocks blocks(left, right, rows, n, m);
        CHECK(blocks.rows() == rows);
        std::vector<double> y(rows, -1.0);
        blocks.multiply(v.data(), m == 0 ? nullptr : w.data(), y.data());
        const std::vector<double> expected = row_by_row(left, right, rows, n, m, v, w);
        CHECK(std::memcmp(y.data(), expected.data(), rows * sizeof(double)) == 0);
        // The check can tell orders apart: the same sums from the last term back.
        for (std::size_t r = 0; r < rows; ++r) {
          double sum = 0.0;
          for (std::size_t k = m; k-- > 0;) sum += right[r * m + k] * w[k];
          for (std::size_t j = n; j-- > 0;) sum += left[r * n + j] * v[j];
          if (sum != expected[r]) ++differs_from_reversed;
        }
      }
    }
  }
  CHECK(differs_from_reversed > 100);
}

TEST_CASE("RowBlocks writes only its rows") {
  const std::vector<double> left{1, 2, 3};  // 3 x 1
  const RowBlocks blocks(left, {}, 3, 1, 0);
  const double v = 2;
  std::vector<double> y(RowBlocks::kRows + 1, 7.0);
  blocks.multiply(&v, nullptr, y.data());
  CHECK(y[0] == 2);
  CHECK(y[1] == 4);
  CHECK(y[2] == 6);
  for (std::size_t r = 3; r < y.size(); ++r) CHECK(y[r] == 7.0);
}
