// `ctde graph`: a ModalModel's mode chart inside its box, parameter values
// in tooltips, long chains wrapped into rows, FMU actors.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace ctde::test;

std::filesystem::path write_model(const std::string& name, const std::string& text) {
  auto path = ctde::test::scratch_file("ctde_cli_graph_details_test", name);
  std::ofstream(path) << text;
  return path;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

/// A Sine followed by a chain of `length` Gains.
std::filesystem::path chain_model(int length) {
  std::string actors = R"({"name": "src", "type": "Sine"})";
  std::string connections = R"(["src.out", "g0.in"])";
  for (int i = 0; i < length; ++i) {
    actors += R"(, {"name": "g)" + std::to_string(i) + R"(", "type": "Gain", "params": {"k": 2}})";
    if (i > 0) {
      connections += R"(, ["g)" + std::to_string(i - 1) + R"(.out", "g)" + std::to_string(i) + R"(.in"])";
    }
  }
  return write_model("chain" + std::to_string(length) + ".json",
                     R"({"ctde": 1, "name": "chain", "director": {"stop_time": 1}, "actors": [)" + actors +
                         R"(], "connections": [)" + connections + "]}");
}

}  // namespace

TEST_CASE("ctde graph draws a ModalModel's modes and transitions inside its box") {
  const CommandResult r = run_cli("graph " + ctde::test::example_models() + "thermostat.json");
  REQUIRE(r.status == 0);
  const std::string& dot = r.output;
  check_contains(dot, {
                          // The actor is a cluster standing for it, holding one node per mode.
                          "subgraph \"cluster_chart_room\" {\n    label=\"room\\nModalModel\"; tooltip=",
                          "m0_0 [label=\"OFF\", shape=box",
                          "m0_1 [label=\"ON\", shape=box",
                          // A mode's tooltip has its derivatives and outputs.
                          "tooltip=\"mode OFF\\ndT/dt = (T_out - T) / tau\\noutput heating = 0\"",
                          // The initial mode is pointed at from a dot.
                          "m0_initial [shape=point",
                          "m0_initial -> m0_0 ",
                          // One edge per transition, labelled with its guard.
                          "m0_0 -> m0_1 [label=\"T <= T_low\", tooltip=\"transition 0: guard T <= T_low\"]",
                          "m0_1 -> m0_0 [label=\"T >= T_high\", tooltip=\"transition 1: guard T >= T_high\"]",
                      });
  CHECK(contains(dot_subgraph(dot, "cluster_chart_room"), "m0_1 -> m0_0"));
  // The cluster's tooltip lists the chart's states.
  CHECK(contains(dot, "tooltip=\"room (ModalModel)\\nstate T, initially T0\""));
}

TEST_CASE("ctde graph draws compound transitions through an instantaneous mode, and ports on the box") {
  const CommandResult r = run_cli("graph " + ctde::test::example_models() + "hard_stop.json");
  REQUIRE(r.status == 0);
  const std::string& dot = r.output;
  check_contains(dot, {
                          "compound=true",
                          // The instantaneous mode is a small dashed circle with its (short) reset.
                          "m1_1 [label=\"IMPACT\\nv = -e * v_old\", shape=circle, style=\"dashed,filled\"",
                          "m1_0 -> m1_1 [label=\"x <= lower_bnd && v < 0\"",
                          "m1_0 -> m1_1 [label=\"x >= upper_bnd && v > 0\"",
                      });
  CHECK(count(dot, "m1_1 -> m1_0 [style=dashed") == 1);  // leaving IMPACT, drawn once
  check_contains(dot,
                 {
                     // The force's connection ends on the chart's border; the actor's own node is invisible.
                     "0->1 [style=solid, color=\"#777777\", label=\"F\", lhead=\"cluster_chart_stop\"]",
                     "1 [label=\"\", shape=point, style=invis",
                     // The chart's local parameters are in the box's tooltip.
                     "tooltip=\"stop (ModalModel)\\nupper_bnd = 0.1\\nlower_bnd = -0.1\\ne = 0.8\\nm = 1\\n",
                 });
}

TEST_CASE("ctde graph puts each actor's evaluated parameters in its tooltip, long values shortened") {
  std::string a;
  for (int i = 0; i < 10; ++i) {
    a += i > 0 ? ", [" : "[";
    for (int j = 0; j < 10; ++j) a += std::string(j > 0 ? ", " : "") + (i == j ? "-1" : "0");
    a += "]";
  }
  std::string offsets;
  for (int i = 0; i < 30; ++i) offsets += (i > 0 ? ", " : "") + std::to_string(i) + "e-3";
  const auto model =
      write_model("values.json", R"({"ctde": 1, "name": "values", "director": {"stop_time": 1},
    "parameters": {"gain": 3},
    "actors": [
      {"name": "g", "type": "Gain", "params": {"k": "2 * gain"}},
      {"name": "sys", "type": "StateSpace", "params": {"A": [)" +
                                     a + R"(], "B": [[1], [1], [1], [1], [1], [1], [1], [1], [1], [1]],
        "C": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]}},
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.1, "offsets": [)" +
                                     offsets + R"(],
        "values": [)" + offsets + R"(]}},
      {"name": "u", "type": "Constant", "params": {"value": 1}}],
    "connections": [["u.out", "sys.in"], ["sys.out", "g.in"]]})");
  const CommandResult r = run_cli("graph " + model.string());
  REQUIRE(r.status == 0);
  const std::string& dot = r.output;
  check_contains(
      dot, {
               "tooltip=\"g (Gain)\\nk = 6\"",  // the expression's value
               "tooltip=\"sys (StateSpace)\\nA = [[-1, 0, 0, 0, 0, 0, 0, 0, 0, 0], ... (10x10)]\\n",
               "\\nB = [[1], [1], [1], [1], [1], [1], [1], [1], [1], [1]]\\n",
               "\\nD = 0\\ninitial = 0\"",  // one value: as the model writes it
               "\\noffsets = [0, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, ... (30 values)]\\n",
           });
}

TEST_CASE("ctde graph wraps a long chain into rows and leaves a short one straight") {
  const CommandResult longer = run_cli("graph " + chain_model(25).string());
  REQUIRE(longer.status == 0);
  CHECK(contains(longer.output, "rankdir=LR"));
  // Rows of the chain: the edges from one row to the next do not constrain the ranks.
  const std::size_t cuts = count(longer.output, "constraint=false");
  CHECK(cuts >= 2);
  CHECK(cuts <= 6);
  CHECK(contains(longer.output, "[style=solid, color=\"#1f4e79\", constraint=false]"));

  const CommandResult shorter = run_cli("graph " + chain_model(4).string());
  REQUIRE(shorter.status == 0);
  CHECK(contains(shorter.output, "rankdir=LR"));
  CHECK_FALSE(contains(shorter.output, "constraint=false"));
}

TEST_CASE("ctde graph draws an FMU actor, with its file in the tooltip") {
  const std::string fmu = std::string(CTDE_TEST_FMUS) + "/dahlquist.fmu";
  const auto model = write_model("fmu.json", R"({"ctde": 1, "name": "fmu", "director": {"stop_time": 1},
    "actors": [{"name": "a", "type": "FMU", "params": {"file": ")" +
                                                 fmu + R"("}},
               {"name": "g", "type": "Gain"}],
    "connections": [["a.x", "g.in"]]})");
  const CommandResult r = run_cli("graph " + model.string());
  REQUIRE(r.status == 0);
  CHECK(contains(r.output,
                 "0 [label=\"a\\nFMU\", tooltip=\"a (FMU)\\nfile = \\\"" + fmu + "\\\"\\ninterface = "));
  CHECK(contains(r.output, "0->1 [style=solid, color=\"#1f4e79\", label=\"x -> in\"]"));
  const auto svg = ctde::test::scratch_file("ctde_cli_graph_details_test", "fmu.svg");
  std::filesystem::remove(svg);
  const CommandResult drawn = run_cli("graph " + model.string() + " -o " + svg.string());
  CHECK(drawn.status == 0);
  CHECK(contains(read_text(svg), "</svg>"));
}
