// How `ctde graph` draws a ModalModel: its mode chart as a cluster
// (docs/cli.md, "ctde graph"; the Actor's drawing virtuals, core/graph_text.hpp).
#include <algorithm>
#include <ostream>
#include <set>
#include <utility>
#include <vector>

#include "actors/modal/modal_model.hpp"
#include "core/format.hpp"
#include "core/graph_text.hpp"

namespace ctde {

namespace {

/// Longest parameter or initial state shown in a tooltip before it is cut.
constexpr std::size_t kLongValue = 60;
/// Longest guard drawn on a transition before it is cut.
constexpr std::size_t kLongGuard = 40;
/// Longest reset (or instantaneous mode's actions) drawn at all.
constexpr std::size_t kLongAction = 30;

/// "a = x; b = y" for `assignments`.
std::string actions(const std::vector<ChartAssignment>& assignments) {
  std::string out;
  for (const ChartAssignment& a : assignments) {
    if (!out.empty()) out += "; ";
    append(out, {a.name, " = ", a.expression});
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
  return concat({"m", std::to_string(vertex), "_", std::to_string(mode)});
}

/// A mode's tooltip: its name, then its derivatives, outputs and actions.
std::string mode_tooltip(const ChartMode& mode) {
  std::string out = "mode ";
  out += mode.name;
  for (const ChartAssignment& a : mode.der) append(out, {"\nd", a.name, "/dt = ", a.expression});
  for (const ChartAssignment& a : mode.outputs) append(out, {"\noutput ", a.name, " = ", a.expression});
  for (const ChartAssignment& a : mode.entry) append(out, {"\nentry ", a.name, " = ", a.expression});
  for (const ChartAssignment& a : mode.set) append(out, {"\nset ", a.name, " = ", a.expression});
  return out;
}

/// Per mode: true when a transition passes through it (an instantaneous mode).
std::vector<bool> instantaneous_modes(const ModalChart& chart) {
  std::vector<bool> instantaneous(chart.modes.size(), false);
  for (const ChartTransition& t : chart.transitions) {
    if (t.path.size() == 3) {
      const std::size_t via = mode_index(chart, t.path[1]);
      if (via < instantaneous.size()) instantaneous[via] = true;
    }
  }
  return instantaneous;
}

/// The chart's modes and the arrow to its initial mode.
void write_modes(std::ostream& out, const ModalChart& chart, std::size_t vertex, std::string_view indent) {
  const std::vector<bool> instantaneous = instantaneous_modes(chart);
  for (std::size_t m = 0; m < chart.modes.size(); ++m) {
    const ChartMode& mode = chart.modes[m];
    out << indent << "  " << mode_id(vertex, m);
    if (instantaneous[m]) {
      std::string label = mode.name;
      const std::string done = actions(mode.set);
      if (!done.empty() && done.size() <= kLongAction) append(label, {"\n", done});
      out << " [label=" << dot_quoted(label)
          << ", shape=circle, style=\"dashed,filled\", fillcolor=white, fontsize=9, margin=0";
    } else {
      out << " [label=" << dot_quoted(mode.name) << ", shape=box, style=\"rounded,filled\", fillcolor=white";
    }
    out << ", tooltip=" << dot_quoted(mode_tooltip(mode)) << "];\n";
  }
  const std::size_t initial = chart.initial.empty() ? 0 : mode_index(chart, chart.initial);
  if (initial < chart.modes.size()) {
    const std::string start = concat({"m", std::to_string(vertex), "_initial"});
    out << indent << "  " << start << " [shape=point, width=0.1, tooltip=\"initial mode\"];\n";
    out << indent << "  " << start << " -> " << mode_id(vertex, initial) << " [color=\"#2d6a2d\"];\n";
  }
}

/// One edge per step of each transition (the step out of an instantaneous mode once).
void write_transitions(std::ostream& out, const ModalChart& chart, std::size_t vertex,
                       std::string_view indent) {
  std::set<std::pair<std::size_t, std::size_t>> drawn;  // the steps out of instantaneous modes, once each
  for (std::size_t k = 0; k < chart.transitions.size(); ++k) {
    const ChartTransition& t = chart.transitions[k];
    std::vector<std::size_t> modes;
    for (const std::string& m : t.path) modes.push_back(mode_index(chart, m));
    if (modes.size() < 2 ||
        std::any_of(modes.begin(), modes.end(), [&](std::size_t m) { return m >= chart.modes.size(); })) {
      continue;  // validation refuses such a chart; nothing to draw
    }
    std::string label = cut_text(t.guard, kLongGuard);
    const std::string resets = actions(t.set);
    if (!resets.empty() && resets.size() <= kLongAction) append(label, {"\n/ ", resets});
    std::string tooltip = concat({"transition ", std::to_string(k), ": guard ", t.guard});
    if (!resets.empty()) append(tooltip, {"\nset ", resets});
    out << indent << "  " << mode_id(vertex, modes[0]) << " -> " << mode_id(vertex, modes[1])
        << " [label=" << dot_quoted(label) << ", tooltip=" << dot_quoted(tooltip) << "];\n";
    if (modes.size() == 3 && drawn.insert({modes[1], modes[2]}).second) {
      out << indent << "  " << mode_id(vertex, modes[1]) << " -> " << mode_id(vertex, modes[2])
          << " [style=dashed, tooltip=\"leaves the instantaneous mode at once\"];\n";
    }
  }
}

}  // namespace

std::string ModalModel::tooltip_lines() const {
  std::string out;
  for (const ChartAssignment& p : chart_.parameters)
    append(out, {"\n", p.name, " = ", cut_text(p.expression, kLongValue)});
  for (const ChartAssignment& s : chart_.states) {
    append(out, {"\nstate ", s.name, ", initially ", cut_text(s.expression, kLongValue)});
  }
  return out;
}

void ModalModel::write_graph_cluster(std::ostream& out, const GraphVertex& vertex) const {
  const std::string_view path = vertex.path;
  const auto dot = path.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? path : path.substr(dot + 1);
  const std::string_view indent = vertex.indent;
  out << indent << "subgraph " << dot_quoted(graph_cluster_id(path)) << " {\n";
  out << indent << "  label=" << dot_quoted(concat({name, "\n", type()}))
      << "; tooltip=" << dot_quoted(actor_tooltip(*this, path)) << "; id=" << dot_quoted(path)
      << "; style=\"rounded,filled\"; fillcolor=\"#d5e8d4\"; color=\"#2d6a2d\"; penwidth=1.5;\n";
  out << indent << "  " << vertex.index
      << ";\n";  // the actor itself, invisible: its connections end on the border
  write_modes(out, chart_, vertex.index, indent);
  write_transitions(out, chart_, vertex.index, indent);
  out << indent << "}\n";
}

}  // namespace ctde
