#pragma once
/// An evaluated parameter, compact: a single number (a scalar, or a vector
/// or matrix of one element) is held inline; vectors, matrices, texts and
/// structures are held behind one pointer. A model of a million actors
/// holds a million scalars (a Gain's k), each 16 bytes and no heap block.

#include <nlohmann/json_fwd.hpp>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ctde {

/// What a declared parameter must evaluate to.
enum class ParamKind : std::uint8_t {
  kScalar,  ///< one number
  kVector,  ///< one or more numbers (a scalar is a vector of one)
  kMatrix,  ///< rows of numbers (a scalar is 1x1, a flat list one row)
  kString,  ///< a literal string, not evaluated ("rising", "+-+")
  kFile,    ///< a file name; in model files, relative to the model file's folder
  /// Structured configuration (a mode chart's modes, transitions...): a JSON
  /// value, not evaluated; the actor reads it (ResolvedParam::json, through a
  /// JsonCursor). In model files the parameter's JSON value as written
  /// (objects, arrays, numbers, strings), parsed once with its keys in the
  /// file's order; set from C++, a JSON value or its text.
  kStructure,
};

/// "scalar", "vector", "matrix", "string", "file", "structure".
[[nodiscard]] std::string_view to_string(ParamKind kind);

/// An evaluated parameter: its kind and numbers (row-major, with the matrix
/// shape), its text (a string, a file name, a structure's JSON text) or its
/// JSON value (a structure); or unset (an optional parameter left unset:
/// no numbers, no text, shape 0x0). Copyable value type (a copy copies the
/// numbers and the text; the JSON value is shared, never changed).
class ResolvedParam {
 public:
  /// Unset, of kind scalar.
  ResolvedParam() = default;
  /// Unset, of `kind`.
  explicit ResolvedParam(ParamKind kind) : kind_(kind) {}
  ~ResolvedParam() { delete boxed(); }
  ResolvedParam(const ResolvedParam& other);
  ResolvedParam& operator=(const ResolvedParam& other);
  ResolvedParam(ResolvedParam&& other) noexcept;
  ResolvedParam& operator=(ResolvedParam&& other) noexcept;

  /// One number, shape 1x1, as any numeric kind (held inline).
  [[nodiscard]] static ResolvedParam number(ParamKind kind, double value);
  /// Numbers of a numeric kind, row-major, with the shape (rows x cols for a
  /// matrix; a vector keeps the shape it is given). One number of shape 1x1
  /// is held inline, as number() holds it.
  [[nodiscard]] static ResolvedParam numbers(ParamKind kind, std::vector<double> values, std::size_t rows,
                                             std::size_t cols);
  /// A string or a file name (shape 1x1, no numbers).
  [[nodiscard]] static ResolvedParam text_value(ParamKind kind, std::string text);
  /// A structure: its JSON value, shared, and that value's JSON text.
  [[nodiscard]] static ResolvedParam structure(std::shared_ptr<const nlohmann::ordered_json> json);

  [[nodiscard]] ParamKind kind() const { return kind_; }
  /// True for an optional parameter left unset.
  [[nodiscard]] bool is_unset() const { return form_ == Form::kUnset; }
  /// The numbers (row-major); none for texts, structures and unset values.
  /// The span views this object: it lasts while the object is unchanged.
  [[nodiscard]] std::span<const double> values() const {
    if (form_ == Form::kNumber) return {&number_, 1};
    if (form_ == Form::kBoxed) return boxed_->values;
    return {};
  }
  /// The first number. Precondition: values() is not empty.
  [[nodiscard]] double scalar() const {
    assert(!values().empty());
    return form_ == Form::kNumber ? number_ : boxed_->values[0];
  }
  /// The matrix shape: 1x1 for a number, a text and a structure; 0x0 unset.
  [[nodiscard]] std::size_t rows() const;
  [[nodiscard]] std::size_t cols() const;
  /// The string, the file name or the structure's JSON text; else empty.
  [[nodiscard]] const std::string& text() const;
  /// The structure's JSON value, shared; else null.
  [[nodiscard]] const std::shared_ptr<const nlohmann::ordered_json>& json() const;

  /// The same numbers as `kind` (a named vector or matrix parameter used
  /// whole): a vector takes shape 1x1 as a vector from a number does, a
  /// matrix from a vector one row. Precondition: this is numeric.
  [[nodiscard]] ResolvedParam as(ParamKind kind) const;

 private:
  /// What does not fit inline: many numbers or their shape, a text, a JSON value.
  struct Boxed {
    std::vector<double> values;
    std::size_t rows = 1;
    std::size_t cols = 1;
    std::string text;
    std::shared_ptr<const nlohmann::ordered_json> json;
  };
  enum class Form : std::uint8_t { kUnset, kNumber, kBoxed };

  ResolvedParam(ParamKind kind, Boxed boxed);
  [[nodiscard]] Boxed* boxed() const { return form_ == Form::kBoxed ? boxed_ : nullptr; }
  /// Takes `other`'s value (form_ already copied from it); leaves it unset.
  void take_value(ResolvedParam& other) noexcept;

  union {
    double number_ = 0;  ///< Form::kNumber
    Boxed* boxed_;       ///< Form::kBoxed: owned
  };
  ParamKind kind_ = ParamKind::kScalar;
  Form form_ = Form::kUnset;
};

}  // namespace ctde
