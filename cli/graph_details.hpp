#pragma once
/// The parts of `ctde graph` drawn from an actor's own definition
/// (cli/graph_command.hpp): the text of its tooltip (its parameters with
/// their evaluated values) and a ModalModel's mode chart as a cluster.

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "actors/modal/modal_chart.hpp"
#include "core/actor.hpp"

namespace ctde::cli {

/// `text` as a DOT double-quoted string: backslashes and quotes escaped (so
/// that label escapes such as \N are not interpreted), a newline as `\n`
/// (a line break in labels and tooltips).
[[nodiscard]] std::string dot_quoted(std::string_view text);

/// An evaluated parameter as short text: a number as format_double (also a
/// vector or matrix of one element), a vector `[1, 2, 3]`, a matrix
/// `[[1, 0], [0, 1]]`, a string in quotes; a value
/// longer than about 60 characters is cut after a whole element and says
/// how many values it holds (`[0, 1, 2, ... (500 values)]`, `... (20x20)`).
[[nodiscard]] std::string short_value(const ResolvedParam& value);

/// The tooltip of an actor: its path and type, then one line per
/// parameter, `name = value` (short_value). A ModalModel's structured
/// parameters are given as its chart's local parameters and initial states,
/// as written.
[[nodiscard]] std::string actor_tooltip(const Actor& actor, const std::string& path);

/// The mode chart of the ModalModel at `path` (graph vertex `vertex`, drawn
/// invisibly inside it: the connections of the actor end on the cluster's
/// border), as a cluster `cluster_chart_PATH` (chart_cluster_id()): one
/// node per mode (an instantaneous one a small dashed circle with its
/// actions, when short), the initial mode pointed at by an arrow from a
/// dot, one edge per step of a transition labelled with its guard (and its
/// resets, when short). Node ids are `mV_I` (mode I of vertex V).
void write_chart_cluster(std::ostream& out, const ModalChart& chart, std::size_t vertex, const Actor& actor,
                         const std::string& path, const std::string& indent);

/// The DOT id of the cluster write_chart_cluster() writes for `path`.
[[nodiscard]] std::string chart_cluster_id(const std::string& path);

}  // namespace ctde::cli
