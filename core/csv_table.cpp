#include "core/csv_table.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace ctde {

namespace {

bool parse_cell(std::string_view cell, double& out) {
  while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t')) cell.remove_prefix(1);
  while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t' || cell.back() == '\r')) {
    cell.remove_suffix(1);
  }
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  const auto result = std::from_chars(cell.data(), cell.data() + cell.size(), out);
  return !cell.empty() && result.ec == std::errc() && result.ptr == cell.data() + cell.size();
}

}  // namespace

Matrix read_csv_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ModelError("cannot open CSV file '" + path + "'");
  Matrix table;
  std::string line;
  std::size_t number = 0;
  bool first_data = true;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == "\r" || line[0] == '#') continue;
    std::vector<double> row;
    bool numeric = true;
    std::string_view rest(line);
    while (true) {
      const auto comma = rest.find(',');
      double value = 0;
      if (!parse_cell(rest.substr(0, comma), value)) {
        numeric = false;
        break;
      }
      row.push_back(value);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (!numeric) {
      if (first_data) {  // a header line
        first_data = false;
        continue;
      }
      throw ModelError("CSV file '" + path + "' line " + std::to_string(number) + ": a cell is not a number");
    }
    first_data = false;
    if (table.cols == 0) table.cols = row.size();
    if (row.size() != table.cols) {
      throw ModelError("CSV file '" + path + "' line " + std::to_string(number) + " has " +
                       std::to_string(row.size()) + " columns, the first row has " +
                       std::to_string(table.cols));
    }
    table.data.insert(table.data.end(), row.begin(), row.end());
    ++table.rows;
  }
  if (table.rows == 0) throw ModelError("CSV file '" + path + "' has no rows of numbers");
  return table;
}

}  // namespace ctde
