#pragma once
/// The one expression engine of ctde: muparser behind a small interface,
/// used by parameters, `Expression` actors and mode charts alike, so that
/// every expression of a model follows the same rules. No other file
/// includes muparser.
///
/// The rules: an expression only computes a value (an assignment, `k = 3`,
/// is refused: muparser would write to the variable), it is one expression
/// (not a list `a, b`), and it reads only names bound to it. Mistakes found
/// when an expression is set are ModelErrors; failures when it is evaluated
/// are RunErrors — never muparser's own exception type, which is not a
/// std::exception.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ctde {

/// The names of the functions every expression may call: muparser's own
/// and ctde's `floor`, `ceil`, `round`, `mod` (docs/model-reference.md,
/// "Expressions", lists them; a test checks the list against it).
[[nodiscard]] std::vector<std::string> engine_functions();

/// True when `text` is a name an expression can read: letters, digits and
/// '_', not starting with a digit (parameters, a chart's states, inputs,
/// outputs and modes are named so).
[[nodiscard]] bool is_identifier(std::string_view text);

/// The position of an assignment ('=', '+=', ...) in an expression, or npos.
[[nodiscard]] std::size_t find_assignment(std::string_view expression);

/// Throws ModelError "<what>: "expr" assigns with '=' (column N); an
/// expression only computes a value" when `expression` assigns.
void reject_assignment(std::string_view expression, const std::string& what);

/// One parsed expression and the variables it reads. Movable, not copyable
/// (bound variables are addresses).
class CompiledExpression {
 public:
  CompiledExpression();
  ~CompiledExpression();
  CompiledExpression(CompiledExpression&&) noexcept;
  CompiledExpression& operator=(CompiledExpression&&) noexcept;
  CompiledExpression(const CompiledExpression&) = delete;
  CompiledExpression& operator=(const CompiledExpression&) = delete;

  /// The names `text` reads, in muparser's order, whether bound or not.
  /// @throws ModelError "<what>: bad expression ..." for a syntax error or
  ///         an assignment.
  [[nodiscard]] static std::vector<std::string> names_in(const std::string& text, const std::string& what);

  /// Throws ModelError "<what> cannot be used in expressions: ..." when the
  /// engine refuses `name` as a variable (longer than 100 characters, or one
  /// of its constants `_pi`, `_e`).
  static void check_name(const std::string& name, const std::string& what);

  /// Binds `name` to the double at `value`, read at every evaluation (it
  /// must outlive the expression). @throws ModelError when muparser cannot
  /// use the name (a reserved one such as `_pi`, or too long).
  void bind(const std::string& name, double* value, const std::string& what);
  /// Defines `name` as a constant of the expression.
  void bind_constant(const std::string& name, double value, const std::string& what);
  /// Forgets every binding (then set() again).
  void clear_bindings();

  /// Parses `text`. @throws ModelError prefixed by `what`: a syntax error, an
  /// assignment, a list of expressions, or a name not bound ("'x' in
  /// expression "..." is not <unbound>", e.g. "a defined parameter").
  void set(const std::string& text, const std::string& what, const std::string& unbound = "defined");
  /// As set(), but `text` may be a list of expressions separated by commas
  /// ("in0 + 1, 2 * in0"): a vector of size() values.
  void set_list(const std::string& text, const std::string& what, const std::string& unbound = "defined");
  /// The number of values `text` computes, 1 or more (a list's length),
  /// whatever names it reads. @throws ModelError as names_in().
  [[nodiscard]] static std::size_t list_size(const std::string& text, const std::string& what);

  /// The value now. Allocates nothing once set() has run (the parsed form
  /// is kept). @throws RunError naming the expression when muparser fails.
  [[nodiscard]] double evaluate() const;

  /// Every value of a list set by set_list(), into `out` (size() of them).
  /// Allocates nothing. @throws RunError as evaluate().
  void evaluate(std::span<double> out) const;
  /// The number of values (1 after set()).
  [[nodiscard]] std::size_t size() const { return size_; }

  /// The text last set().
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
  std::string text_;
  std::size_t size_ = 1;
  void parse(const std::string& text, const std::string& what, const std::string& unbound, bool list);
};

}  // namespace ctde
