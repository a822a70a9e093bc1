#pragma once
/// The structure of a Jacobian J = ∂f/∂x (n × n): where its nonzeros may be,
/// the values known exactly, its bandwidths, and the column groups for
/// finite differences (docs/semantics.md, "Jacobians").
///
/// Made from the entries that a model's structure gives (the director's
/// jacobian_assembly.hpp) or from a test's list; the solver's linear solver
/// is chosen from it (linear_solver.hpp) and the Jacobian evaluated over it
/// (jacobian_evaluator.hpp).
///
/// - Storage: compressed sparse columns (CSC), rows sorted within a column,
///   the diagonal always present (the Newton matrix I - γJ needs it; a
///   diagonal the model does not give is a known zero).
/// - Values: a row is *known* when every one of its entries has a value
///   (a linear right-hand side: the values are constants of the run); the
///   other rows are computed by finite differences.
/// - Values at each point: a known row may hold entries whose value is
///   +infinity (kAtPoint): they change from point to point (an FMU's
///   directional derivatives composed along the model), and the evaluator
///   asks its JacobianValuesFunction for them at each evaluation.
/// - Column groups (Curtis, Powell and Reid 1974): columns none of whose
///   unknown rows overlap are perturbed together, so one evaluation of f
///   gives all of their columns; the groups are a greedy coloring of the
///   column intersection graph of the unknown rows, in column order. A
///   tridiagonal J needs 3 groups, a block-diagonal one the block size, a
///   dense one n.
///
/// Copyable value type; made once per run.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace ctde {

class JacobianPattern {
 public:
  /// A known value given at each point (values_at_point()).
  static constexpr double kAtPoint = std::numeric_limits<double>::infinity();
  /// One structural nonzero: d f[row] / d x[column], value NaN when unknown,
  /// kAtPoint when given at each point.
  struct Entry {
    std::uint32_t row = 0;
    std::uint32_t column = 0;
    double value = 0;
  };

  JacobianPattern() = default;
  /// The pattern of `entries` (any order; duplicates are summed, an unknown
  /// one making the sum unknown), with the diagonal added. Pre: every row and
  /// column < n.
  JacobianPattern(std::size_t n, std::vector<Entry> entries);
  /// A dense n × n pattern, every value unknown (nothing is known of f).
  static JacobianPattern dense(std::size_t n);

  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] std::size_t nonzeros() const { return rows_.size(); }
  /// Largest i - j over the nonzeros (0 when none is below the diagonal).
  [[nodiscard]] std::size_t lower_bandwidth() const { return lower_; }
  /// Largest j - i over the nonzeros.
  [[nodiscard]] std::size_t upper_bandwidth() const { return upper_; }

  /// CSC: column j's entries are [column_starts()[j], column_starts()[j + 1]).
  [[nodiscard]] std::span<const std::size_t> column_starts() const { return starts_; }
  [[nodiscard]] std::span<const std::uint32_t> row_indices() const { return rows_; }
  /// Per entry: its value, NaN when its row is computed by finite differences.
  [[nodiscard]] std::span<const double> values() const { return values_; }
  /// True when row i's values are all known.
  [[nodiscard]] bool row_known(std::size_t i) const { return known_[i] != 0; }
  /// True when every row is known: J is a constant of the run.
  [[nodiscard]] bool all_known() const { return unknown_rows_ == 0; }
  [[nodiscard]] std::size_t unknown_rows() const { return unknown_rows_; }
  /// True when a known row holds a kAtPoint value.
  [[nodiscard]] bool values_at_point() const { return at_point_; }
  /// The entry (an index into row_indices() and values()) of d f[row] / d x[column].
  /// Pre: it is a structural nonzero.
  [[nodiscard]] std::size_t entry(std::uint32_t row, std::uint32_t column) const;

  /// The column groups: group_count() evaluations of f give every unknown
  /// row; columns of group g are group_columns(g). No column of a known-only
  /// structure is in a group.
  [[nodiscard]] std::size_t group_count() const {
    return group_starts_.empty() ? 0 : group_starts_.size() - 1;
  }
  [[nodiscard]] std::span<const std::uint32_t> group_columns(std::size_t g) const {
    return {group_columns_.data() + group_starts_[g], group_starts_[g + 1] - group_starts_[g]};
  }
  /// The groups finite differences of every row would need (the structure's
  /// own number, whatever is known: 3 for a tridiagonal J).
  [[nodiscard]] std::size_t structural_group_count() const { return structural_groups_; }
  /// The same structure with every value unknown (every row by differences).
  [[nodiscard]] JacobianPattern unknown_values() const;

 private:
  /// Colors the columns over the rows `rows_in` marks; the groups into
  /// `starts` and `columns`. Returns the number of groups.
  std::size_t color(const std::vector<std::uint8_t>& rows_in, std::vector<std::size_t>& starts,
                    std::vector<std::uint32_t>& columns) const;

  std::size_t n_ = 0;
  std::vector<std::size_t> starts_;  // n + 1
  std::vector<std::uint32_t> rows_;
  std::vector<double> values_;
  std::vector<std::uint8_t> known_;  // per row
  std::size_t unknown_rows_ = 0;
  bool at_point_ = false;
  std::size_t lower_ = 0;
  std::size_t upper_ = 0;
  std::vector<std::size_t> group_starts_;
  std::vector<std::uint32_t> group_columns_;
  std::size_t structural_groups_ = 0;
};

}  // namespace ctde
