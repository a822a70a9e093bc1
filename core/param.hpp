#pragma once
/// Parameter values: numbers, vectors, matrices, strings, and muparser
/// expressions over the model's parameters.

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "resolved_param.hpp"

namespace ctde {

/// A dense row-major matrix. Copyable value type.
struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  ///< rows * cols values, row by row

  [[nodiscard]] double operator()(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
};

/// A parameter as written, before evaluation: a number, a text (an
/// expression, or a plain string where the parameter is a string), a list
/// of values (a vector; a list of lists is a matrix), or a JSON value as a
/// model file wrote it (a structured parameter, ParamKind::kStructure).
/// Copyable value type (a JSON value is shared, never copied).
class ParamValue {
 public:
  enum class Kind { kNumber, kText, kList, kJson };

  ParamValue(double number);                       // NOLINT(google-explicit-constructor)
  ParamValue(int number);                          // NOLINT(google-explicit-constructor)
  ParamValue(const char* text);                    // NOLINT(google-explicit-constructor)
  ParamValue(std::string text);                    // NOLINT(google-explicit-constructor)
  ParamValue(std::vector<ParamValue> items);       // NOLINT(google-explicit-constructor)
  ParamValue(const std::vector<double>& numbers);  // NOLINT(google-explicit-constructor)
  ParamValue(const Matrix& matrix);                // NOLINT(google-explicit-constructor)
  explicit ParamValue(const nlohmann::ordered_json& json);

  [[nodiscard]] Kind kind() const { return static_cast<Kind>(value_.index()); }
  /// The number (Kind::kNumber), else 0.
  [[nodiscard]] double number() const;
  /// The text (Kind::kText), else empty.
  [[nodiscard]] const std::string& text() const;
  /// The items (Kind::kList), else none.
  [[nodiscard]] const std::vector<ParamValue>& items() const;
  /// The JSON value (Kind::kJson), shared; else null.
  [[nodiscard]] const std::shared_ptr<const nlohmann::ordered_json>& json() const;

  /// The value as the model file would write it ("-e", 2, [1, "k"]).
  [[nodiscard]] std::string to_string() const;

 private:
  /// One of them, in the order of Kind (40 bytes: a million actors' parameters fit).
  std::variant<double, std::string, std::vector<ParamValue>, std::shared_ptr<const nlohmann::ordered_json>>
      value_;
};

/// True when `text` is a number literal beyond a double's range ("1e999";
/// also "1e-999", below it): the loader and parameters refuse those alike.
[[nodiscard]] bool beyond_double_range(std::string_view text);

/// The model's named parameters and an expression evaluator over them.
///
/// Scalar parameters are variables of every expression; vector and matrix
/// parameters can be used whole by naming them (`"k": "K"`). Parameters may
/// refer to each other in any order; cycles and undefined names are errors.
/// Not copyable (it owns the parser); movable.
class ParameterScope {
 public:
  ParameterScope();
  ~ParameterScope();
  ParameterScope(ParameterScope&&) noexcept;
  ParameterScope& operator=(ParameterScope&&) noexcept;
  ParameterScope(const ParameterScope&) = delete;
  ParameterScope& operator=(const ParameterScope&) = delete;

  /// Defines or replaces a parameter. Takes effect at the next `resolve()`.
  /// `location` says where it was written ("model.json at /parameters/k",
  /// "--set k=3"): errors found evaluating it carry it.
  /// @throws ModelError for a name that is not an identifier, or that
  ///         expressions cannot read (longer than 100 characters, `_pi`, `_e`).
  void set(const std::string& name, ParamValue value, std::string location = "");

  /// Evaluates all parameters.
  /// @throws ModelError naming the parameter (`parameter 'h0': ...`) for a bad
  ///         expression, an undefined name, a cycle, or a non-finite value.
  void resolve();

  /// True if `name` is a defined parameter.
  [[nodiscard]] bool has(const std::string& name) const;
  /// Raw definitions, in name order.
  [[nodiscard]] const std::map<std::string, ParamValue>& definitions() const { return raw_; }
  /// The resolved value of a parameter (after `resolve()`).
  [[nodiscard]] const ResolvedParam& value(const std::string& name) const;

  /// Evaluates `value` as `kind`. `what` names the parameter in messages
  /// (e.g. "parameter 'k' of 'plant.gain'").
  /// @throws ModelError on a bad or undefined expression or a shape mismatch.
  [[nodiscard]] ResolvedParam evaluate(const ParamValue& value, ParamKind kind,
                                       const std::string& what) const;

  /// Checks that `expression` parses and names only parameters and `locals`;
  /// returns the names it uses.
  /// @throws ModelError (prefixed by `what`) for a syntax error or an undefined name.
  [[nodiscard]] std::vector<std::string> check_expression(const std::string& expression,
                                                          const std::vector<std::string>& locals,
                                                          const std::string& what) const;

  /// Evaluates one scalar expression.
  /// @throws ModelError as evaluate().
  [[nodiscard]] double evaluate_scalar(const std::string& expression, const std::string& what) const;

 private:
  struct Parser;
  std::map<std::string, ParamValue> raw_;
  std::map<std::string, std::string> location_;  ///< where each parameter was written (or absent)
  std::map<std::string, ResolvedParam> resolved_;
  std::unique_ptr<Parser> parser_;
};

}  // namespace ctde
