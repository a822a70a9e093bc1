#pragma once
/// The boolean structure of a mode chart's predicates (transition guards and
/// asserts): comparisons of two arithmetic expressions joined by `&&`, `||`
/// and `!`, with parentheses:
///
/// ```
/// predicate  := or
/// or         := and { "||" and }
/// and        := unary { "&&" unary }
/// unary      := "!" unary | "(" predicate ")" | comparison
/// comparison := expression ( "<" | "<=" | ">" | ">=" ) expression
/// ```
///
/// The two sides of a comparison are muparser expressions, kept as text here
/// (chart_program.hpp compiles them). Operators are found at the top level
/// of parentheses only, so a side may hold anything muparser reads
/// (`max(x, y) * 2`, `(a + b) / 2`). `!` negates the comparison or group that
/// follows it (`!x > 1` is `!(x > 1)`). `==`, `!=` and a lone `=` are
/// rejected: an equality of two real quantities is never located as a
/// crossing, and `=` is muparser's assignment.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctde {

/// A comparison operator.
enum class Comparison : std::uint8_t { kLess, kLessEqual, kGreater, kGreaterEqual };

/// "<", "<=", ">" or ">=".
[[nodiscard]] std::string_view to_string(Comparison comparison);

/// One node of a parsed predicate. Copyable value type.
struct PredicateNode {
  enum class Kind : std::uint8_t { kCompare, kAnd, kOr, kNot };
  Kind kind = Kind::kCompare;
  Comparison comparison = Comparison::kLess;  ///< kCompare
  std::string lhs;                            ///< kCompare: the left side, trimmed
  std::string rhs;                            ///< kCompare: the right side, trimmed
  std::size_t lhs_column = 0;                 ///< kCompare: column (from 1) of lhs in the predicate
  std::size_t rhs_column = 0;                 ///< kCompare: column (from 1) of rhs in the predicate
  std::size_t left = 0;                       ///< kAnd, kOr, kNot: first operand (node index)
  std::size_t right = 0;                      ///< kAnd, kOr: second operand (node index)
};

/// A parsed predicate: nodes in an array, every node after its operands, the
/// root last. Copyable value type.
struct Predicate {
  std::string text;                  ///< as written
  std::vector<PredicateNode> nodes;  ///< never empty after parse_predicate()

  [[nodiscard]] std::size_t root() const { return nodes.size() - 1; }
};

/// Parses `text`.
/// @throws ModelError whose message says what is wrong and where, as
///         "... at column N" (columns count bytes from 1); the caller adds
///         which actor and which predicate.
[[nodiscard]] Predicate parse_predicate(const std::string& text);

}  // namespace ctde
