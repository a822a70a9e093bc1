#pragma once
/// A matrix [L R] (L rows x n, R rows x m) packed for the products
/// y = L v + R w of a linear system (StateSpace: x' = A x + B u, y = C x),
/// computed several rows at a time: each row's sum, left to right, is the
/// same expression as the plain row-by-row loop
///   y_r = ((0 + L_r0 v_0) + L_r1 v_1 + ... ) + R_r0 w_0 + ...,
/// so the results are those of that loop bit for bit
/// (tests/actors/test_row_blocks.cpp); only independent rows run side by
/// side (the compiler puts two in one vector register), where the plain loop
/// waited on one chain of additions per row.
///
/// Layout: blocks of kRows rows; within a block, column by column, the
/// kRows entries of that column (rows past the last are zero and their
/// results dropped). A large, mostly zero matrix (at least kSparseMinEntries
/// entries, at most one in kSparseDensity nonzero: a discretized PDE's
/// tridiagonal A) is kept as compressed rows instead, and each row's sum
/// skips its zero terms: for finite v and w the same value as the plain
/// loop (adding a zero product to a sum leaves it as it is), at the cost of
/// the nonzeros. With the fast paths off (core/fast_paths.hpp) it keeps
/// [L R] row-major and runs the plain loop itself. Copyable value type;
/// multiply() allocates nothing.

#include <cstddef>
#include <span>
#include <vector>

namespace ctde {

class RowBlocks {
 public:
  static constexpr std::size_t kRows = 4;  ///< rows computed together (measured best for n = 8)
  static constexpr std::size_t kSparseMinEntries = 1024;
  static constexpr std::size_t kSparseDensity = 8;

  RowBlocks() = default;
  /// Packs [left right]: `left` rows x `n` and `right` rows x `m`, both
  /// row-major (right may be empty when m is 0). Pre: the sizes match.
  RowBlocks(std::span<const double> left, std::span<const double> right, std::size_t rows, std::size_t n,
            std::size_t m);

  /// y[r] = sum_j left[r][j] v[j] + sum_k right[r][k] w[k] for every row, each
  /// sum from 0 in that order. v has n entries, w m (may be null when m is 0),
  /// y rows; y must not overlap v or w.
  void multiply(const double* v, const double* w, double* y) const;

  [[nodiscard]] std::size_t rows() const { return rows_; }
  /// True when kept as compressed rows (see above).
  [[nodiscard]] bool sparse() const { return !row_starts_.empty(); }
  /// True when kept row-major for the plain loop (the fast paths are off).
  [[nodiscard]] bool plain() const { return plain_; }

 private:
  std::vector<double> packed_;           ///< ceil(rows / kRows) blocks of (n + m) x kRows; or the nonzeros
  std::vector<std::size_t> row_starts_;  ///< sparse: per row, and one past the last, its first nonzero
  std::vector<std::size_t> columns_;     ///< sparse: per nonzero, its column in [v w] (n + k for w[k])
  std::size_t rows_ = 0;
  std::size_t n_ = 0;
  std::size_t m_ = 0;
  bool plain_ = false;  ///< the fast paths are off: packed_ is [L R] row-major
};

}  // namespace ctde
