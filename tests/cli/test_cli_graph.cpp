// `ctde graph` end to end: DOT text with the expected nodes, edges and
// styles; SVG drawn by Graphviz; the errors.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace ctde::test;

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

}  // namespace

TEST_CASE("ctde graph -o model.dot writes nodes labelled with name and type, styled by role") {
  const auto dot = scratch("small.dot");
  std::filesystem::remove(dot);
  const CommandResult r = run_cli("graph " + small_model().string() + " -o " + dot.string());
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const std::string text = read_text(dot);
  CHECK(text.rfind("digraph G {", 0) == 0);
  check_contains(
      text, {
                "label=\"small\"",
                // Ordinary actors: rounded boxes coloured by time mode (continuous blue, discrete purple).
                "id=\"src\", shape=box, style=\"rounded,filled\", fillcolor=\"#dae8fc\"",
                "id=\"count\", shape=box, style=\"rounded,filled\", fillcolor=\"#e1d5e7\"",
                // A state-event generator and a converter stand out.
                "2 [label=\"cross\\nZeroCrossingDetector\", tooltip=",
                "id=\"cross\", shape=octagon",
                "4 [label=\"hold\\nZeroOrderHold\", tooltip=",
                "id=\"hold\", shape=hexagon",
                // A composite is a cluster holding its actors, named by their leaf name with the
                // full path as tooltip.
                "subgraph \"cluster_plant\" {\n    label=\"plant\";",
                "1 [label=\"x\\nIntegrator\", tooltip=\"plant.x (Integrator)",
                "id=\"plant.x\"",
            });
  CHECK(contains(dot_subgraph(text, "cluster_plant"), "    1;\n"));
}

TEST_CASE("ctde graph draws continuous connections solid and discrete ones dashed") {
  const CommandResult r = run_cli("graph " + small_model().string());  // DOT on stdout
  CHECK(r.status == 0);
  check_contains(r.output, {
                               "0->1 [style=solid, color=\"#1f4e79\"]",   // through the composite's input
                               "1->2 [style=solid, color=\"#1f4e79\"]",   // from the composite's output
                               "2->3 [style=dashed, color=\"#7f3f98\"]",  // detector → counter
                               "3->4 [style=dashed, color=\"#7f3f98\"]",  // counter → hold
                               "4->5 [style=solid, color=\"#1f4e79\"]",   // hold → gain
                           });
}

TEST_CASE("ctde graph labels connections to ports other than in") {
  const CommandResult r = run_cli("graph " + ctde::test::example_models() + "bouncing_ball.json");
  CHECK(r.status == 0);
  check_contains(r.output, {
                               "[style=dashed, color=\"#7f3f98\", label=\"trigger\"]",
                               "[style=dashed, color=\"#7f3f98\", label=\"reset\"]",
                               "[style=solid, color=\"#777777\"]",  // the constant gravity
                           });
}

TEST_CASE("ctde graph draws an actor by its type's family: a Relay is a state-event generator") {
  const auto model = scratch("relay.json");
  std::ofstream(model) << R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "s", "type": "Sine"}, {"name": "r", "type": "Relay", "params": {"on_threshold": 0.5, "off_threshold": -0.5}},
               {"name": "g", "type": "Gain"}],
    "connections": [["s.out", "r.in"], ["r.out", "g.in"]]})";
  const CommandResult r = run_cli("graph " + model.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  check_contains(r.output, {"id=\"r\", shape=octagon", "id=\"g\", shape=box"});
}

TEST_CASE("ctde graph draws a Sum's sign at the head of each connection into it") {
  const auto model = scratch("signs.json");
  std::ofstream(model) << R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "a", "type": "Constant", "params": {"value": 1}}, {"name": "b", "type": "Sine"},
               {"name": "c", "type": "Step", "params": {"time": 0.5}}, {"name": "d", "type": "Sum", "params": {"signs": "+-+"}},
               {"name": "g", "type": "Gain"}],
    "connections": [["a.out", "d.in0"], ["b.out", "d.in1"], ["c.out", "d.in2"], ["d.out", "g.in"]]})";
  const CommandResult r = run_cli("graph " + model.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  check_contains(r.output, {"label=\"in0\", headlabel=\"+\",", "label=\"in1\", headlabel=\"\u2212\",",
                            "label=\"in2\", headlabel=\"+\","});
  std::size_t marks = 0;  // the Sum's three inputs; the Gain's input has none
  for (auto at = r.output.find("headlabel"); at != std::string::npos; at = r.output.find("headlabel", at + 1))
    ++marks;
  CHECK(marks == 3);
}

TEST_CASE("ctde graph -o model.svg runs Graphviz and writes an SVG document") {
  const auto svg = scratch("small.svg");
  std::filesystem::remove(svg);
  const CommandResult r = run_cli("graph " + small_model().string() + " -o " + svg.string());
  CHECK(r.status == 0);
  check_contains(read_text(svg), {"<svg", "</svg>", "ZeroCrossingDetector"});
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
