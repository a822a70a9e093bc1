// The math actors (actors/math/) in small runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::events_of;
using ctde::test::run_model;

TEST_CASE("discrete math actors compute on the tokens present") {
  const auto run = run_model(R"({"ctde": 1, "parameters": {"k": 3},
    "director": {"stop_time": 2.5},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 1, "values": [2]}},
      {"name": "acc", "type": "Accumulator", "params": {"initial": 1}},
      {"name": "scaled", "type": "Gain", "params": {"k": "k"}},
      {"name": "neg", "type": "Gain", "params": {"k": -1}},
      {"name": "mag", "type": "Abs"},
      {"name": "sat", "type": "Saturation", "params": {"upper": 10}},
      {"name": "sum", "type": "Sum", "params": {"signs": "+-"}}],
    "connections": [["clock.out", "acc.in"], ["acc.out", "scaled.in"], ["scaled.out", "neg.in"],
                    ["neg.out", "mag.in"], ["mag.out", "sat.in"], ["sat.out", "sum.in0"],
                    ["clock.out", "sum.in1"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  using Series = std::vector<std::pair<double, double>>;
  CHECK(events_of(run, "acc") == Series{{0, 3}, {1, 5}, {2, 7}});
  CHECK(events_of(run, "scaled") == Series{{0, 9}, {1, 15}, {2, 21}});
  CHECK(events_of(run, "sat") == Series{{0, 9}, {1, 10}, {2, 10}});
  // sum fires once per tick, with both tokens present in the same microstep.
  CHECK(events_of(run, "sum") == Series{{0, 7}, {1, 8}, {2, 8}});
}

TEST_CASE(
    "Product multiplies and divides in the order of its ops; MinMax takes the least or greatest, element by "
    "element") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2, "output_interval": 0.25},
 "actors": [
  {"name": "one", "type": "Constant", "params": {"value": 1}},
  {"name": "x", "type": "Integrator"},
  {"name": "m4", "type": "Constant", "params": {"value": -4}},
  {"name": "m2", "type": "Constant", "params": {"value": -2}},
  {"name": "half", "type": "Constant", "params": {"value": 0.5}},
  {"name": "p", "type": "Product", "params": {"ops": "*/"}},
  {"name": "q", "type": "Product", "params": {"ops": "**/"}},
  {"name": "lo", "type": "MinMax", "params": {"mode": "min"}},
  {"name": "hi", "type": "MinMax", "params": {"mode": "max", "inputs": 3}},
  {"name": "u", "type": "Constant", "params": {"value": [1, 5, -2]}},
  {"name": "w", "type": "Constant", "params": {"value": [3, 0, -1]}},
  {"name": "vmin", "type": "MinMax"},
  {"name": "vmax", "type": "MinMax", "params": {"mode": "max"}}],
 "connections": [["one.out", "x.in"], ["x.out", "p.in0"], ["m4.out", "p.in1"],
   ["x.out", "q.in0"], ["x.out", "q.in1"], ["m2.out", "q.in2"],
   ["x.out", "lo.in0"], ["half.out", "lo.in1"],
   ["x.out", "hi.in0"], ["half.out", "hi.in1"], ["m2.out", "hi.in2"],
   ["u.out", "vmin.in0"], ["w.out", "vmin.in1"], ["u.out", "vmax.in0"], ["w.out", "vmax.in1"]],
 "record": ["x.out", "p.out", "q.out", "lo.out", "hi.out", "vmin.out", "vmax.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  REQUIRE(run.rows.size() > 8);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    const double x = row.values[run.column("x.out")];
    CHECK(x == doctest::Approx(row.t).epsilon(1e-12));
    CHECK(row.values[run.column("p.out")] == x / -4);      // "*/": 1 * x / (-4)
    CHECK(row.values[run.column("q.out")] == x * x / -2);  // "**/": 1 * x * x / (-2)
    CHECK(row.values[run.column("lo.out")] == std::min(x, 0.5));
    CHECK(row.values[run.column("hi.out")] == std::max(x, 0.5));  // and -2, never the greatest
    const std::vector<double> vmin = {row.values[run.column("vmin.out[0]")],
                                      row.values[run.column("vmin.out[1]")],
                                      row.values[run.column("vmin.out[2]")]};
    const std::vector<double> vmax = {row.values[run.column("vmax.out[0]")],
                                      row.values[run.column("vmax.out[1]")],
                                      row.values[run.column("vmax.out[2]")]};
    CHECK(vmin == std::vector<double>{1, 0, -2});  // min of [1, 5, -2] and [3, 0, -1]
    CHECK(vmax == std::vector<double>{3, 5, -1});
  }
  // Both sides of MinMax's switch point are in the run.
  CHECK(run.rows.front().values[run.column("lo.out")] == 0);
  CHECK(run.rows.back().values[run.column("lo.out")] == 0.5);
  CHECK(run.rows.back().values[run.column("hi.out")] == doctest::Approx(2).epsilon(1e-12));
}

namespace {

/// The first row of the results at or after time `t`, as the named columns' values.
std::vector<double> row_at(const ctde::test::Run& run, double t, const std::vector<std::string>& columns) {
  for (const auto& row : run.rows) {
    if (row.t < t) continue;
    std::vector<double> out;
    for (const auto& name : columns) out.push_back(row.values[run.column(name)]);
    return out;
  }
  return {};
}

/// The error of validating one actor `a` driven by a Constant of `value` on input `port`.
std::string error_with_input(const std::string& actor, const std::string& value,
                             const std::string& port = "in") {
  return ctde::test::model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": )" +
                                      value + "}}, " + actor + R"(],
    "connections": [["u.out", "a.)" + port +
                                      R"("]]})");
}

}  // namespace

TEST_CASE("Lookup1D on a ramp: each segment's line, the breakpoints exactly, constant beyond the ends") {
  // u = t - 1 over [-1, 12]; the table (0, 1), (2.5, 2), (5, 0), (10, 4).
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 13, "output_interval": 0.125},
    "actors": [{"name": "ramp", "type": "Ramp", "params": {"slope": 1, "start_time": 0}},
               {"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "u", "type": "Sum", "params": {"signs": "+-"}},
               {"name": "table", "type": "Lookup1D", "params": {"x": [0, 2.5, 5, 10], "y": [1, 2, 0, 4]}},
               {"name": "points", "type": "Constant", "params": {"value": [-3, 2.5, 5, 7.5, 20]}},
               {"name": "each", "type": "Lookup1D", "params": {"x": [0, 2.5, 5, 10], "y": [1, 2, 0, 4]}}],
    "connections": [["ramp.out", "u.in0"], ["one.out", "u.in1"], ["u.out", "table.in"],
                    ["points.out", "each.in"]],
    "record": ["u.out", "table.out", "each.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  // Each segment written as its own line, not as the actor's weights.
  const auto expected = [](double u) {
    if (u <= 0) return 1.0;
    if (u <= 2.5) return 1 + 0.4 * u;
    if (u <= 5) return 2 - 0.8 * (u - 2.5);
    if (u <= 10) return 0.8 * (u - 5);
    return 4.0;
  };
  int checked = 0;
  for (const auto& row : run.rows) {
    const double u = row.values[run.column("u.out")];
    CHECK(row.values[run.column("table.out")] == doctest::Approx(expected(u)).epsilon(1e-12));
    if (u == 2.5) CHECK(row.values[run.column("table.out")] == 2.0);  // a breakpoint: its y, exactly
    if (u == 5.0) CHECK(row.values[run.column("table.out")] == 0.0);
    ++checked;
  }
  CHECK(checked > 100);
  // Element by element: clamped below and above, breakpoints, a midpoint.
  const auto& last = run.rows.back();
  CHECK(std::vector<double>{last.values[run.column("each.out[0]")], last.values[run.column("each.out[1]")],
                            last.values[run.column("each.out[2]")], last.values[run.column("each.out[3]")],
                            last.values[run.column("each.out[4]")]} == std::vector<double>{1, 2, 0, 2, 4});
}

TEST_CASE("DeadZone and Quantizer on a ramp: their closed forms at every row") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 4, "output_interval": 0.125},
    "actors": [{"name": "u", "type": "Ramp", "params": {"slope": 1, "start_time": 0}},
               {"name": "shift", "type": "Sum", "params": {"signs": "+-"}},
               {"name": "two", "type": "Constant", "params": {"value": 2}},
               {"name": "dz", "type": "DeadZone", "params": {"lower": -0.5, "upper": 1}},
               {"name": "q", "type": "Quantizer", "params": {"interval": 0.5, "offset": 0.1}}],
    "connections": [["u.out", "shift.in0"], ["two.out", "shift.in1"], ["shift.out", "dz.in"],
                    ["shift.out", "q.in"]],
    "record": ["shift.out", "dz.out", "q.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  int checked = 0;
  for (const auto& row : run.rows) {
    const double u = row.values[run.column("shift.out")];
    CHECK(u == doctest::Approx(row.t - 2).epsilon(1e-12));
    const double dz = u > 1 ? u - 1 : (u < -0.5 ? u + 0.5 : 0.0);
    CHECK(row.values[run.column("dz.out")] == doctest::Approx(dz).epsilon(1e-12));
    CHECK(row.values[run.column("q.out")] ==
          doctest::Approx(0.1 + 0.5 * std::round((u - 0.1) / 0.5)).epsilon(1e-12));
    ++checked;
  }
  CHECK(checked >= 32);
}

TEST_CASE("Switch passes in0 while control >= threshold, else in1") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3, "output_interval": 0.25},
    "actors": [{"name": "t", "type": "Clock"},
               {"name": "hi", "type": "Constant", "params": {"value": [10, 20]}},
               {"name": "lo", "type": "Constant", "params": {"value": [-1, -2]}},
               {"name": "s", "type": "Switch", "params": {"threshold": 1.5}}],
    "connections": [["hi.out", "s.in0"], ["lo.out", "s.in1"], ["t.out", "s.control"]],
    "record": ["s.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(row_at(run, 1.25, {"s.out[0]", "s.out[1]"}) == std::vector<double>{-1, -2});
  CHECK(row_at(run, 1.5, {"s.out[0]", "s.out[1]"}) == std::vector<double>{10, 20});
  CHECK(row_at(run, 2.75, {"s.out[0]", "s.out[1]"}) == std::vector<double>{10, 20});
}

TEST_CASE("Mux, Demux and Selector route elements: widths from the connections") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 4},
    "actors": [{"name": "a", "type": "Constant", "params": {"value": [1, 2]}},
               {"name": "b", "type": "Constant", "params": {"value": 3}},
               {"name": "t", "type": "Clock"},
               {"name": "m", "type": "Mux", "params": {"inputs": 3}},
               {"name": "d", "type": "Demux", "params": {"widths": [1, 3]}},
               {"name": "even", "type": "Demux", "params": {"outputs": 2}},
               {"name": "s", "type": "Selector", "params": {"indices": [3, 0, 3]}}],
    "connections": [["a.out", "m.in0"], ["b.out", "m.in1"], ["t.out", "m.in2"], ["m.out", "d.in"],
                    ["m.out", "even.in"], ["m.out", "s.in"]],
    "record": ["m.out", "d.out0", "d.out1", "even.out1", "s.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto& last = run.rows.back();
  REQUIRE(last.t == 4);  // every element differs at t = 4: [1, 2, 3, 4]
  const auto at = [&](const std::string& column) { return last.values[run.column(column)]; };
  CHECK(std::vector<double>{at("m.out[0]"), at("m.out[1]"), at("m.out[2]"), at("m.out[3]")} ==
        std::vector<double>{1, 2, 3, 4});
  CHECK(at("d.out0") == 1);
  CHECK(std::vector<double>{at("d.out1[0]"), at("d.out1[1]"), at("d.out1[2]")} ==
        std::vector<double>{2, 3, 4});
  CHECK(std::vector<double>{at("even.out1[0]"), at("even.out1[1]")} == std::vector<double>{3, 4});
  CHECK(std::vector<double>{at("s.out[0]"), at("s.out[1]"), at("s.out[2]")} == std::vector<double>{4, 1, 4});
}

TEST_CASE("a discrete Mux sends one vector token of every input's latest value") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2.5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "n", "type": "Counter"},
               {"name": "k", "type": "Constant", "params": {"value": [7, 8]}},
               {"name": "m", "type": "Mux"}],
    "connections": [["clock.out", "n.in"], ["n.out", "m.in0"], ["k.out", "m.in1"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::vector<double>> tokens;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "m")
      tokens.push_back(line["value"].get<std::vector<double>>());
  }
  CHECK(tokens == std::vector<std::vector<double>>{{1, 7, 8}, {2, 7, 8}, {3, 7, 8}});
}

TEST_CASE("routing and nonlinear actors name the parameter that does not fit") {
  CHECK(
      error_with_input(R"({"name": "a", "type": "Selector", "params": {"indices": [0, 2]}})", "[1, 2]")
          .find(
              "actor 'a' (Selector), parameter 'indices': index 2 does not fit the input 'in' of width 2") !=
      std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "Selector", "params": {"indices": [-1]}})", "1")
            .find("parameter 'indices': must be whole numbers >= 0") != std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "Demux", "params": {"outputs": 2}})", "[1, 2, 3]")
            .find("actor 'a' (Demux), parameter 'outputs': the input 'in' of width 3 does not split into 2 "
                  "outputs of equal width") != std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "Demux", "params": {"widths": [1, 1]}})", "[1, 2, 3]")
            .find("actor 'a' (Demux), parameter 'widths': add up to 2 but the input 'in' has width 3") !=
        std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "DeadZone", "params": {"lower": 1, "upper": 0}})", "1")
            .find("actor 'a' (DeadZone), parameter 'upper': must be finite and not below 'lower' (1)") !=
        std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "Quantizer", "params": {"interval": 0}})", "1")
            .find("actor 'a' (Quantizer), parameter 'interval': must be a finite number > 0") !=
        std::string::npos);
  CHECK(error_with_input(R"({"name": "a", "type": "Mux", "params": {"inputs": 0}})", "1", "in0")
            .find("actor 'a' (Mux), parameter 'inputs': must be a whole number from 1 to 1000") !=
        std::string::npos);
}

TEST_CASE("floor, ceil, round and mod in an Expression") {
  const auto run = run_model(R"json({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": -2.5}},
               {"name": "e", "type": "Expression",
                "params": {"expr": "1000 * floor(in0) + 100 * ceil(in0) + 10 * round(in0) + mod(in0, 2)"}}],
    "connections": [["u.out", "e.in0"]], "record": ["e.out"]})json");
  REQUIRE(run.result.status == RunStatus::kOk);
  // floor -3, ceil -2, round -3 (away from zero), mod(-2.5, 2) = 1.5 (the sign of the divisor)
  CHECK(run.rows.back().values[run.column("e.out")] == -3000 - 200 - 30 + 1.5);
}

TEST_CASE("a vector Expression: one output element per expression of a comma-separated list") {
  const auto run = run_model(R"json({"ctde": 1, "parameters": {"r": 2},
    "director": {"stop_time": 1, "output_interval": 0.125},
    "actors": [{"name": "t", "type": "Clock"},
               {"name": "e", "type": "Expression", "params": {"expr": "r * cos(in0), r * sin(in0), floor(4 * in0)"}},
               {"name": "second", "type": "Demux", "params": {"widths": [1, 1, 1]}}],
    "connections": [["t.out", "e.in0"], ["e.out", "second.in"]], "record": ["e.out", "second.out1"]})json");
  REQUIRE(run.result.status == RunStatus::kOk);
  REQUIRE(run.rows.size() >= 9);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    CHECK(row.values[run.column("e.out[0]")] == doctest::Approx(2 * std::cos(row.t)).epsilon(1e-14));
    CHECK(row.values[run.column("e.out[1]")] == doctest::Approx(2 * std::sin(row.t)).epsilon(1e-14));
    CHECK(row.values[run.column("e.out[2]")] == std::floor(4 * row.t));
    CHECK(row.values[run.column("second.out1")] == row.values[run.column("e.out[1]")]);
  }
}
