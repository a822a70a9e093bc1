#include "domains/ct/jacobian_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ctde {

namespace {

// Operations the coloring may take before it gives every column a group of
// its own (a dense 1000 x 1000 block would take 1e9).
constexpr double kColoringBudget = 5e7;

}  // namespace

JacobianPattern::JacobianPattern(std::size_t n, std::vector<Entry> entries) : n_(n) {
  for (std::uint32_t i = 0; i < n; ++i) entries.push_back({i, i, 0.0});  // the diagonal, a known zero
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.column != b.column ? a.column < b.column : a.row < b.row;
  });
  starts_.assign(n + 1, 0);
  known_.assign(n, 1);
  for (std::size_t e = 0; e < entries.size();) {
    const Entry& first = entries[e];
    double value = 0;
    std::size_t next = e;
    for (; next < entries.size() && entries[next].row == first.row && entries[next].column == first.column;
         ++next)
      value += entries[next].value;  // NaN (unknown) stays NaN, kAtPoint stays kAtPoint
    rows_.push_back(first.row);
    values_.push_back(value);
    ++starts_[first.column + 1];
    if (std::isnan(value)) known_[first.row] = 0;
    lower_ = std::max<std::size_t>(lower_, first.row > first.column ? first.row - first.column : 0);
    upper_ = std::max<std::size_t>(upper_, first.column > first.row ? first.column - first.row : 0);
    e = next;
  }
  for (std::size_t j = 0; j < n; ++j) starts_[j + 1] += starts_[j];
  unknown_rows_ = static_cast<std::size_t>(std::count(known_.begin(), known_.end(), 0));
  // An unknown row's entries are all computed: a value given in it is not used.
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    if (known_[rows_[k]] == 0) {
      values_[k] = std::numeric_limits<double>::quiet_NaN();
    } else if (values_[k] == kAtPoint) {
      at_point_ = true;
    }
  }
  std::vector<std::uint8_t> unknown(n, 0);
  for (std::size_t i = 0; i < n; ++i) unknown[i] = known_[i] == 0 ? 1 : 0;
  (void)color(unknown, group_starts_, group_columns_);
  std::vector<std::size_t> starts;
  std::vector<std::uint32_t> columns;
  structural_groups_ = color(std::vector<std::uint8_t>(n, 1), starts, columns);
}

std::size_t JacobianPattern::entry(std::uint32_t row, std::uint32_t column) const {
  const auto first = rows_.begin() + static_cast<std::ptrdiff_t>(starts_[column]);
  const auto last = rows_.begin() + static_cast<std::ptrdiff_t>(starts_[column + 1]);
  return static_cast<std::size_t>(std::lower_bound(first, last, row) - rows_.begin());
}

JacobianPattern JacobianPattern::dense(std::size_t n) {
  std::vector<Entry> entries;
  entries.reserve(n * n);
  for (std::uint32_t j = 0; j < n; ++j) {
    for (std::uint32_t i = 0; i < n; ++i) entries.push_back({i, j, std::numeric_limits<double>::quiet_NaN()});
  }
  return JacobianPattern(n, std::move(entries));
}

std::size_t JacobianPattern::color(const std::vector<std::uint8_t>& rows_in, std::vector<std::size_t>& starts,
                                   std::vector<std::uint32_t>& columns) const {
  starts.clear();
  columns.clear();
  const std::size_t n = n_;
  // Rows -> columns (CSR) of the rows colored over: the columns that share
  // a row with column j are those of j's rows.
  std::vector<std::size_t> row_starts(n + 1, 0);
  for (const std::uint32_t i : rows_) {
    if (rows_in[i] != 0) ++row_starts[i + 1];
  }
  for (std::size_t i = 0; i < n; ++i) row_starts[i + 1] += row_starts[i];
  if (row_starts[n] == 0) return 0;
  std::vector<std::uint32_t> row_columns(row_starts[n]);
  std::vector<std::size_t> fill(row_starts.begin(), row_starts.end() - 1);
  for (std::uint32_t j = 0; j < n; ++j) {
    for (std::size_t k = starts_[j]; k < starts_[j + 1]; ++k) {
      if (rows_in[rows_[k]] != 0) row_columns[fill[rows_[k]]++] = j;
    }
  }
  // The greedy pass costs the sum over the rows of their length squared:
  // for nearly dense rows (where it would find about n groups anyway) each
  // column is a group of its own.
  double cost = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto length = static_cast<double>(row_starts[i + 1] - row_starts[i]);
    cost += length * length;
  }
  if (cost > kColoringBudget) {
    for (std::uint32_t j = 0; j < n; ++j) {
      starts.push_back(columns.size());
      columns.push_back(j);
    }
    starts.push_back(columns.size());
    return n;
  }
  // Greedy, in column order: the least group not used by a column that
  // shares a row. forbidden[g] == j + 1 marks g as used for j.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> group(n, kNone);
  std::vector<std::size_t> forbidden;
  std::uint32_t groups = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    bool in_a_row = false;
    for (std::size_t k = starts_[j]; k < starts_[j + 1]; ++k) {
      const std::uint32_t i = rows_[k];
      if (rows_in[i] == 0) continue;
      in_a_row = true;
      for (std::size_t c = row_starts[i]; c < row_starts[i + 1]; ++c) {
        const std::uint32_t other = group[row_columns[c]];
        if (other != kNone) forbidden[other] = j + 1;
      }
    }
    if (!in_a_row) continue;  // no row colored over reads it
    std::uint32_t g = 0;
    while (g < groups && forbidden[g] == j + 1) ++g;
    if (g == groups) {
      ++groups;
      forbidden.push_back(0);
    }
    group[j] = g;
  }
  starts.assign(groups + 1, 0);
  for (const std::uint32_t g : group) {
    if (g != kNone) ++starts[g + 1];
  }
  for (std::size_t g = 0; g < groups; ++g) starts[g + 1] += starts[g];
  columns.resize(starts[groups]);
  std::vector<std::size_t> at(starts.begin(), starts.end() - 1);
  for (std::uint32_t j = 0; j < n; ++j) {
    if (group[j] != kNone) columns[at[group[j]]++] = j;
  }
  return groups;
}

JacobianPattern JacobianPattern::unknown_values() const {
  std::vector<Entry> entries;
  entries.reserve(rows_.size());
  for (std::uint32_t j = 0; j < n_; ++j) {
    for (std::size_t k = starts_[j]; k < starts_[j + 1]; ++k) {
      entries.push_back({rows_[k], j, std::numeric_limits<double>::quiet_NaN()});
    }
  }
  return {n_, std::move(entries)};
}

}  // namespace ctde
