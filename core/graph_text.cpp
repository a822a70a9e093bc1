#include "core/graph_text.hpp"

#include <nlohmann/json.hpp>

#include <span>
#include <vector>

#include "core/actor.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

/// Longest value text before it is cut.
constexpr std::size_t kLongValue = 60;

/// `items` as "[a, b, c]", cut after the whole items that fit in about
/// kLongValue characters, then `more` ("... (N values)").
std::string bracketed(const std::vector<std::string>& items, const std::string& more) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string_view separator = i > 0 ? ", " : "";
    if (out.size() + separator.size() + items[i].size() > kLongValue) {
      append(out, {separator, more});
      break;
    }
    append(out, {separator, items[i]});
  }
  out += ']';
  return out;
}

std::vector<std::string> numbers(std::span<const double> values, std::size_t from, std::size_t count) {
  std::vector<std::string> out;
  out.reserve(count);
  for (std::size_t i = from; i < from + count; ++i) out.push_back(format_double(values[i]));
  return out;
}

}  // namespace

std::string dot_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string short_value(const ResolvedParam& value) {
  const std::span<const double> values = value.values();
  const bool matrix_or_vector = value.kind() == ParamKind::kVector || value.kind() == ParamKind::kMatrix;
  if (matrix_or_vector && values.size() == 1) return format_double(values[0]);  // as written: `2`
  switch (value.kind()) {
    case ParamKind::kScalar:
      return values.empty() ? "(unset)" : format_double(values[0]);
    case ParamKind::kVector:
      return bracketed(numbers(values, 0, values.size()),
                       concat({"... (", std::to_string(values.size()), " values)"}));
    case ParamKind::kMatrix: {
      std::vector<std::string> rows;
      for (std::size_t r = 0; r < value.rows(); ++r) {
        rows.push_back(bracketed(numbers(values, r * value.cols(), value.cols()), "..."));
      }
      return bracketed(
          rows, concat({"... (", std::to_string(value.rows()), "x", std::to_string(value.cols()), ")"}));
    }
    case ParamKind::kString:
    case ParamKind::kFile:
      return concat({"\"", value.text(), "\""});
    case ParamKind::kStructure:
      return value.json() ? cut_text(value.json()->dump(), kLongValue) : "(unset)";
  }
  return "";
}

std::string actor_tooltip(const Actor& actor, std::string_view path) {
  return concat({path, " (", actor.type(), ")", actor.tooltip_lines()});
}

std::string graph_cluster_id(std::string_view path) { return concat({"cluster_chart_", path}); }

}  // namespace ctde
