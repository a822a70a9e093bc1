// `ctde graph` end to end: DOT text with the expected nodes, edges and
// styles; SVG drawn by Graphviz; the errors.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using ctde::test::CommandResult;
using ctde::test::read_text;
using ctde::test::run_cli;
using ctde::test::run_cli_env;

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_graph_test", name);
}

/// A small model with a composite, a state-event generator, a converter, and
/// continuous and discrete connections. Actors 0..5 in definition order:
/// src, plant.x, cross, count, hold, twice.
std::filesystem::path small_model() {
  auto path = scratch("small.json");
  std::ofstream out(path);
  out << R"({"ctde": 1, "name": "small", "director": {"stop_time": 1},
    "actors": [
      {"name": "src", "type": "Sine"},
      {"name": "plant", "type": "Composite", "actors": [{"name": "x", "type": "Integrator"}],
       "inputs": {"u": "x.in"}, "outputs": {"y": "x.out"}},
      {"name": "cross", "type": "ZeroCrossingDetector", "params": {"direction": "both"}},
      {"name": "count", "type": "Counter"},
      {"name": "hold", "type": "ZeroOrderHold"},
      {"name": "twice", "type": "Gain", "params": {"k": 2}}],
    "connections": [["src.out", "plant.u"], ["plant.y", "cross.in"], ["cross.out", "count.in"],
                    ["count.out", "hold.in"], ["hold.out", "twice.in"]]})";
  return path;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("ctde graph -o model.dot writes nodes labelled with name and type, styled by role") {
  const auto dot = scratch("small.dot");
  std::filesystem::remove(dot);
  const CommandResult r = run_cli("graph " + small_model().string() + " -o " + dot.string());
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const std::string text = read_text(dot);
  CHECK(text.rfind("digraph G {", 0) == 0);
  CHECK(contains(text, "label=\"small\""));
  // Ordinary actors: rounded boxes coloured by time mode (continuous blue, discrete purple).
  CHECK(contains(text, "id=\"src\", shape=box, style=\"rounded,filled\", fillcolor=\"#dae8fc\""));
  CHECK(contains(text, "id=\"count\", shape=box, style=\"rounded,filled\", fillcolor=\"#e1d5e7\""));
  // A state-event generator and a converter stand out.
  CHECK(contains(text, "2 [label=\"cross\\nZeroCrossingDetector\", tooltip="));
  CHECK(contains(text, "id=\"cross\", shape=octagon"));
  CHECK(contains(text, "4 [label=\"hold\\nZeroOrderHold\", tooltip="));
  CHECK(contains(text, "id=\"hold\", shape=hexagon"));
  // A composite is a cluster holding its actors, named by their leaf name with the full path as tooltip.
  CHECK(contains(text, "subgraph \"cluster_plant\" {\n    label=\"plant\";"));
  CHECK(contains(text, "1 [label=\"x\\nIntegrator\", tooltip=\"plant.x (Integrator)"));
  CHECK(contains(text, "id=\"plant.x\""));
  const auto cluster = text.find("subgraph \"cluster_plant\"");
  const auto cluster_end = text.find("  }\n", cluster);
  CHECK(text.find("    1;\n", cluster) < cluster_end);
}

TEST_CASE("ctde graph draws continuous connections solid and discrete ones dashed") {
  const CommandResult r = run_cli("graph " + small_model().string());  // DOT on stdout
  CHECK(r.status == 0);
  CHECK(contains(r.output, "0->1 [style=solid, color=\"#1f4e79\"]"));   // through the composite's input
  CHECK(contains(r.output, "1->2 [style=solid, color=\"#1f4e79\"]"));   // from the composite's output
  CHECK(contains(r.output, "2->3 [style=dashed, color=\"#7f3f98\"]"));  // detector → counter
  CHECK(contains(r.output, "3->4 [style=dashed, color=\"#7f3f98\"]"));  // counter → hold
  CHECK(contains(r.output, "4->5 [style=solid, color=\"#1f4e79\"]"));   // hold → gain
}

TEST_CASE("ctde graph labels connections to ports other than in") {
  const CommandResult r = run_cli("graph " + ctde::test::example_models() + "bouncing_ball.json");
  CHECK(r.status == 0);
  CHECK(contains(r.output, "[style=dashed, color=\"#7f3f98\", label=\"trigger\"]"));
  CHECK(contains(r.output, "[style=dashed, color=\"#7f3f98\", label=\"reset\"]"));
  CHECK(contains(r.output, "[style=solid, color=\"#777777\"]"));  // the constant gravity
}

TEST_CASE("ctde graph -o model.svg runs Graphviz and writes an SVG document") {
  const auto svg = scratch("small.svg");
  std::filesystem::remove(svg);
  const CommandResult r = run_cli("graph " + small_model().string() + " -o " + svg.string());
  CHECK(r.status == 0);
  const std::string text = read_text(svg);
  CHECK(contains(text, "<svg"));
  CHECK(contains(text, "</svg>"));
  CHECK(contains(text, "ZeroCrossingDetector"));
  // Well-formed XML whose root is <svg>, checked by an XML parser.
  const std::string check =
      "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
      "sys.exit(0 if E.parse(sys.argv[1]).getroot().tag.endswith('svg') else 1)\" " +
      svg.string();
  CHECK(std::system(check.c_str()) == 0);
}

TEST_CASE("ctde graph exits 2 with a clear message when dot is missing, the name or the model is wrong") {
  const CommandResult no_dot = run_cli_env(
      "PATH=/nonexistent", "graph " + small_model().string() + " -o " + scratch("x.svg").string());
  CHECK(no_dot.status == 2);
  CHECK(contains(no_dot.output, "the Graphviz program 'dot' is not on PATH"));
  CHECK_FALSE(std::filesystem::exists(scratch("x.svg")));

  const CommandResult bad_name = run_cli("graph " + small_model().string() + " -o model.txt");
  CHECK(bad_name.status == 2);
  CHECK(contains(bad_name.output, "must end in .dot, .gv, .svg, .png or .pdf"));

  const CommandResult bad_model =
      run_cli("graph " + std::string(CTDE_SOURCE_DIR) + "/tests/cli/data/bad_width.json");
  CHECK(bad_model.status == 2);
  CHECK(contains(bad_model.output, "width mismatch"));
}
