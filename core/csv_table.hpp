#pragma once
/// Numeric tables from CSV files (TimeTable's `file`).

#include <string>

#include "param.hpp"

namespace ctde {

/// Reads a CSV file of numbers: one row per line, comma-separated; a first
/// line that is not numeric is a header and skipped; blank lines and lines
/// starting with '#' are ignored.
/// @throws ModelError naming the file and line for an unreadable file, a
///         non-numeric cell, or rows of different lengths.
[[nodiscard]] Matrix read_csv_table(const std::string& path);

}  // namespace ctde
