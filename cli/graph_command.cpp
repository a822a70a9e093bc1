#include "cli/graph_command.hpp"

// GCC 12 reports a boost::optional inside Boost.Graph's edge iterator as
// "may be used uninitialized" once write_graphviz is inlined: a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "cli/process.hpp"
#include "core/graph_text.hpp"
#include "core/validate.hpp"
#include "run/command_error.hpp"
#include "run/interrupt.hpp"
#include "run/output_file.hpp"

namespace ctde::cli {

namespace {

/// How a node is drawn.
enum class NodeRole { kOrdinary, kConverter, kEventGenerator };

constexpr std::string_view kContinuousColour = "#1f4e79";
constexpr std::string_view kDiscreteColour = "#7f3f98";
constexpr std::string_view kConstantColour = "#777777";

struct VertexInfo {
  const Actor* actor = nullptr;
  bool cluster = false;  ///< drawn as a cluster of its own (Actor::draws_cluster: a ModalModel's chart)
  std::string path;
  std::string name;  ///< the last part of the path
  std::string type;
  TimeMode mode = TimeMode::kContinuous;
  NodeRole role = NodeRole::kOrdinary;
};

struct EdgeInfo {
  PortKind kind = PortKind::kContinuous;
  std::string from_port;
  std::string to_port;
  int width = 1;
  std::string mark;    ///< at its head: the receiver's Actor::input_mark (a Sum's sign)
  bool wraps = false;  ///< from one row of a wrapped chain to the next: it does not constrain the ranks
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, VertexInfo, EdgeInfo>;

/// A composite, drawn as a cluster: the leaf actors and composites directly inside it.
struct Cluster {
  std::string path;
  std::string name;
  std::vector<std::size_t> vertices;
  std::vector<std::size_t> children;  ///< indices into the cluster list
};

/// How an actor is drawn, by its type's family: converters and state-event
/// generators (Actor::family(), the model reference's sections) stand out.
NodeRole role_of(const Actor& actor) {
  if (actor.family() == "converters") return NodeRole::kConverter;
  if (actor.family() == "events") return NodeRole::kEventGenerator;
  return NodeRole::kOrdinary;
}

Graph build_graph(const FlatModel& model) {
  Graph graph;
  for (const FlatActor& actor : model.actors) {
    VertexInfo info;
    info.actor = actor.actor;
    info.cluster = actor.actor->draws_cluster();
    info.path = actor.path;
    const auto dot = actor.path.rfind('.');
    info.name = dot == std::string::npos ? actor.path : actor.path.substr(dot + 1);
    info.type = actor.actor->type();
    info.mode = actor.mode;
    info.role = role_of(*actor.actor);
    boost::add_vertex(info, graph);
  }
  for (std::size_t i = 0; i < model.actors.size(); ++i) {
    const FlatActor& from = model.actors[i];
    for (std::size_t o = 0; o < from.receivers.size(); ++o) {
      for (const PortRef& to : from.receivers[o]) {
        EdgeInfo info;
        info.kind = from.output_kinds[o];
        info.from_port = from.actor->outputs()[o].name;
        info.to_port = model[to.actor].actor->inputs()[to.port].name;
        info.width = from.output_widths[o];
        info.mark = model[to.actor].actor->input_mark(to.port);
        boost::add_edge(i, to.actor.value(), info, graph);
      }
    }
  }
  return graph;
}

/// The composites, as a forest in order of first appearance (clusters[0..]
/// with `roots` the outermost ones).
std::vector<Cluster> build_clusters(const Graph& graph, std::vector<std::size_t>& roots) {
  std::vector<Cluster> clusters;
  std::vector<std::pair<std::string, std::size_t>> index;  // path → cluster, few entries
  const auto find_or_add = [&](const std::string& path, std::size_t parent, bool has_parent) {
    for (const auto& [p, k] : index) {
      if (p == path) return k;
    }
    const std::size_t k = clusters.size();
    const auto dot = path.rfind('.');
    clusters.push_back({path, dot == std::string::npos ? path : path.substr(dot + 1), {}, {}});
    index.emplace_back(path, k);
    if (has_parent) {
      clusters[parent].children.push_back(k);
    } else {
      roots.push_back(k);
    }
    return k;
  };
  for (std::size_t v = 0; v < boost::num_vertices(graph); ++v) {
    const std::string& path = graph[v].path;
    std::size_t parent = 0;
    bool has_parent = false;
    for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
      parent = find_or_add(path.substr(0, dot), parent, has_parent);
      has_parent = true;
    }
    if (has_parent) clusters[parent].vertices.push_back(v);
  }
  return clusters;
}

/// Vertex `v` in the cluster being written: its id, or the cluster it draws itself as.
void write_vertex_membership(std::ostream& out, const Graph& graph, std::size_t v,
                             const std::string& indent) {
  const VertexInfo& info = graph[v];
  if (info.cluster) {
    info.actor->write_graph_cluster(out, GraphVertex{v, info.path, indent});
  } else {
    out << indent << v << ";\n";
  }
}

void write_cluster(std::ostream& out, const Graph& graph, const std::vector<Cluster>& clusters, std::size_t k,
                   int depth) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  const Cluster& c = clusters[k];
  std::string id = "cluster_";
  id += c.path;
  out << indent << "subgraph " << dot_quoted(id) << " {\n";
  out << indent << "  label=" << dot_quoted(c.name) << "; tooltip=" << dot_quoted(c.path)
      << "; style=\"rounded,filled\"; fillcolor=\"#f5f5f5\"; color=\"#999999\";\n";
  for (const std::size_t v : c.vertices) write_vertex_membership(out, graph, v, indent + "  ");
  for (const std::size_t child : c.children) write_cluster(out, graph, clusters, child, depth + 1);
  out << indent << "}\n";
}

std::string_view edge_colour(PortKind kind) {
  switch (kind) {
    case PortKind::kDiscrete:
      return kDiscreteColour;
    case PortKind::kConstant:
      return kConstantColour;
    case PortKind::kContinuous:
    case PortKind::kPolymorphic:
      break;
  }
  return kContinuousColour;
}

/// Fill and line colours of an ordinary actor of time mode `mode`.
std::pair<std::string_view, std::string_view> mode_colours(TimeMode mode) {
  switch (mode) {
    case TimeMode::kDiscrete:
      return {"#e1d5e7", kDiscreteColour};
    case TimeMode::kConstant:
      return {"#eeeeee", kConstantColour};
    case TimeMode::kHybrid:
      return {"#d5e8d4", "#2d6a2d"};
    case TimeMode::kContinuous:
    case TimeMode::kUnresolved:
      break;
  }
  return {"#dae8fc", kContinuousColour};
}

/// The Graphviz output format for `output`, "dot" for DOT text.
/// @throws CommandError for an extension it does not know.
std::string format_of(const std::string& output) {
  const std::string extension = std::filesystem::path(output).extension().string();
  if (extension == ".dot" || extension == ".gv") return "dot";
  if (extension == ".svg" || extension == ".png" || extension == ".pdf") return extension.substr(1);
  std::string message = "graph -o ";
  message += output;
  message += ": the file name must end in .dot, .gv, .svg, .png or .pdf";
  throw CommandError(kExitUsage, message);
}

[[noreturn]] void cannot_write(const std::string& path) {
  std::string message = "cannot write '";
  message += path;
  message += "'";
  throw CommandError(kExitUsage, message);
}

/// Runs `dot -T<format> -o output input`. @throws CommandError.
void run_dot(const std::string& format, const std::string& input, const std::string& output) {
  std::string type = "-T";
  type += format;
  const ProcessResult result = run_process({"dot", type, "-o", output, input});
  if (!result.started && result.error == ENOENT) {
    std::string message = "cannot draw ";
    message += output;
    message +=
        ": the Graphviz program 'dot' is not on PATH (Debian: apt-get install graphviz);"
        " '-o model.dot' writes the graph as text without it";
    throw CommandError(kExitUsage, message);
  }
  if (!result.started || result.exit_status != 0) {
    std::string message = "cannot draw ";
    message += output;
    message += ": dot ";
    message += describe(result);
    throw CommandError(kExitUsage, message);
  }
}

/// Ranks of the vertices as `dot` would give them: the longest path from a
/// source, over the connections with those closing a loop (back edges of a
/// depth-first search) left out.
std::vector<std::size_t> ranks_of(const Graph& graph) {
  const std::size_t n = boost::num_vertices(graph);
  std::vector<std::vector<std::size_t>> next(n);
  for (const auto e : boost::make_iterator_range(boost::edges(graph))) {
    next[boost::source(e, graph)].push_back(boost::target(e, graph));
  }
  // Iterative depth-first search: an edge to a vertex on the stack closes a loop.
  enum class Seen : std::uint8_t { kNo, kOnStack, kDone };
  std::vector<Seen> seen(n, Seen::kNo);
  std::vector<std::vector<std::size_t>> forward(n);
  std::vector<std::size_t> order;  // reverse topological order of the forward edges
  std::vector<std::pair<std::size_t, std::size_t>> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (seen[root] != Seen::kNo) continue;
    stack.emplace_back(root, 0);
    seen[root] = Seen::kOnStack;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i == next[v].size()) {
        seen[v] = Seen::kDone;
        order.push_back(v);
        stack.pop_back();
        continue;
      }
      const std::size_t w = next[v][i++];
      if (seen[w] == Seen::kOnStack) continue;  // a loop: left out
      forward[v].push_back(w);
      if (seen[w] == Seen::kNo) {
        seen[w] = Seen::kOnStack;
        stack.emplace_back(w, 0);
      }
    }
  }
  std::vector<std::size_t> rank(n, 0);
  for (auto v = order.rbegin(); v != order.rend(); ++v) {
    for (const std::size_t w : forward[*v]) rank[w] = std::max(rank[w], rank[*v] + 1);
  }
  return rank;
}

/// The number of ranks per row when a long chain is wrapped into rows,
/// left to right, one row under the other (0: not wrapped). A graph of up to
/// 8 ranks fits a page as it is; a deeper one is wrapped when that brings it
/// clearly closer to a landscape page, width about 1.6 times the height.
/// The sizes are estimates of `dot`'s, in inches: a rank takes about 1.7
/// (a box and its gap), an actor within a rank 0.75, the gap between rows
/// 0.95. (Top to bottom is never closer: a box is wider than it is high.)
std::size_t wrap_width(const std::vector<std::size_t>& rank) {
  if (rank.empty()) return 0;
  const std::size_t ranks = *std::max_element(rank.begin(), rank.end()) + 1;
  constexpr std::size_t kLongestStraight = 8;
  if (ranks <= kLongestStraight) return 0;
  std::vector<std::size_t> per_rank(ranks, 0);
  for (const std::size_t r : rank) ++per_rank[r];
  const auto breadth = static_cast<double>(*std::max_element(per_rank.begin(), per_rank.end()));
  constexpr double kTarget = 1.6;
  const auto badness = [&](std::size_t wrap) {
    const std::size_t whole_rows = (ranks + wrap - 1) / wrap;  // rounded up
    const auto rows = static_cast<double>(whole_rows);
    const double width = 1.7 * static_cast<double>(wrap);
    const double height = 0.75 * breadth * rows + 0.95 * (rows - 1);
    return std::fabs(std::log(width / height / kTarget));
  };
  // Rows of equal length (no last row of one actor), at least 5 ranks, and
  // only when clearly better: a wrapped chain reads less easily than a
  // straight one.
  constexpr std::size_t kShortestRow = 5;
  constexpr double kWorthIt = 0.3;
  std::size_t best = 0;
  double best_badness = badness(ranks) - kWorthIt;
  for (std::size_t rows = 2;; ++rows) {
    const std::size_t wrap = (ranks + rows - 1) / rows;
    if (wrap < kShortestRow) break;
    const double b = badness(wrap);
    if (b < best_badness) {
      best = wrap;
      best_badness = b;
    }
  }
  return best;
}

/// An edge's label: its ports where they are not the usual out -> in, and
/// `[n]` for a signal of width n > 1 (empty: none).
std::string edge_label(const EdgeInfo& info) {
  std::string label;
  if (info.from_port != "out") {
    label = info.from_port;
    label += " -> ";
    label += info.to_port;
  } else if (info.to_port != "in") {
    label = info.to_port;
  }
  if (info.width != 1) {
    if (!label.empty()) label += ' ';
    label += '[';
    label += std::to_string(info.width);
    label += ']';
  }
  return label;
}

}  // namespace

void write_model_dot(const FlatModel& model, const std::string& model_name, std::ostream& out) {
  Graph graph = build_graph(model);
  const std::vector<std::size_t> rank = ranks_of(graph);
  const std::size_t wrap = wrap_width(rank);
  if (wrap > 0) {
    for (const auto e : boost::make_iterator_range(boost::edges(graph))) {
      graph[e].wraps = rank[boost::source(e, graph)] / wrap != rank[boost::target(e, graph)] / wrap;
    }
  }
  std::vector<std::size_t> roots;
  const std::vector<Cluster> clusters = build_clusters(graph, roots);
  bool charts = false;
  for (std::size_t v = 0; v < boost::num_vertices(graph); ++v) charts = charts || graph[v].cluster;

  const auto graph_writer = [&](std::ostream& os) {
    os << "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label=" << dot_quoted(model_name);
    if (charts) os << ", compound=true";  // connections of a ModalModel end on its chart's border
    os << "];\n";
    os << "  node [fontname=\"Helvetica\", fontsize=11];\n";
    os << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (const std::size_t k : roots) write_cluster(os, graph, clusters, k, 1);
    for (std::size_t v = 0; v < boost::num_vertices(graph); ++v) {
      if (graph[v].cluster && graph[v].path.find('.') == std::string::npos) {
        write_vertex_membership(os, graph, v, "  ");  // a cluster outside any composite
      }
    }
  };
  const auto vertex_writer = [&](std::ostream& os, Graph::vertex_descriptor v) {
    const VertexInfo& info = graph[v];
    if (info.cluster) {  // inside its own cluster, which stands for it
      os << " [label=\"\", shape=point, style=invis, width=0.01, height=0.01]";
      return;
    }
    os << " [label=" << dot_quoted(info.name + "\n" + info.type)
       << ", tooltip=" << dot_quoted(actor_tooltip(*info.actor, info.path))
       << ", id=" << dot_quoted(info.path);
    switch (info.role) {
      case NodeRole::kConverter:
        os << ", shape=hexagon, style=filled, fillcolor=\"#fff2cc\", color=\"#b58900\"";
        break;
      case NodeRole::kEventGenerator:
        os << ", shape=octagon, style=filled, fillcolor=\"#f8cecc\", color=\"#b85450\", penwidth=2";
        break;
      case NodeRole::kOrdinary: {
        const auto [fill, line] = mode_colours(info.mode);
        os << ", shape=box, style=\"rounded,filled\", fillcolor=\"" << fill << "\", color=\"" << line << "\"";
        break;
      }
    }
    os << "]";
  };
  const auto edge_writer = [&](std::ostream& os, Graph::edge_descriptor e) {
    const EdgeInfo& info = graph[e];
    os << "[style=" << (info.kind == PortKind::kDiscrete ? "dashed" : "solid") << ", color=\""
       << edge_colour(info.kind) << "\"";
    if (const std::string label = edge_label(info); !label.empty()) os << ", label=" << dot_quoted(label);
    if (!info.mark.empty())
      os << ", headlabel=" << dot_quoted(info.mark) << ", labelfontsize=12, labeldistance=1.4";
    if (info.wraps) os << ", constraint=false";
    const VertexInfo& from = graph[boost::source(e, graph)];
    const VertexInfo& to = graph[boost::target(e, graph)];
    if (from.cluster) os << ", ltail=" << dot_quoted(graph_cluster_id(from.path));
    if (to.cluster) os << ", lhead=" << dot_quoted(graph_cluster_id(to.path));
    os << "]";
  };
  boost::write_graphviz(out, graph, vertex_writer, edge_writer, graph_writer);
}

void graph_command(const std::string& path, const ParameterOverrides& overrides, const std::string& output,
                   std::ostream& out) {
  check_paths({{"MODEL", path}}, {{"-o", output}});
  const bool to_out = output.empty() || output == "-";
  const std::string format = to_out ? "dot" : format_of(output);
  Model model = load_model_file(path, command_actors(), overrides, command_model_path());
  const FlatModel flat = validate(model);
  std::ostringstream text;
  write_model_dot(flat, model.name(), text);

  if (to_out) {
    out << text.str();
    return;
  }
  if (format == "dot") {
    OutputFile file({"-o", output}, OutputFile::Writer::kStream);
    file.stream() << text.str();
    throw_if_interrupted();  // a signal before the rename: nothing is written
    file.commit();
    return;
  }
  OutputFile file({"-o", output}, OutputFile::Writer::kHelper);
  const std::filesystem::path source = make_temporary_file("graph", ".dot");
  try {
    {
      std::ofstream dot_text(source);
      dot_text << text.str();
      dot_text.close();
      if (!dot_text) cannot_write(source.string());
    }
    run_dot(format, source.string(), file.write_path());
  } catch (...) {
    std::filesystem::remove(source);
    throw_if_interrupted();  // Ctrl-C reached `dot` too: say so, not that `dot` failed
    throw;
  }
  std::filesystem::remove(source);
  throw_if_interrupted();
  file.commit();
}

}  // namespace ctde::cli
