#pragma once
/// Number formatting that round-trips: results, traces and messages use it.

#include <span>
#include <string>

namespace ctde {

/// The shortest decimal text that reads back to exactly `value`
/// ("0.1", "1e-12", "inf", "-inf", "nan").
[[nodiscard]] std::string format_double(double value);

/// `[a, b, c]` with each element as format_double.
[[nodiscard]] std::string format_vector(std::span<const double> values);

}  // namespace ctde
