#include "cli/graph_details.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "actors/modal/modal_model.hpp"
#include "core/format.hpp"

namespace ctde::cli {

namespace {

/// Longest value text before it is cut.
constexpr std::size_t kLongValue = 60;
/// Longest guard drawn on a transition before it is cut.
constexpr std::size_t kLongGuard = 40;
/// Longest reset (or instantaneous mode's actions) drawn at all.
constexpr std::size_t kLongAction = 30;

/// Appends `parts` to `out` (no `"text" + string` temporaries, which GCC 12
/// reports falsely as overlapping copies).
void add(std::string& out, std::initializer_list<std::string_view> parts) {
  for (const std::string_view part : parts) out += part;
}

/// `items` as "[a, b, c]", cut after the whole items that fit in about
/// kLongValue characters, then `more` ("... (N values)").
std::string bracketed(const std::vector<std::string>& items, const std::string& more) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string separator = i > 0 ? ", " : "";
    if (out.size() + separator.size() + items[i].size() > kLongValue) {
      out += separator;
      out += more;
      break;
    }
    out += separator;
    out += items[i];
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

/// `text` cut to `limit` characters ("..." at the end when cut).
std::string cut(std::string text, std::size_t limit) {
  if (text.size() > limit) {
    text.resize(limit - 3);
    text += "...";
  }
  return text;
}

/// "a = x; b = y" for `assignments`.
std::string actions(const std::vector<ChartAssignment>& assignments) {
  std::string out;
  for (const ChartAssignment& a : assignments) {
    if (!out.empty()) out += "; ";
    out += a.name;
    out += " = ";
    out += a.expression;
  }
  return out;
}

/// The index of mode `name` in `chart`, or the mode count when it is unknown.
std::size_t mode_index(const ModalChart& chart, const std::string& name) {
  for (std::size_t i = 0; i < chart.modes.size(); ++i) {
    if (chart.modes[i].name == name) return i;
  }
  return chart.modes.size();
}

std::string mode_id(std::size_t vertex, std::size_t mode) {
  std::string id = "m";
  add(id, {std::to_string(vertex), "_", std::to_string(mode)});
  return id;
}

/// A mode's tooltip: its name, then its derivatives, outputs and actions.
std::string mode_tooltip(const ChartMode& mode) {
  std::string out = "mode ";
  out += mode.name;
  for (const ChartAssignment& a : mode.der) add(out, {"\nd", a.name, "/dt = ", a.expression});
  for (const ChartAssignment& a : mode.outputs) add(out, {"\noutput ", a.name, " = ", a.expression});
  for (const ChartAssignment& a : mode.entry) add(out, {"\nentry ", a.name, " = ", a.expression});
  for (const ChartAssignment& a : mode.set) add(out, {"\nset ", a.name, " = ", a.expression});
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
    case ParamKind::kVector: {
      std::string more = "... (";
      add(more, {std::to_string(values.size()), " values)"});
      return bracketed(numbers(values, 0, values.size()), more);
    }
    case ParamKind::kMatrix: {
      std::vector<std::string> rows;
      for (std::size_t r = 0; r < value.rows(); ++r) {
        rows.push_back(bracketed(numbers(values, r * value.cols(), value.cols()), "..."));
      }
      std::string more = "... (";
      add(more, {std::to_string(value.rows()), "x", std::to_string(value.cols()), ")"});
      return bracketed(rows, more);
    }
    case ParamKind::kString:
    case ParamKind::kFile: {
      std::string out = "\"";
      add(out, {value.text(), "\""});
      return out;
    }
    case ParamKind::kStructure:
      return value.json() ? cut(value.json()->dump(), kLongValue) : "(unset)";
  }
  return "";
}

std::string actor_tooltip(const Actor& actor, const std::string& path) {
  std::string out = path;
  add(out, {" (", actor.type(), ")"});
  if (const auto* modal = dynamic_cast<const ModalModel*>(&actor)) {
    const ModalChart& chart = modal->chart();
    for (const ChartAssignment& p : chart.parameters)
      add(out, {"\n", p.name, " = ", cut(p.expression, kLongValue)});
    for (const ChartAssignment& s : chart.states) {
      add(out, {"\nstate ", s.name, ", initially ", cut(s.expression, kLongValue)});
    }
    return out;
  }
  for (const ParamSlot& slot : actor.parameters()) {
    if (slot.resolved.is_unset()) continue;  // an optional parameter left unset
    add(out, {"\n", slot.name.str(), " = ", short_value(slot.resolved)});
  }
  return out;
}

std::string chart_cluster_id(const std::string& path) {
  std::string id = "cluster_chart_";
  id += path;
  return id;
}

void write_chart_cluster(std::ostream& out, const ModalChart& chart, std::size_t vertex, const Actor& actor,
                         const std::string& path, const std::string& indent) {
  const auto dot = path.rfind('.');
  const std::string name = dot == std::string::npos ? path : path.substr(dot + 1);
  out << indent << "subgraph " << dot_quoted(chart_cluster_id(path)) << " {\n";
  std::string title = name;
  add(title, {"\n", actor.type()});
  out << indent << "  label=" << dot_quoted(title) << "; tooltip=" << dot_quoted(actor_tooltip(actor, path))
      << "; id=" << dot_quoted(path)
      << "; style=\"rounded,filled\"; fillcolor=\"#d5e8d4\"; color=\"#2d6a2d\"; penwidth=1.5;\n";
  out << indent << "  " << vertex << ";\n";  // the actor itself, invisible: its connections end on the border

  std::vector<bool> instantaneous(chart.modes.size(), false);
  for (const ChartTransition& t : chart.transitions) {
    if (t.path.size() == 3) {
      const std::size_t via = mode_index(chart, t.path[1]);
      if (via < instantaneous.size()) instantaneous[via] = true;
    }
  }
  for (std::size_t m = 0; m < chart.modes.size(); ++m) {
    const ChartMode& mode = chart.modes[m];
    out << indent << "  " << mode_id(vertex, m);
    if (instantaneous[m]) {
      std::string label = mode.name;
      const std::string done = actions(mode.set);
      if (!done.empty() && done.size() <= kLongAction) add(label, {"\n", done});
      out << " [label=" << dot_quoted(label)
          << ", shape=circle, style=\"dashed,filled\", fillcolor=white, fontsize=9, margin=0";
    } else {
      out << " [label=" << dot_quoted(mode.name) << ", shape=box, style=\"rounded,filled\", fillcolor=white";
    }
    out << ", tooltip=" << dot_quoted(mode_tooltip(mode)) << "];\n";
  }
  const std::size_t initial = chart.initial.empty() ? 0 : mode_index(chart, chart.initial);
  if (initial < chart.modes.size()) {
    std::string start = "m";
    add(start, {std::to_string(vertex), "_initial"});
    out << indent << "  " << start << " [shape=point, width=0.1, tooltip=\"initial mode\"];\n";
    out << indent << "  " << start << " -> " << mode_id(vertex, initial) << " [color=\"#2d6a2d\"];\n";
  }

  std::set<std::pair<std::size_t, std::size_t>> drawn;  // the steps out of instantaneous modes, once each
  for (std::size_t k = 0; k < chart.transitions.size(); ++k) {
    const ChartTransition& t = chart.transitions[k];
    std::vector<std::size_t> modes;
    for (const std::string& m : t.path) modes.push_back(mode_index(chart, m));
    if (modes.size() < 2 ||
        std::any_of(modes.begin(), modes.end(), [&](std::size_t m) { return m >= chart.modes.size(); })) {
      continue;  // validation refuses such a chart; nothing to draw
    }
    std::string label = cut(t.guard, kLongGuard);
    const std::string resets = actions(t.set);
    if (!resets.empty() && resets.size() <= kLongAction) add(label, {"\n/ ", resets});
    std::string tooltip = "transition ";
    add(tooltip, {std::to_string(k), ": guard ", t.guard});
    if (!resets.empty()) add(tooltip, {"\nset ", resets});
    out << indent << "  " << mode_id(vertex, modes[0]) << " -> " << mode_id(vertex, modes[1])
        << " [label=" << dot_quoted(label) << ", tooltip=" << dot_quoted(tooltip) << "];\n";
    if (modes.size() == 3 && drawn.insert({modes[1], modes[2]}).second) {
      out << indent << "  " << mode_id(vertex, modes[1]) << " -> " << mode_id(vertex, modes[2])
          << " [style=dashed, tooltip=\"leaves the instantaneous mode at once\"];\n";
    }
  }
  out << indent << "}\n";
}

}  // namespace ctde::cli
