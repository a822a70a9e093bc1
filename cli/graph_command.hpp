#pragma once
/// `ctde graph MODEL.json -o model.svg`: the actor network drawn with Graphviz.
///
/// The graph is the validated, flattened model: one node per leaf actor,
/// labelled with its name and type; one edge per connection. Continuous
/// connections are solid, discrete ones dashed, constant ones solid grey.
/// Converters (ZeroOrderHold, FirstOrderHold, PeriodicSampler, Sampler) are
/// yellow hexagons; state-event generators (ZeroCrossingDetector,
/// LevelCrossingDetector) red octagons with a thick border; other actors are
/// rounded boxes coloured by time mode (continuous blue, discrete purple,
/// constant grey, hybrid green). Composites are clusters, nested as written;
/// an actor that draws itself (a ModalModel: its mode chart) is a cluster
/// of its own (Actor::write_graph_cluster, core/graph_text.hpp).
/// Tooltips list each actor's evaluated parameters. A graph more than 8
/// ranks deep is wrapped into rows when that makes it closer to a landscape
/// page (docs/cli.md, "ctde graph").

#include <ostream>
#include <string>

#include "core/flat_model.hpp"
#include "core/model_file.hpp"

namespace ctde::cli {

/// Writes `model` (validated) as Graphviz DOT, through boost::write_graphviz.
/// Node ids are numbers (actor names may be DOT keywords); each node's
/// `id` is the actor's full path, its `tooltip` the path, type and parameters.
void write_model_dot(const FlatModel& model, const std::string& model_name, std::ostream& out);

/// Loads and validates the model in `path`, then writes its graph to
/// `output`: `.dot` or `.gv` as DOT text; `.svg`, `.png` or `.pdf` drawn by
/// the Graphviz program `dot` (found on PATH); an empty `output` or "-"
/// writes DOT to `out`. The file is written through an OutputFile (whole, or
/// not at all; never over the model: check_paths()).
/// @throws ModelError for a bad model; CommandError (kExitUsage) for an
///         unknown extension, a missing or failing `dot`, an output that is
///         the model or cannot be created; CommandError (kExitRunFailed) when
///         writing the file failed; CommandError (128 + signal) on SIGINT/SIGTERM.
void graph_command(const std::string& path, const ParameterOverrides& overrides, const std::string& output,
                   std::ostream& out);

}  // namespace ctde::cli
