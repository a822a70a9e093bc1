#pragma once
/// Text for results, traces and messages: numbers that round-trip, lists,
/// JSON locations.

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctde {

/// The shortest decimal text that reads back to exactly `value`
/// ("0.1", "1e-12", "inf", "-inf", "nan").
[[nodiscard]] std::string format_double(double value);

/// Appends format_double(value) to `out` without a temporary string (no
/// allocation once `out` has the capacity).
void append_double(std::string& out, double value);

/// Appends `parts` to `out`. The one way to build text from literals and
/// strings here: GCC 12 reports `"text" + string` falsely as overlapping
/// copies (-Wrestrict), which warnings-as-errors would stop.
void append(std::string& out, std::initializer_list<std::string_view> parts);

/// `parts` joined into one string (append() on an empty one).
[[nodiscard]] std::string concat(std::initializer_list<std::string_view> parts);

/// "a, b, c".
[[nodiscard]] std::string join(const std::vector<std::string>& items);

/// `key` as one token of a JSON pointer (RFC 6901: "~" → "~0", "/" → "~1").
[[nodiscard]] std::string json_pointer_token(std::string_view key);

/// `text` cut to `limit` (> 3) characters ("..." at the end when cut).
[[nodiscard]] std::string cut_text(std::string text, std::size_t limit);

/// `text` cut to 80 characters (cut_text) for a message.
[[nodiscard]] inline std::string shorten_for_message(std::string text) {
  return cut_text(std::move(text), 80);
}

}  // namespace ctde
