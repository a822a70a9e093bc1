#pragma once
/// Text for results, traces and messages: numbers that round-trip, lists,
/// JSON locations.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ctde {

/// The shortest decimal text that reads back to exactly `value`
/// ("0.1", "1e-12", "inf", "-inf", "nan").
[[nodiscard]] std::string format_double(double value);

/// Appends format_double(value) to `out` without a temporary string (no
/// allocation once `out` has the capacity).
void append_double(std::string& out, double value);

/// `[a, b, c]` with each element as format_double.
[[nodiscard]] std::string format_vector(std::span<const double> values);

/// "a, b, c".
[[nodiscard]] std::string join(const std::vector<std::string>& items);

/// `key` as one token of a JSON pointer (RFC 6901: "~" → "~0", "/" → "~1").
[[nodiscard]] std::string json_pointer_token(std::string_view key);

/// `text` cut to 80 characters (77 and "...") for a message.
[[nodiscard]] std::string shorten_for_message(std::string text);

}  // namespace ctde
