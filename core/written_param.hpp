#pragma once
/// A declared parameter's value as written, compact: a number or a short
/// text (an expression such as "k0 * 0.5", a word such as "rising") is held
/// in the object's 16 bytes; a list, a longer text or a JSON value behind
/// one pointer. The actor's slot holds one (core/actor.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "param.hpp"

namespace ctde {

/// A ParamValue, or none (a required parameter not set). Copyable value
/// type (a copy copies the value; a JSON value is shared, as ParamValue
/// shares it).
class WrittenParam {
 public:
  /// The longest text held inline.
  static constexpr std::size_t kInlineText = 15;

  /// None.
  WrittenParam() = default;
  /// `value`, or none.
  explicit WrittenParam(std::optional<ParamValue> value);
  ~WrittenParam();
  WrittenParam(const WrittenParam& other);
  WrittenParam& operator=(const WrittenParam& other);
  WrittenParam(WrittenParam&& other) noexcept;
  WrittenParam& operator=(WrittenParam&& other) noexcept;
  /// Replaces the value.
  WrittenParam& operator=(ParamValue value);

  [[nodiscard]] bool has_value() const { return form() != Form::kNone; }
  explicit operator bool() const { return has_value(); }
  /// The value's kind. Precondition: has_value().
  [[nodiscard]] ParamValue::Kind kind() const;
  /// The number (Kind::kNumber), else 0.
  [[nodiscard]] double number() const;
  /// The text (Kind::kText), else empty. Views this object (or its block).
  [[nodiscard]] std::string_view text() const;
  /// The value held in a block of its own (a list, a text longer than
  /// kInlineText, a JSON value), else null: read it without a copy.
  [[nodiscard]] const ParamValue* boxed() const;
  /// The value, a copy (no heap block for a number or an inline text).
  /// Precondition: has_value().
  [[nodiscard]] ParamValue get() const;

 private:
  enum class Form : std::uint8_t { kNone, kNumber, kBoxed, kText };
  static constexpr std::size_t kTag = 15;  ///< the byte that holds the form (and an inline text's length)

  [[nodiscard]] Form form() const;
  void clear();
  void set_boxed(ParamValue* value);

  /// [0, 15): the number, the block's pointer or an inline text; [15]: the
  /// form, or for an inline text 16 + its length.
  alignas(8) std::array<char, 16> bytes_{};
};

}  // namespace ctde
