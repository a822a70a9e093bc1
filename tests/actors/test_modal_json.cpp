// ModalModel in model files: mistakes in a chart are model errors that name
// the actor, the item and the expression, at the item's JSON location.

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "support/model_helpers.hpp"
#include "support/run_helpers.hpp"

#include <nlohmann/json.hpp>

using namespace ctde;
using namespace ctde::test;

namespace {

using ordered = nlohmann::ordered_json;

/// The error of the hard stop example with its chart (params) changed by `change`.
std::string error_with(const std::function<void(ordered&)>& change) {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/examples/models/hard_stop.json");
  std::ostringstream text;
  text << in.rdbuf();
  ordered model = ordered::parse(text.str());
  change(model["actors"][1]["params"]);
  return model_file_error(model.dump());
}

constexpr const char* kStop = "actor 'stop' (ModalModel)";

std::string at(const std::string& pointer, const std::string& message) {
  std::string out = "test.json at /actors/1/params";
  out += pointer;
  out += ": ";
  out += kStop;
  out += message;
  return out;
}

}  // namespace

TEST_CASE("the modal examples load and validate") {
  CHECK(error_with([](ordered&) {}).empty());
}

TEST_CASE("a modal guard's syntax error names the transition and the column, at the guard's JSON location") {
  CHECK(error_with([](ordered& p) { p["transitions"][0]["guard"] = "x <= lower_bnd &&"; }) ==
        at("/transitions/0/guard",
           ", transition 0 (FREE -> IMPACT -> FREE), guard \"x <= lower_bnd &&\": '&&' needs a comparison on "
           "its "
           "right at column 16"));
  CHECK(
      error_with([](ordered& p) { p["transitions"][1]["guard"] = "x == upper_bnd"; })
          .find(at(
              "/transitions/1/guard",
              ", transition 1 (FREE -> IMPACT -> FREE), guard \"x == upper_bnd\": '==' is not supported")) ==
      0);
  CHECK(
      error_with([](ordered& p) { p["transitions"][1]["guard"] = "(x >= upper_bnd && v > 0"; }) ==
      at("/transitions/1/guard",
         ", transition 1 (FREE -> IMPACT -> FREE), guard \"(x >= upper_bnd && v > 0\": '(' is not closed at "
         "column 1"));
}

TEST_CASE("a modal expression with an unknown name names it, the expression and what may be read there") {
  CHECK(error_with([](ordered& p) { p["transitions"][1]["guard"] = "x >= uper_bnd && v > 0"; }) ==
        at("/transitions/1/guard",
           ", transition 1 (FREE -> IMPACT -> FREE), guard \"x >= uper_bnd && v > 0\" (column 6): 'uper_bnd' "
           "in "
           "\"uper_bnd\" is not defined (expressions here read parameters, states, inputs, event variables "
           "and t)"));
  CHECK(error_with([](ordered& p) { p["modes"]["FREE"]["der"]["v"] = "F / mass"; }) ==
        at("/modes/FREE/der/v",
           ", mode 'FREE', der 'v': 'mass' in \"F / mass\" is not defined (expressions here read parameters, "
           "states, inputs, event variables and t)"));
  CHECK(error_with([](ordered& p) { p["parameters"]["e"] = "x / 2"; }) ==
        at("/parameters/e",
           ", parameter 'e': 'x' in \"x / 2\" is a continuous state; expressions here read only parameters"));
  CHECK(error_with([](ordered& p) {
          p["modes"]["FREE"]["der"]["v"] = "F = 2";
        }).find(at("/modes/FREE/der/v", ", mode 'FREE', der 'v': \"F = 2\" assigns with '='")) == 0);
}

TEST_CASE("unknown keys in modal params are errors at their JSON location") {
  CHECK(error_with([](ordered& p) {
          p["modes"]["FREE"]["deer"] = {{"x", "v"}};
        }) ==
        at("/modes/FREE/deer", ": unknown key 'deer' in mode 'FREE' (known here: der, outputs, entry, set)"));
  CHECK(error_with([](ordered& p) { p["transitions"][0]["when"] = "x > 1"; }) ==
        at("/transitions/0/when", ": unknown key 'when' in transition 0 (known here: path, guard, set)"));
  CHECK(error_with([](ordered& p) {
          p["stattes"] = {{"x", 0}};
        }) == std::string("test.json at /actors/1/params/stattes: ") + kStop +
                  " has no parameter 'stattes' (its parameters: inputs, outputs, parameters, assert, states, "
                  "event_vars, modes, transitions, initial)");
}

TEST_CASE("modal chart structure errors name the item") {
  CHECK(error_with([](ordered& p) {
          p["transitions"][0]["path"] = {"FREE", "IMPAKT", "FREE"};
        }) == at("/transitions/0",
                 ", transition 0 (FREE -> IMPAKT -> FREE): there is no mode 'IMPAKT' (modes: FREE, IMPACT)"));
  CHECK(error_with([](ordered& p) { p["transitions"][0]["path"] = {"FREE"}; }) ==
        at("/transitions/0/path",
           ": transition 0: path must be [from, to] or [from, via, to] (mode names), got [\"FREE\"]"));
  CHECK(error_with([](ordered& p) {
          p["modes"]["IMPACT"]["der"] = {{"x", "v"}};
        })
            .find(at("/modes/IMPACT",
                     ", mode 'IMPACT' is instantaneous (the middle of a compound transition)")) == 0);
  CHECK(error_with([](ordered& p) { p["initial"] = "IMPACT"; }) ==
        at("/initial", ", initial mode 'IMPACT' is instantaneous"));
  CHECK(error_with([](ordered& p) { p.erase("initial"); }) ==
        std::string("test.json at /actors/1: ") + kStop +
            ", give the initial mode (\"initial\"; modes: FREE, IMPACT)");
  CHECK(error_with([](ordered& p) {
          p["transitions"][0]["set"] = {{"v", 0}};
        }) == at("/transitions/0",
                 ", transition 0 (FREE -> IMPACT -> FREE): a compound transition's resets belong to its "
                 "instantaneous "
                 "mode 'IMPACT' (its \"set\")"));
  CHECK(error_with([](ordered& p) { p["modes"]["IMPACT"]["entry"]["v"] = 1; }) ==
        at("/modes/IMPACT/entry/v",
           ", mode 'IMPACT', entry 'v': 'v' is not an event variable (entry assigns event variables; set "
           "resets "
           "states)"));
  CHECK(error_with([](ordered& p) { p["modes"]["FREE"]["der"]["y"] = "v"; }) ==
        at("/modes/FREE/der/y", ", mode 'FREE', der 'y': 'y' is not a state"));
  CHECK(error_with([](ordered& p) { p["states"]["x"] = true; }) ==
        at("/states/x", ": state 'x' must be a number or an expression string, got boolean true"));
  CHECK(error_with([](ordered& p) { p["inputs"]["F"] = 0; }) ==
        at("/inputs/F", ": input 'F' must give its width, a whole number >= 1, got 0"));
  CHECK(error_with([](ordered& p) { p["event_vars"]["x"] = 0; }) ==
        at("/event_vars/x", ", the name 'x' is both a state and an event variable"));
  CHECK(error_with([](ordered& p) {
          p["modes"]["FREE"]["outputs"] = {{"a", "x"}};
          p["modes"]["REST"] = ordered::object();
        }) == at("/modes/REST",
                 ", mode 'REST' gives no value for output 'a' (give it in the mode's outputs, or a "
                 "default in the chart's outputs)"));
}

TEST_CASE(
    "a modal model's ports come from its chart: widths, and feedthrough only where an output reads an "
    "input") {
  Model model = load(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": [1, 2]}},
               {"name": "m", "type": "ModalModel", "params": {
      "inputs": { "u": 2 }, "outputs": { "y": "u_0 + u_1", "s": "s" },
      "states": { "s": 0 }, "modes": { "ONLY": { "der": { "s": "u_1" } } } }}],
    "connections": [["u.out", "m.u"]]})");
  (void)validate(model);
  const Actor& m = *model.top().children()[1];
  REQUIRE(m.inputs().size() == 1);
  CHECK(m.inputs()[0].width == 2);
  REQUIRE(m.outputs().size() == 2);
  CHECK(m.outputs()[0].name == "y");
  CHECK(m.feeds_through(0, 0));
  CHECK_FALSE(m.feeds_through(0, 1));
  // Configuring again (a second validation) declares nothing twice.
  (void)validate(model);
  CHECK(m.inputs().size() == 1);
  CHECK(m.outputs().size() == 2);
}

namespace {

/// A chart of one clock state x (x' = 1) that goes from A to B at x = 1, with
/// the output `p` given by `chart_p` and, in B, by `b_p` (JSON values).
std::string vector_output_model(const std::string& chart_p, const std::string& b_p) {
  return R"({"ctde": 1, "director": {"stop_time": 2, "output_interval": 0.25},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": {"p": )" +
         chart_p + R"(, "q": "x"}, "states": {"x": 0},
      "modes": {"A": {"der": {"x": 1}}, "B": {"der": {"x": 1}, "outputs": {"p": )" +
         b_p + R"(}}},
      "transitions": [{"path": ["A", "B"], "guard": "x >= 1"}], "initial": "A"}}],
    "record": ["m.p", "m.q"]})";
}

}  // namespace

TEST_CASE("a ModalModel output given as a list of expressions is a vector output, per mode") {
  const auto run = ctde::test::run_model(vector_output_model(R"(["x", "2 * x"])", R"(["-x", 0])"));
  REQUIRE(run.result.status == RunStatus::kOk);
  int checked = 0;
  for (const auto& row : run.rows) {
    // Both sides of the switch: at x = 1, t = 1 to within a tick (x is integrated:
    // a rounding error of x can put the crossing one tick later).
    if (std::abs(row.t - 1) <= 1.5e-12) continue;
    const double p0 = row.values[run.column("m.p[0]")];
    const double p1 = row.values[run.column("m.p[1]")];
    CAPTURE(row.t);
    CHECK(row.values[run.column("m.q")] == doctest::Approx(row.t).epsilon(1e-12));
    if (row.t < 1) {
      CHECK(p0 == doctest::Approx(row.t).epsilon(1e-12));
      CHECK(p1 == doctest::Approx(2 * row.t).epsilon(1e-12));
    } else {
      CHECK(p0 == doctest::Approx(-row.t).epsilon(1e-12));
      CHECK(p1 == 0);
    }
    ++checked;
  }
  CHECK(checked >= 8);
}

TEST_CASE("a vector output's elements must agree between the chart's outputs and its modes'") {
  CHECK(model_file_error(vector_output_model(R"(["x", "x"])", R"("x")"))
            .find("actor 'm' (ModalModel), output 'p' is given with different numbers of elements") !=
        std::string::npos);
  CHECK(model_file_error(vector_output_model(R"(["x", "x"])", R"(["x", "x", "x"])")).find("output 'p") !=
        std::string::npos);
  CHECK(model_file_error(vector_output_model("[]", R"(["x"])")).find("must list 1 to 1000 expressions") !=
        std::string::npos);
}

// Found by the loader's fuzzer: a name with a '[' not followed by "digits]"
// reached std::stoul, whose exception ended the process.
TEST_CASE("a ModalModel output's name is a port's name or p[k]; anything else is refused") {
  for (const std::string name :
       {"p[", "p[a]", "p[1", "p[]", "p[1]x", "p[-1]", "p[99999999999999999999999]", "[0]"}) {
    CAPTURE(name);
    const std::string model = R"({"ctde": 1, "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": {")" + name + R"(": 1}, "modes": {"A": {}}, "initial": "A"}}]})";
    CHECK(model_file_error(model).find("output name '" + name + "' is not a valid port name") !=
          std::string::npos);
    // The same name given by a mode only.
    const std::string in_mode = R"({"ctde": 1, "actors": [{"name": "m", "type": "ModalModel", "params": {
      "modes": {"A": {"outputs": {")" +
                                name + R"(": 1}}}, "initial": "A"}}]})";
    CHECK(model_file_error(in_mode).find("output name '" + name + "' is not a valid port name") !=
          std::string::npos);
  }
}

TEST_CASE("a ModalModel's discrete input holds its last token: read by derivatives and guards") {
  // cmd: 0, then 2 from t = 0.5, 4 from t = 2. A: x' = cmd until x >= 1 (t = 1); B: x' = -cmd
  // until cmd >= 4 (a guard made true by a token: at (2, 1)); C: x' = 0. So x = 2 (t - 0.5) on
  // [0.5, 1], 1 - 2 (t - 1) on [1, 2], then -1.
  const auto run = ctde::test::run_model(R"({"ctde": 1,
    "director": {"stop_time": 3, "output_interval": 0.25, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "cmd", "type": "DiscreteClock",
                "params": {"period": "inf", "offsets": [0.5, 2], "values": [2, 4]}},
               {"name": "m", "type": "ModalModel", "params": {
      "inputs": {"cmd": {"kind": "discrete"}}, "outputs": {"x": "x"}, "states": {"x": 0},
      "modes": {"A": {"der": {"x": "cmd"}}, "B": {"der": {"x": "-cmd"}}, "C": {}},
      "transitions": [{"path": ["A", "B"], "guard": "x >= 1"}, {"path": ["B", "C"], "guard": "cmd >= 4"}],
      "initial": "A"}}],
    "connections": [["cmd.out", "m.cmd"]], "record": ["m.x"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  for (const auto& row : run.rows) {
    CAPTURE(row.t);
    const double t = row.t;
    const double x = t <= 0.5 ? 0.0 : t <= 1 ? 2 * (t - 0.5) : t <= 2 ? 1 - 2 * (t - 1) : -1.0;
    CHECK(row.values[run.column("m.x")] == doctest::Approx(x).epsilon(1e-9));
  }
  std::vector<std::pair<double, int>> modes;
  for (const auto& line : run.lines) {
    if (line["kind"] == "mode") modes.emplace_back(line["t"].get<double>(), line["n"].get<int>());
  }
  REQUIRE(modes.size() == 2);
  CHECK(modes[0].first == doctest::Approx(1).epsilon(1e-11));
  CHECK(modes[1] == std::pair<double, int>{2, 1});  // the token at (2, 0), the guard's crossing at (2, 1)
}

TEST_CASE("a ModalModel input's kind is continuous or discrete") {
  const std::string error = model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "inputs": {"u": {"kind": "sampled"}}, "states": {"x": 0}, "modes": {"A": {"der": {"x": "u"}}}}}]})");
  CHECK(error.find("input 'u': kind must be \"continuous\" or \"discrete\", got \"sampled\"") !=
        std::string::npos);
}
