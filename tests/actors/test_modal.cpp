// ModalModel: the hard stop and thermostat examples against their analytic
// solutions, the trace of transitions, entry and set ordering, the C++ way
// of building a chart, and the consistency error.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "actors/modal/modal_model.hpp"
#include "actors/sources/constant.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// An example model with its director options replaced (null: removed).
std::string example(const std::string& name, const nlohmann::json& director) {
  nlohmann::ordered_json model = nlohmann::ordered_json::parse(ctde::test::read_example(name));
  for (const auto& [key, value] : director.items()) {
    if (value.is_null()) {
      model["director"].erase(key);  // back to the default
    } else {
      model["director"][key] = value;
    }
  }
  return model.dump();
}

std::vector<nlohmann::json> lines_of(const Run& run, const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == kind) out.push_back(line);
  }
  return out;
}

/// The hard stop's impacts: t_k = t1 (9 - 8 e^(k-1)), t1 = sqrt(2 upper / F),
/// with velocity v_k = e^(k-1) t1 F just before impact k (m = 1).
struct Impact {
  double t;
  double v;
};
std::vector<Impact> hard_stop_impacts(double until) {
  const double t1 = std::sqrt(0.2);
  std::vector<Impact> out;
  for (int k = 1; k < 200; ++k) {  // they accumulate at 9 t1
    const double t = t1 * (9 - 8 * std::pow(0.8, k - 1));
    if (t >= until) break;
    out.push_back({t, std::pow(0.8, k - 1) * t1});
  }
  return out;
}

/// The thermostat's switching times: exponential relaxation towards T_out
/// (off) or T_heat (on), each segment t = tau ln((T0 - Ta) / (T1 - Ta)).
std::vector<double> thermostat_switches(double until) {
  const double t_out = 5, t_heat = 40, low = 18, high = 22, tau = 2;
  std::vector<double> out;
  double t = 0;
  double temperature = 20;
  bool on = false;
  while (true) {
    const double target = on ? t_heat : t_out;
    const double threshold = on ? high : low;
    t += tau * std::log((temperature - target) / (threshold - target));
    if (t >= until) return out;
    out.push_back(t);
    temperature = threshold;
    on = !on;
  }
}

const char* const kStopChart = R"(
    "inputs": { "F": 1 }, "outputs": { "x": "x", "v": "v" },
    "parameters": { "upper_bnd": 0.1, "lower_bnd": -0.1, "e": 0.8, "m": 1 },
    "states": { "x": 0, "v": 0 },
    "event_vars": { "v_old": 0 },
    "modes": {
      "FREE":   { "der": { "x": "v", "v": "F / m" } },
      "IMPACT": { "entry": { "v_old": "v" }, "set": { "v": "-e * v_old" } }
    },
    "initial": "FREE",)";

/// A model of a constant force F = 1 on a ModalModel `stop` with the hard
/// stop's chart and the given transitions (JSON) and director options.
std::string stop_model(const std::string& transitions, const std::string& director = R"("stop_time": 2)") {
  return R"({"ctde": 1, "name": "stop", "director": {)" + director + R"(},
    "actors": [{"name": "force", "type": "Constant", "params": {"value": 1}},
               {"name": "stop", "type": "ModalModel", "params": {)" +
         std::string(kStopChart) + R"("transitions": )" + transitions + R"(}}],
    "connections": [["force.out", "stop.F"]], "record": ["stop.x", "stop.v"]})";
}

}  // namespace

TEST_CASE("the modal hard stop example hits the stop at t1 (9 - 8 e^(k-1)) and rebounds with -e v") {
  const Run run = run_model(ctde::test::read_example("hard_stop.json"));
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::vector<Impact> expected = hard_stop_impacts(3.5);
  REQUIRE(expected.size() == 9);
  const auto events = lines_of(run, "state_event");
  const auto resets = lines_of(run, "reset");
  REQUIRE(events.size() == expected.size());
  REQUIRE(resets.size() == expected.size());
  double worst_t = 0;
  double worst_v = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CAPTURE(k);
    const double t = events[k]["t"].get<double>();
    CHECK(events[k]["guard"] == "1: FREE->IMPACT->FREE");
    CHECK(std::abs(t - expected[k].t) <= 1e-9 * expected[k].t);
    worst_t = std::max(worst_t, std::abs(t - expected[k].t) / expected[k].t);
    // The reset: x stays, v goes from v_k to -e v_k.
    const auto before = resets[k]["before"];
    const auto after = resets[k]["after"];
    CHECK(resets[k]["tick"] == events[k]["tick"]);
    CHECK(after[0].get<double>() == before[0].get<double>());
    CHECK(std::abs(before[1].get<double>() - expected[k].v) <= 1e-9 * expected[k].v);
    CHECK(after[1].get<double>() == -0.8 * before[1].get<double>());
    worst_v = std::max(worst_v, std::abs(before[1].get<double>() - expected[k].v) / expected[k].v);
  }
  MESSAGE("hard stop: worst relative error of the impact times " << worst_t << ", of the velocities "
                                                                 << worst_v);
  // Never beyond the stop.
  const std::size_t x = run.column("stop.x");
  for (const Row& row : run.rows) CHECK(row.values[x] <= 0.1 + 1e-9);
}

TEST_CASE("a modal compound transition is traced as a mode line via the instantaneous mode, then a reset") {
  const Run run = run_model(example("hard_stop.json", {{"stop_time", 1}}));
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::string> kinds;
  for (const auto& line : run.lines) kinds.push_back(line["kind"]);
  const auto first = [&](const std::string& kind) {
    return static_cast<std::size_t>(std::find(kinds.begin(), kinds.end(), kind) - kinds.begin());
  };
  REQUIRE(first("mode") < kinds.size());
  CHECK(first("state_event") < first("mode"));
  CHECK(first("mode") < first("reset"));
  const nlohmann::json& mode = run.lines[first("mode")];
  CHECK(mode["actor"] == "stop");
  CHECK(mode["from"] == "FREE");
  CHECK(mode["via"] == "IMPACT");
  CHECK(mode["to"] == "FREE");
  CHECK(mode["tick"] == run.lines[first("state_event")]["tick"]);
  CHECK(mode["n"] == 0);
  CHECK(run.lines[first("reset")]["actor"] == "stop");
  CHECK(lines_of(run, "mode").size() == 1);  // t1 = 0.447, t2 = 1.163
}

TEST_CASE(
    "the modal hard stop run past its accumulation ends with a Zeno or chattering error, not through the "
    "stop") {
  // Near 9 t1 the flights shrink below what a double resolves of x near 0.1
  // (v^2 / 2 under one ulp): the impacts pile up within a tick of each other.
  const Run run = run_model(example("hard_stop.json", {{"stop_time", 6}, {"output_interval", nullptr}}));
  REQUIRE(run.result.status == RunStatus::kError);
  MESSAGE("past the accumulation: " << run.result.message);
  const bool zeno = run.result.message.find("Zeno behaviour") != std::string::npos;
  const bool chattering = run.result.message.find("chattering") != std::string::npos;
  CHECK((zeno || chattering));
  CHECK(run.result.actor == "stop");
  // The computed flights accumulate where their computed lengths add up: the
  // closed form's point to within the roundoff the ~100 impacts before it
  // carry (about 1e-8 s here; the run never goes on past it).
  const double accumulation = 9 * std::sqrt(0.2);
  CHECK(std::abs(run.result.time - accumulation) <= 1e-6);
  CHECK(lines_of(run, "mode").size() >= 40);
  const std::size_t x = run.column("stop.x");
  for (const Row& row : run.rows) CHECK(row.values[x] <= 0.1 + 1e-9);
}

TEST_CASE("the modal thermostat switches at the closed-form times, plain transitions without resets") {
  const Run run = run_model(ctde::test::read_example("thermostat.json"));
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::vector<double> expected = thermostat_switches(10);
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == expected.size());
  double worst = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CAPTURE(k);
    const double t = modes[k]["t"].get<double>();
    CHECK(std::abs(t - expected[k]) <= 1e-9 * expected[k]);
    worst = std::max(worst, std::abs(t - expected[k]) / expected[k]);
    CHECK(modes[k]["from"] == (k % 2 == 0 ? "OFF" : "ON"));
    CHECK(modes[k]["to"] == (k % 2 == 0 ? "ON" : "OFF"));
    CHECK(modes[k]["via"].is_null());
  }
  MESSAGE("thermostat: " << expected.size() << " switches, worst relative error " << worst);
  CHECK(lines_of(run, "reset").empty());
  // The per-mode output, and the temperature within the band.
  const std::size_t temperature = run.column("room.T");
  const std::size_t heating = run.column("room.heating");
  for (const Row& row : run.rows) {
    CHECK(row.values[temperature] >= 18 - 1e-9);
    CHECK(row.values[temperature] <= 22 + 1e-9);
    const bool on =
        std::count_if(expected.begin(), expected.end(), [&](double s) { return s < row.t; }) % 2 == 1;
    if (std::none_of(expected.begin(), expected.end(),
                     [&](double s) { return std::abs(s - row.t) < 1e-6; })) {
      CHECK(row.values[heating] == (on ? 1.0 : 0.0));
    }
  }
}

TEST_CASE("a modal chart whose predicate holds at the start takes its transition at the start") {
  nlohmann::ordered_json model = nlohmann::ordered_json::parse(ctde::test::read_example("thermostat.json"));
  model["parameters"]["T0"] = 10;
  model["director"]["stop_time"] = 1.5;
  const Run run = run_model(model.dump());
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  REQUIRE(!modes.empty());
  CHECK(modes[0]["t"] == 0.0);
  CHECK(modes[0]["to"] == "ON");
  // Heating from 10 towards 40: T = 40 - 30 exp(-t / 2) reaches 22 at 2 ln(30 / 18).
  REQUIRE(modes.size() == 2);
  CHECK(std::abs(modes[1]["t"].get<double>() - 2 * std::log(30.0 / 18.0)) <= 1e-9);
}

TEST_CASE(
    "modal entry actions read the values before the event, set the values after; later modes see them") {
  // IMPACT's entry keeps v before the reset; FREE's entry, on the way out of
  // the compound transition, sees the reset value; n counts the impacts.
  const std::string text =
      R"({"ctde": 1, "name": "order", "director": {"stop_time": 1, "rtol": 1e-10, "atol": 1e-12},
    "actors": [{"name": "force", "type": "Constant", "params": {"value": 1}},
               {"name": "stop", "type": "ModalModel", "params": {
      "inputs": { "F": 1 }, "outputs": { "x": "x", "v": "v", "before": "a", "after": "b", "n": "n" },
      "parameters": { "e": 0.8 },
      "states": { "x": 0, "v": 0 },
      "event_vars": { "a": 0, "b": 0, "n": 0 },
      "modes": {
        "FREE":   { "der": { "x": "v", "v": "F" }, "entry": { "b": "v" } },
        "IMPACT": { "entry": { "a": "v", "n": "n + 1" }, "set": { "v": "-e * a" } }
      },
      "initial": "FREE",
      "transitions": [{ "path": ["FREE", "IMPACT", "FREE"], "guard": "x >= 0.1 && v > 0" }] }}],
    "connections": [["force.out", "stop.F"]],
    "record": ["stop.before", "stop.after", "stop.n", "stop.v"]})";
  const Run run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  const Row& last = run.rows.back();
  const double v1 = std::sqrt(0.2);
  CHECK(last.values[run.column("stop.before")] == doctest::Approx(v1).epsilon(1e-9));
  CHECK(last.values[run.column("stop.after")] == doctest::Approx(-0.8 * v1).epsilon(1e-9));
  CHECK(last.values[run.column("stop.n")] == 1.0);
  // The two sides of the jump: rows (t1, 0) and (t1, 1).
  const auto event = lines_of(run, "state_event").at(0);
  const std::size_t v = run.column("stop.v");
  std::vector<const Row*> at_event;
  for (const Row& row : run.rows) {
    if (row.t == event["t"].get<double>()) at_event.push_back(&row);
  }
  REQUIRE(at_event.size() == 2);
  CHECK(at_event[0]->n == 0);
  CHECK(at_event[1]->n == 1);
  CHECK(at_event[1]->values[v] == -0.8 * at_event[0]->values[v]);
}

TEST_CASE("a plain modal transition may reset states; its mode line has no via") {
  // A mass falls onto a catch at x = 0 and sticks there: FALL -> STUCK sets v = 0.
  const std::string text = R"({"ctde": 1, "name": "stick", "director": {"stop_time": 2},
    "actors": [{"name": "m", "type": "ModalModel", "params": {
      "outputs": { "x": "x" },
      "states": { "x": 1, "v": 0 },
      "modes": { "FALL": { "der": { "x": "v", "v": "-2" } }, "STUCK": { "der": { "x": 0, "v": 0 } } },
      "initial": "FALL",
      "transitions": [{ "path": ["FALL", "STUCK"], "guard": "x <= 0", "set": { "x": 0, "v": 0 } }] }}],
    "record": ["m.x"]})";
  const Run run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == 1);
  CHECK(modes[0]["from"] == "FALL");
  CHECK(modes[0]["to"] == "STUCK");
  CHECK(modes[0]["via"].is_null());
  CHECK(std::abs(modes[0]["t"].get<double>() - 1.0) <= 1e-9);  // x = 1 - t^2
  const auto resets = lines_of(run, "reset");
  REQUIRE(resets.size() == 1);
  CHECK(resets[0]["after"] == nlohmann::json::array({0.0, 0.0}));
  CHECK(run.rows.back().values[run.column("m.x")] == 0.0);
}

TEST_CASE("a modal guard may read inputs and t") {
  const std::string text = R"({"ctde": 1, "name": "inputs", "director": {"stop_time": 3},
    "actors": [{"name": "ramp", "type": "Ramp", "params": {"slope": 2}},
               {"name": "m", "type": "ModalModel", "params": {
      "inputs": { "u": 1 }, "outputs": { "y": "u * s" },
      "states": { "s": 1 },
      "modes": { "LOW": { "outputs": { "level": 0 } }, "HIGH": { "outputs": { "level": 1 } },
                 "LATE": { "outputs": { "level": 2 } } },
      "initial": "LOW",
      "transitions": [{ "path": ["LOW", "HIGH"], "guard": "u >= 1" },
                      { "path": ["HIGH", "LATE"], "guard": "t > 2.5" }] }}],
    "connections": [["ramp.out", "m.u"]], "record": ["m.y", "m.level"]})";
  const Run run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto modes = lines_of(run, "mode");
  REQUIRE(modes.size() == 2);
  CHECK(std::abs(modes[0]["t"].get<double>() - 0.5) <= 1e-9);
  CHECK(modes[0]["to"] == "HIGH");
  CHECK(std::abs(modes[1]["t"].get<double>() - 2.5) <= 1e-9);
  CHECK(modes[1]["to"] == "LATE");
  CHECK(run.rows.back().values[run.column("m.level")] == 2.0);
  CHECK(run.rows.back().values[run.column("m.y")] == doctest::Approx(6.0));
}

TEST_CASE(
    "a modal guard that still holds after its transition stops the run at the first impact, naming it") {
  const Run run = run_model(
      stop_model(R"([{ "path": ["FREE", "IMPACT", "FREE"], "guard": "x <= lower_bnd || x >= upper_bnd" }])"));
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(std::abs(run.result.time - std::sqrt(0.2)) <= 1e-9);
  CHECK(run.result.actor == "stop");
  const std::string& message = run.result.message;
  CAPTURE(message);
  CHECK(message.find("stop: the guard of transition 0 (FREE -> IMPACT -> FREE, guard \"x <= lower_bnd || x "
                     ">= upper_bnd\") still holds after the transition") != std::string::npos);
  CHECK(message.find("loop forever") != std::string::npos);
  CHECK(message.find("velocity") != std::string::npos);
  const auto errors = lines_of(run, "error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["actor"] == "stop");
  // The transition was taken and traced before the check.
  CHECK(lines_of(run, "mode").size() == 1);
}

TEST_CASE("a modal chart built in C++ runs like its model-file twin") {
  ModalChart chart;
  chart.add_input("F").add_output("x", "x").add_output("v", "v");
  chart.add_parameter("upper_bnd", "0.1").add_parameter("lower_bnd", "-0.1").add_parameter("e", "0.8");
  chart.add_parameter("m", "1").add_assert("e > 0 && e <= 1");
  chart.add_state("x", "0").add_state("v", "0").add_event_var("v_old", "0");
  chart.add_mode("FREE").add_der("x", "v").add_der("v", "F / m");
  chart.add_mode("IMPACT").add_entry("v_old", "v").add_set("v", "-e * v_old");
  chart.initial = "FREE";
  chart.add_transition({"FREE", "IMPACT", "FREE"}, "x <= lower_bnd && v < 0");
  chart.add_transition({"FREE", "IMPACT", "FREE"}, "x >= upper_bnd && v > 0");
  Model model("cpp_stop");
  auto& force = model.add<Constant>("force");
  force.set_parameter("value", 1.0);
  model.add<ModalModel>("stop", std::move(chart));
  model.connect("force.out", "stop.F");
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 1.5;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  std::ostringstream out;
  {
    TraceWriter trace(out);
    Director director(flat, options, "cpp_stop", &trace);
    REQUIRE(director.run().status == RunStatus::kOk);
  }
  std::vector<double> impacts;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    const auto json = nlohmann::json::parse(line);
    if (json["kind"] == "mode") impacts.push_back(json["t"].get<double>());
  }
  const std::vector<Impact> expected = hard_stop_impacts(1.5);
  REQUIRE(impacts.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) CHECK(std::abs(impacts[k] - expected[k].t) <= 1e-9);
}

TEST_CASE("a modal assert that fails is a model error naming the expression and the values") {
  const std::string text =
      R"({"ctde": 1, "name": "a", "parameters": {"restitution": 1.5}, "director": {"stop_time": 1},
    "actors": [{"name": "force", "type": "Constant", "params": {"value": 1}},
               {"name": "stop", "type": "ModalModel", "params": {
      "inputs": { "F": 1 }, "parameters": { "e": "restitution" },
      "assert": ["e > 0", "e <= 1"],
      "states": { "x": 0 }, "modes": { "FREE": { "der": { "x": "F" } } } }}],
    "connections": [["force.out", "stop.F"]]})";
  CHECK(
      model_file_error(text) ==
      "test.json at /actors/1/params/assert/1: actor 'stop' (ModalModel), assert \"e <= 1\" fails (e = 1.5)");
  // An assert reads parameters only.
  std::string reads_state = text;
  reads_state.replace(reads_state.find("\"e > 0\""), 7, "\"x > 0\"");
  CHECK(model_file_error(reads_state)
            .find("test.json at /actors/1/params/assert/0: actor 'stop' (ModalModel), "
                  "assert \"x > 0\" (column 1): 'x' in \"x\" is a continuous state") == 0);
}

TEST_CASE("a strict modal comparison at exactly zero at the located tick is taken one tick later") {
  // g = u - 1, u a ramp of slope 1, reaches 0 at the tick of t = 1 exactly:
  // "u >= 1" holds there, "u > 1" only one tick later (the guard function
  // ignores strictness). (On t itself the guard would be a time event:
  // tests/conformance/test_time_guards.cpp.)
  const auto first_mode_tick = [](const std::string& guard) {
    const Run run = run_model(R"({"ctde": 1, "name": "strict", "director": {"stop_time": 2},
      "actors": [{"name": "ramp", "type": "Ramp", "params": {"slope": 1}},
                 {"name": "m", "type": "ModalModel", "params": {
        "inputs": { "u": 1 }, "outputs": { "y": "s" }, "states": { "s": 0 },
        "modes": { "A": { "der": { "s": 1 } }, "B": { "der": { "s": 0 } } }, "initial": "A",
        "transitions": [{ "path": ["A", "B"], "guard": ")" +
                              guard + R"(" }] }}],
      "connections": [["ramp.out", "m.u"]]})");
    REQUIRE(run.result.status == RunStatus::kOk);
    CHECK(lines_of(run, "state_event").size() == 1);
    const auto modes = lines_of(run, "mode");
    REQUIRE(modes.size() == 1);
    return modes[0]["tick"].get<std::int64_t>();
  };
  CHECK(first_mode_tick("u >= 1") == 1'000'000'000'000);
  CHECK(first_mode_tick("u > 1") == 1'000'000'000'001);
}

TEST_CASE(
    "the ctde command runs the modal examples, and exits 3 for a modal guard that loops, 2 for a failed "
    "assert") {
  CHECK(run_cli("run " + example_models() + "hard_stop.json --quiet -o " +
                scratch_file("ctde_modal_test", "stop.csv").string())
            .status == 0);
  CHECK(run_cli("run " + example_models() + "thermostat.json --quiet -o " +
                scratch_file("ctde_modal_test", "room.csv").string())
            .status == 0);
  const auto loops = scratch_file("ctde_modal_test", "loops.json");
  std::ofstream(loops) << stop_model(
      R"([{ "path": ["FREE", "IMPACT", "FREE"], "guard": "x >= upper_bnd" }])");
  const CommandResult looped = run_cli("run " + loops.string() + " --quiet");
  CHECK(looped.status == 3);
  CHECK(looped.output.find("still holds after the transition") != std::string::npos);
  nlohmann::ordered_json model = nlohmann::ordered_json::parse(ctde::test::read_example("hard_stop.json"));
  model["actors"][1]["params"]["parameters"]["e"] = 1.25;
  const auto bad = scratch_file("ctde_modal_test", "bad_assert.json");
  std::ofstream(bad) << model.dump();
  const CommandResult failed = run_cli("run " + bad.string() + " --quiet");
  CHECK(failed.status == 2);
  CHECK(failed.output.find("assert \"e <= 1\" fails (e = 1.25)") != std::string::npos);
}
