// JacobianPattern (domains/ct/jacobian_pattern.hpp): the structure, the
// known rows, the bandwidths and the column groups of finite differences;
// choose_linear_solver (domains/ct/linear_solver.hpp) from it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "domains/ct/jacobian_pattern.hpp"
#include "domains/ct/linear_solver.hpp"

using ctde::JacobianPattern;
using ctde::LinearSolverKind;

namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

JacobianPattern tridiagonal(std::uint32_t n, double value) {
  std::vector<JacobianPattern::Entry> entries;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i > 0) entries.push_back({i, i - 1, value});
    entries.push_back({i, i, value});
    if (i + 1 < n) entries.push_back({i, i + 1, value});
  }
  return {n, entries};
}

/// No two columns of one group share a row computed by differences, and
/// every column of such a row is in a group.
void check_groups(const JacobianPattern& p) {
  const auto starts = p.column_starts();
  const auto rows = p.row_indices();
  std::vector<int> group_of(p.size(), -1);
  for (std::size_t g = 0; g < p.group_count(); ++g) {
    for (const std::uint32_t j : p.group_columns(g)) {
      CHECK(group_of[j] == -1);
      group_of[j] = static_cast<int>(g);
    }
  }
  for (std::size_t g = 0; g < p.group_count(); ++g) {
    std::set<std::uint32_t> rows_hit;
    for (const std::uint32_t j : p.group_columns(g)) {
      for (std::size_t k = starts[j]; k < starts[j + 1]; ++k) {
        if (p.row_known(rows[k])) continue;
        CHECK(rows_hit.insert(rows[k]).second);  // a row twice: its difference mixes two columns
      }
    }
  }
  for (std::uint32_t j = 0; j < p.size(); ++j) {
    for (std::size_t k = starts[j]; k < starts[j + 1]; ++k) {
      if (!p.row_known(rows[k])) CHECK(group_of[j] >= 0);
    }
  }
}

}  // namespace

TEST_CASE("a tridiagonal pattern: 3 column groups, half-bandwidths 1, 3n - 2 nonzeros") {
  for (const std::uint32_t n : {3U, 10U, 1000U}) {
    const JacobianPattern p = tridiagonal(n, kUnknown);
    CHECK(p.size() == n);
    CHECK(p.nonzeros() == 3 * n - 2);
    CHECK(p.lower_bandwidth() == 1);
    CHECK(p.upper_bandwidth() == 1);
    CHECK(p.group_count() == 3);
    CHECK(p.structural_group_count() == 3);
    CHECK(p.unknown_rows() == n);
    check_groups(p);
  }
}

TEST_CASE("known rows are not differenced: a linear tridiagonal pattern needs no group, its structure 3") {
  const JacobianPattern p = tridiagonal(50, 2.0);
  CHECK(p.all_known());
  CHECK(p.group_count() == 0);
  CHECK(p.structural_group_count() == 3);
  for (const double v : p.values()) CHECK(v == 2.0);
  const JacobianPattern fd = p.unknown_values();
  CHECK(fd.unknown_rows() == 50);
  CHECK(fd.group_count() == 3);
  CHECK(fd.nonzeros() == p.nonzeros());
}

TEST_CASE("block-diagonal dense blocks: as many groups as the block size") {
  for (const std::uint32_t block : {1U, 2U, 5U}) {
    std::vector<JacobianPattern::Entry> entries;
    const std::uint32_t blocks = 7;
    for (std::uint32_t b = 0; b < blocks; ++b) {
      for (std::uint32_t i = 0; i < block; ++i) {
        for (std::uint32_t j = 0; j < block; ++j) entries.push_back({b * block + i, b * block + j, kUnknown});
      }
    }
    const JacobianPattern p(blocks * block, entries);
    CHECK(p.group_count() == block);
    CHECK(p.lower_bandwidth() == block - 1);
    CHECK(p.nonzeros() == blocks * block * block);
    check_groups(p);
  }
}

TEST_CASE("the diagonal is always there, a known zero where the entries leave it out") {
  // x0' = x1, x1' = x0 (no diagonal given).
  const JacobianPattern p(2, {{0, 1, 1.0}, {1, 0, 1.0}});
  CHECK(p.nonzeros() == 4);
  CHECK(p.all_known());
  const auto starts = p.column_starts();
  const auto rows = p.row_indices();
  const auto values = p.values();
  // Column 0: rows 0 (the added diagonal, 0) and 1 (1).
  REQUIRE(starts[1] - starts[0] == 2);
  CHECK(rows[0] == 0);
  CHECK(values[0] == 0.0);
  CHECK(rows[1] == 1);
  CHECK(values[1] == 1.0);
}

TEST_CASE("duplicate entries are summed; an unknown one makes its row unknown") {
  // Two paths from x0 to x1' (a Sum of two Gains of 2 and 3): 5.
  const JacobianPattern known(2, {{1, 0, 2.0}, {1, 0, 3.0}});
  CHECK(known.values()[known.column_starts()[0] + 1] == 5.0);
  const JacobianPattern mixed(2, {{1, 0, 2.0}, {1, 0, kUnknown}, {0, 1, 4.0}});
  CHECK(mixed.row_known(0));
  CHECK_FALSE(mixed.row_known(1));
  CHECK(std::isnan(mixed.values()[mixed.column_starts()[0] + 1]));
  // Row 1 reads x0 and (diagonal) x1: two groups; row 0 is known.
  CHECK(mixed.group_count() == 2);
  check_groups(mixed);
}

TEST_CASE("random sparse patterns: the greedy groups are valid and never more than the columns") {
  std::mt19937_64 random(12345);
  for (int trial = 0; trial < 50; ++trial) {
    const std::uint32_t n = 1 + static_cast<std::uint32_t>(random() % 60);
    std::vector<JacobianPattern::Entry> entries;
    const std::size_t count = random() % (3 * n);
    for (std::size_t e = 0; e < count; ++e) {
      const auto i = static_cast<std::uint32_t>(random() % n);
      const auto j = static_cast<std::uint32_t>(random() % n);
      entries.push_back({i, j, random() % 3 == 0 ? 1.0 : kUnknown});
    }
    const JacobianPattern p(n, entries);
    CHECK(p.group_count() <= n);
    check_groups(p);
  }
}

TEST_CASE("a dense pattern: n groups, each column its own") {
  const JacobianPattern p = JacobianPattern::dense(40);
  CHECK(p.nonzeros() == 1600);
  CHECK(p.group_count() == 40);
  check_groups(p);
}

TEST_CASE("linear_solver auto chooses from the structure and says why") {
  CHECK(ctde::choose_linear_solver(LinearSolverKind::kAuto, tridiagonal(10, kUnknown)).kind ==
        LinearSolverKind::kDense);  // small
  const auto band = ctde::choose_linear_solver(LinearSolverKind::kAuto, tridiagonal(1000, kUnknown));
  CHECK(band.kind == LinearSolverKind::kBand);
  CHECK(band.reason == "1000 states, 2998 nonzeros, half-bandwidths 1/1: banded");
  // A ring: the wrap-around entries make the band as wide as the system.
  std::vector<JacobianPattern::Entry> ring;
  const std::uint32_t n = 500;
  for (std::uint32_t i = 0; i < n; ++i) {
    ring.push_back({i, (i + 1) % n, kUnknown});
    ring.push_back({i, (i + n - 1) % n, kUnknown});
  }
  CHECK(ctde::choose_linear_solver(LinearSolverKind::kAuto, JacobianPattern(n, ring)).kind ==
        LinearSolverKind::kKlu);
  CHECK(ctde::choose_linear_solver(LinearSolverKind::kAuto, JacobianPattern::dense(100)).kind ==
        LinearSolverKind::kDense);
  CHECK(ctde::choose_linear_solver(LinearSolverKind::kGmres, tridiagonal(1000, kUnknown)).kind ==
        LinearSolverKind::kGmres);
  CHECK(ctde::choose_linear_solver(LinearSolverKind::kAuto, tridiagonal(1000, kUnknown), true).kind ==
        LinearSolverKind::kDense);
}
