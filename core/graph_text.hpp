#pragma once
/// What `ctde graph` (docs/cli.md) writes of one actor, and the text helpers
/// an actor that draws itself uses: DOT strings, short parameter values,
/// tooltips, and where an actor drawn as a cluster of its own is written.
/// The drawing of the whole model is the command's (cli/graph_command.*);
/// an actor's part of it is its own (Actor::tooltip_lines,
/// Actor::write_graph_cluster), as Drake's systems give their Graphviz
/// fragments.

#include <cstddef>
#include <string>
#include <string_view>

#include "resolved_param.hpp"

namespace ctde {

class Actor;

/// An actor's vertex in the drawing, for Actor::write_graph_cluster.
struct GraphVertex {
  std::size_t index = 0;    ///< the DOT node id of the actor itself
  std::string_view path;    ///< its path in the model ("plant.room")
  std::string_view indent;  ///< the indentation of the lines written
};

/// `text` as a DOT double-quoted string: backslashes and quotes escaped (so
/// that label escapes such as \N are not interpreted), a newline as `\n`
/// (a line break in labels and tooltips).
[[nodiscard]] std::string dot_quoted(std::string_view text);

/// An evaluated parameter as short text: a number as format_double (also a
/// vector or matrix of one element), a vector `[1, 2, 3]`, a matrix
/// `[[1, 0], [0, 1]]`, a string in quotes; a value longer than about 60
/// characters is cut after a whole element and says how many values it
/// holds (`[0, 1, 2, ... (500 values)]`, `... (20x20)`).
[[nodiscard]] std::string short_value(const ResolvedParam& value);

/// The tooltip of an actor: "path (type)", then its Actor::tooltip_lines().
[[nodiscard]] std::string actor_tooltip(const Actor& actor, std::string_view path);

/// The DOT id of the cluster an actor at `path` draws itself as
/// (`cluster_chart_PATH`: a ModalModel's mode chart): the connections of
/// the actor end on its border.
[[nodiscard]] std::string graph_cluster_id(std::string_view path);

}  // namespace ctde
