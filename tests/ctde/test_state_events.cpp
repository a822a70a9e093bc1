// State events: location, the edge cases of the protocol (docs/semantics.md),
// consistency (chattering, Zeno) and the trace lines they write.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "support/closed_forms.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// One tick of the default resolution, and a little: event times are the
/// first tick at which the (numerical) guard has crossed.
constexpr double kTick = 1.001e-12;

/// The trace's state_event lines.
std::vector<nlohmann::json> state_events(const Run& run) {
  std::vector<nlohmann::json> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event") out.push_back(line);
  }
  return out;
}

/// The times of the state events of `actor`.
std::vector<double> event_times(const Run& run, const std::string& actor) {
  std::vector<double> out;
  for (const auto& line : state_events(run)) {
    if (line["actor"] == actor) out.push_back(line["t"].get<double>());
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The bouncing-ball example with director options and parameters replaced
/// (a null option is removed).
std::string bouncing_ball(const nlohmann::json& director, const nlohmann::json& parameters = {}) {
  nlohmann::json model =
      nlohmann::json::parse(read_file(std::string(CTDE_SOURCE_DIR) + "/examples/models/bouncing_ball.json"));
  for (const auto& [key, value] : director.items()) {
    if (value.is_null()) {
      model["director"].erase(key);
    } else {
      model["director"][key] = value;
    }
  }
  for (const auto& [key, value] : parameters.items()) model["parameters"][key] = value;
  return model.dump();
}

/// t (a Clock, also integrated) crossing `level` (JSON text), and a time
/// event at t = 2 (a DiscreteClock into a Counter), up to t = 3.
Run run_clock_past_level(const std::string& level) {
  return run_model(R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [{"name": "clock", "type": "Clock"},
               {"name": "x", "type": "Integrator"},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": )" +
                   level + R"(}},
               {"name": "tick", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [2]}},
               {"name": "n", "type": "Counter"}],
    "connections": [["clock.out", "level.in"], ["clock.out", "x.in"], ["tick.out", "n.in"]]})");
}

}  // namespace

TEST_CASE("the bouncing ball's impacts match the analytic times to 1e-9 at rtol 1e-10") {
  const Run run = run_model(bouncing_ball({{"rtol", 1e-10}, {"atol", 1e-12}}));
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::vector<double> expected = impact_times(10, 9.81, 0.8, 10);
  const std::vector<double> found = event_times(run, "ground");
  REQUIRE(found.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(found[k] - expected[k]) <= 1e-9 * expected[k]);
  }
  // Never below the floor, and at each impact the velocity reverses by -e.
  const std::size_t h = run.column("h.out");
  const std::size_t v = run.column("v.out");
  for (const Row& row : run.rows) CHECK(row.values[h] >= -1e-9);
  for (std::size_t i = 1; i < run.rows.size(); ++i) {
    const Row& before = run.rows[i - 1];
    const Row& after = run.rows[i];
    if (after.t != before.t || after.values[v] == before.values[v]) continue;
    CHECK(after.values[v] == doctest::Approx(-0.8 * before.values[v]).epsilon(1e-12));
  }
}

TEST_CASE(
    "an elastic ball keeps its energy over long steps, with the event state interpolated or integrated") {
  // e = 1, h0 = 10: impact k at (2k - 1) t1 with speed sqrt(2 g h0) every time.
  // A parabola is integrated exactly, so the steps grow to whole flights, and
  // after an impact the ball sits a tick's fall below the floor, armed at that
  // level; the level must go back to zero when the ball rises past the floor
  // inside a step that holds the whole next flight (no step end between), or
  // each impact lands a tick late and the ball gains speed g * tick per impact.
  const double g = 9.81;
  const double t1 = std::sqrt(2 * 10 / g);
  const double speed = g * t1;
  const long impacts = 200;
  std::vector<std::uint64_t> steps;
  for (const char* mode : {"interpolated", "integrated"}) {
    CAPTURE(mode);
    const Run run = run_model(bouncing_ball({{"rtol", 1e-10},
                                             {"atol", 1e-12},
                                             {"max_step", nullptr},
                                             {"output_interval", nullptr},
                                             {"stop_time", 2 * impacts * t1},
                                             {"event_state", mode}},
                                            {{"e", 1}}));
    REQUIRE(run.result.status == RunStatus::kOk);
    const std::vector<double> found = event_times(run, "ground");
    REQUIRE(found.size() == static_cast<std::size_t>(impacts));
    for (std::size_t k = 0; k < found.size(); ++k) {
      CAPTURE(k);
      CHECK(std::abs(found[k] - static_cast<double>(2 * k + 1) * t1) <= 1e-8);
    }
    std::size_t resets = 0;
    for (const auto& line : run.lines) {
      if (line["kind"] != "reset") continue;
      ++resets;
      CHECK(std::abs(-line["before"][0].get<double>() - speed) <= 2e-10);
    }
    CHECK(resets == found.size());
    steps.push_back(run.result.stats.steps);
  }
  // The integrated state costs one more step per event.
  MESSAGE("steps: interpolated " << steps[0] << ", integrated " << steps[1]);
  CHECK(steps[0] + impacts <= steps[1] + impacts / 10);
}

TEST_CASE(
    "an elastic ball at rtol 1e-6 makes its 1000 impacts: a crossing a few ulps after a step start fires") {
  // Late in this run (t ~ 2700 s, a tick of 1e-12 s is 2 ulps of t) the search
  // put crossings two ticks after the step start, closer than the solver can
  // integrate: the step to them could not move the state, was accepted as
  // crossing-free, and the next step found the same crossing two ticks on,
  // forever. Such a crossing fires where the search found it.
  const double t1 = std::sqrt(2 * 10 / 9.81);
  const Run run = run_model(bouncing_ball({{"rtol", 1e-6},
                                           {"atol", 1e-9},
                                           {"max_step", nullptr},
                                           {"output_interval", nullptr},
                                           {"stop_time", 2000 * t1}},
                                          {{"e", 1}}));
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::vector<double> found = event_times(run, "ground");
  REQUIRE(found.size() == 1000);
  double worst = 0;
  for (std::size_t k = 0; k < found.size(); ++k) {
    worst = std::max(worst, std::abs(found[k] - static_cast<double>(2 * k + 1) * t1));
  }
  MESSAGE("worst impact-time error over 1000 impacts: " << worst << " s");
  CHECK(worst <= 1e-7);
  std::size_t rejects = 0;
  for (const auto& line : run.lines) rejects += line["kind"] == "step_reject" ? 1 : 0;
  CHECK(rejects <= 1100);  // about one per impact
}

TEST_CASE("event_state takes \"interpolated\" or \"integrated\"") {
  CHECK_THROWS_WITH_AS(run_model(bouncing_ball({{"event_state", "exact"}})), doctest::Contains("event_state"),
                       ModelError);
  CHECK_THROWS_WITH_AS(run_model(bouncing_ball({{"event_state", "exact"}})),
                       doctest::Contains("\"interpolated\" or \"integrated\""), ModelError);
}

TEST_CASE("a state event's trace: the rejected step, then the event, the tokens and the reset at one tick") {
  const Run run = run_model(bouncing_ball({{"stop_time", 2}}));
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::string> kinds;
  for (const auto& line : run.lines) kinds.push_back(line["kind"]);
  const auto at = [&](const std::string& kind) {
    return static_cast<std::size_t>(std::find(kinds.begin(), kinds.end(), kind) - kinds.begin());
  };
  REQUIRE(at("state_event") < kinds.size());
  CHECK(at("step_reject") < at("state_event"));
  const auto after = [&](std::size_t from, const std::string& kind) {
    return static_cast<std::size_t>(
        std::find(kinds.begin() + static_cast<std::ptrdiff_t>(from), kinds.end(), kind) - kinds.begin());
  };
  const std::size_t token = after(at("state_event"), "event");
  REQUIRE(token < kinds.size());
  CHECK(run.lines[token]["actor"] == "ground");
  CHECK(token < after(token, "reset"));
  REQUIRE(after(token, "reset") < kinds.size());
  const nlohmann::json& reject = run.lines[at("step_reject")];
  const nlohmann::json& event = run.lines[at("state_event")];
  CHECK(reject["by"] == "ground");
  CHECK(event["actor"] == "ground");
  CHECK(event["guard"] == 0);
  CHECK(event["direction"] == "falling");
  CHECK(event["n"] == 0);
  CHECK(event["rejected_t1"].get<double>() == reject["t1"].get<double>());
  CHECK(event["t"].get<double>() < event["rejected_t1"].get<double>());
  CHECK(event["iterations"].get<int>() > 0);
  // The search ends on a bracket of one tick (event_tolerance is 0 by default),
  // a difference of two times in seconds: one tick give or take their rounding
  // (t is about 1.4 s here: a few 1e-16 s).
  CHECK(event["bracket"].get<double>() <= 1e-12 + 1e-15);
  CHECK(std::abs(event["residual"].get<double>()) <= 1e-9);
  CHECK(run.lines[after(token, "reset")]["tick"] == event["tick"]);
  CHECK(run.lines[token]["tick"] == event["tick"]);
  CHECK(run.lines.back()["state_events"] == 1);
}

TEST_CASE("a crossing exactly at a step end fires once, at that time") {
  // Fixed steps of 0.25 s: the clock is exactly 1 at the end of the fourth.
  const Run run = run_model(R"({"ctde": 1, "name": "exact",
    "director": {"stop_time": 3, "solver": "rk4-fixed", "max_step": 0.25},
    "actors": [{"name": "clock", "type": "Clock"},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 1, "direction": "both"}},
               {"name": "x", "type": "Integrator"}, {"name": "one", "type": "Constant", "params": {"value": 1}}],
    "connections": [["clock.out", "level.in"], ["one.out", "x.in"]], "record": ["level.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 1);  // and none when it leaves 1 at the next step
  CHECK(events[0]["tick"] == 1'000'000'000'000);
  CHECK(events[0]["residual"] == 0.0);
  CHECK(events[0]["direction"] == "rising");
}

TEST_CASE("a guard at zero at the start of a step fires nothing when it leaves zero") {
  const Run run = run_model(R"({"ctde": 1, "name": "start",
    "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "Clock"},
               {"name": "zero", "type": "ZeroCrossingDetector", "params": {"direction": "both"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["clock.out", "zero.in"], ["clock.out", "x.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(state_events(run).empty());
}

TEST_CASE("a tangent touch is no event; a shallow crossing nearby gives two exact events") {
  // -(t-c)^2 touches zero at t = c; 0.01 - (t-c)^2 crosses at c -+ 0.1. (A step
  // that ends exactly on the touch would fire it: reaching zero is a crossing.)
  const Run run = run_model(R"({"ctde": 1, "name": "touch",
    "director": {"stop_time": 2, "max_step": 0.05},
    "actors": [{"name": "clock", "type": "Clock"},
               {"name": "touch", "type": "Expression", "params": {"expr": "-(in0 - 1.0123456789)^2"}},
               {"name": "cross", "type": "Expression", "params": {"expr": "0.01 - (in0 - 1.0123456789)^2"}},
               {"name": "touch_detector", "type": "ZeroCrossingDetector"},
               {"name": "cross_detector", "type": "ZeroCrossingDetector"},
               {"name": "x", "type": "Integrator"}],
    "connections": [["clock.out", "touch.in0"], ["clock.out", "cross.in0"], ["clock.out", "x.in"],
                    ["touch.out", "touch_detector.in"], ["cross.out", "cross_detector.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(event_times(run, "touch_detector").empty());
  const std::vector<double> times = event_times(run, "cross_detector");
  REQUIRE(times.size() == 2);
  CHECK(std::abs(times[0] - 0.9123456789) <= kTick);
  CHECK(std::abs(times[1] - 1.1123456789) <= kTick);
}

TEST_CASE("two crossings inside one step: the first one fires first, at its own time") {
  // x' = 1 with a first step of 1 s (exact for a constant slope): both levels in it.
  const Run run = run_model(R"({"ctde": 1, "name": "two",
    "director": {"stop_time": 2, "initial_step": 1, "time_resolution": 1e-12},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "later", "type": "LevelCrossingDetector", "params": {"level": 0.35}},
               {"name": "first", "type": "LevelCrossingDetector", "params": {"level": 0.3}}],
    "connections": [["one.out", "x.in"], ["x.out", "later.in"], ["x.out", "first.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 2);
  CHECK(events[0]["actor"] == "first");
  CHECK(events[0]["rejected_t1"] == 1.0);  // the step [0, 1] held both
  CHECK(events[1]["actor"] == "later");
  CHECK(std::abs(events[0]["t"].get<double>() - 0.3) <= kTick);
  CHECK(std::abs(events[1]["t"].get<double>() - 0.35) <= kTick);
}

TEST_CASE("two generators crossing at the same tick fire at the same tag in depth order") {
  const std::string model = R"({"ctde": 1, "name": "same",
    "director": {"stop_time": 1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "twice", "type": "Gain", "params": {"k": 2}},
               {"name": "a", "type": "LevelCrossingDetector", "params": {"level": 0.5}},
               {"name": "b", "type": "LevelCrossingDetector", "params": {"level": 1}},
               {"name": "na", "type": "Counter"}, {"name": "nb", "type": "Counter"}],
    "connections": [["one.out", "x.in"], ["x.out", "twice.in"], ["x.out", "a.in"], ["twice.out", "b.in"],
                    ["a.out", "na.in"], ["b.out", "nb.in"]]})";
  const Run run = run_model(model);
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 2);
  CHECK(events[0]["tick"] == events[1]["tick"]);
  CHECK(events[0]["n"] == 0);
  CHECK(events[1]["n"] == 0);
  CHECK(events[0]["actor"] == "a");  // "a" is shallower: x feeds it directly
  CHECK(events[1]["actor"] == "b");
  std::vector<std::string> senders;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["tick"] == events[0]["tick"]) senders.push_back(line["actor"]);
  }
  CHECK(senders == std::vector<std::string>{"a", "na", "b", "nb"});  // depth order, one microstep
  CHECK(run_model(model).trace == run.trace);
}

TEST_CASE("a crossing right after a reset is located exactly") {
  // x' = 1; at t = 1 it is reset to 0.95 - 1e-6, so it crosses 0.95 again at t = 1 + 1e-6.
  const Run run = run_model(R"({"ctde": 1, "name": "after_reset",
    "director": {"stop_time": 2},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "kick", "type": "DiscreteClock",
                "params": {"period": "inf", "offsets": [1], "values": [0.949999]}},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 0.95, "direction": "rising"}}],
    "connections": [["one.out", "x.in"], ["kick.out", "x.reset"], ["x.out", "level.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const std::vector<double> times = event_times(run, "level");
  REQUIRE(times.size() == 2);
  CHECK(std::abs(times[0] - 0.95) <= kTick);
  CHECK(std::abs(times[1] - (1 + 1e-6)) <= kTick);
}

TEST_CASE("a crossing at the same time as a time event fires in the same microstep") {
  const Run run = run_clock_past_level("2");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 1);
  nlohmann::json time_event;
  for (const auto& line : run.lines) {
    if (line["kind"] == "time_event" && line["actor"] == "tick") time_event = line;
  }
  REQUIRE(!time_event.is_null());
  CHECK(events[0]["tick"] == 2'000'000'000'000);
  CHECK(events[0]["tick"] == time_event["tick"]);
  CHECK(events[0]["n"] == time_event["n"]);
}

TEST_CASE("a crossing located at the step's end fires with the outputs of that time, not of a search trial") {
  // The level is crossed half a tick before t = 2, where a time event ends the
  // step: the event is at the step's end, and the detector sends the clock's 2.
  const Run run = run_clock_past_level("\"2 - 5e-14\"");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["tick"] == 2'000'000'000'000);
  CHECK(events[0]["rejected_t1"] == 2.0);
  std::vector<double> sent;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "level") sent.push_back(line["value"][0]);
  }
  CHECK(sent == std::vector<double>{2.0});
}

TEST_CASE("a guard driven by a Step input fires at the step's time, the microstep after the jump") {
  const Run run = run_model(R"({"ctde": 1, "name": "stepped",
    "director": {"stop_time": 2},
    "actors": [{"name": "u", "type": "Step", "params": {"time": 1, "before": -1, "after": 1}},
               {"name": "up", "type": "ZeroCrossingDetector", "params": {"direction": "rising"}},
               {"name": "down", "type": "ZeroCrossingDetector", "params": {"direction": "falling"}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["u.out", "up.in"], ["u.out", "down.in"], ["u.out", "x.in"]],
    "record": ["up.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["actor"] == "up");
  CHECK(events[0]["tick"] == 1'000'000'000'000);
  CHECK(events[0]["n"] == 1);  // the Step jumps at (1, 0)
  const std::size_t up = run.column("up.out");
  int tokens = 0;
  for (const Row& row : run.rows) {
    if (!std::isnan(row.values[up])) {
      ++tokens;
      CHECK(row.values[up] == 1.0);  // the input's value at the crossing
    }
  }
  CHECK(tokens == 1);
}

TEST_CASE("events: none checks guards only at step ends, without a search") {
  const Run run = run_model(R"({"ctde": 1, "name": "unlocated",
    "director": {"stop_time": 1, "events": "none", "max_step": 0.3},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 0.5}}],
    "connections": [["one.out", "x.in"], ["x.out", "level.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  const auto events = state_events(run);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["iterations"] == 0);
  CHECK(events[0]["t"].get<double>() >= 0.5);
  CHECK(events[0]["t"].get<double>() <= 0.5 + 0.3);
  CHECK(std::abs(events[0]["t"].get<double>() - events[0]["rejected_t1"].get<double>()) <= 1e-12);
  for (const auto& line : run.lines) CHECK(line["kind"] != "step_reject");
}

TEST_CASE("a guard that re-triggers at once after its event is a chattering error naming the actor") {
  // Each crossing resets x to 1e-15 above zero while x' = -1: it crosses again within a tick.
  const Run run = run_model(R"({"ctde": 1, "name": "chatter",
    "director": {"stop_time": 5},
    "actors": [{"name": "down", "type": "Constant", "params": {"value": -1}},
               {"name": "x", "type": "Integrator", "params": {"initial": 1}},
               {"name": "floor", "type": "ZeroCrossingDetector", "params": {"direction": "falling"}},
               {"name": "lift", "type": "Expression", "params": {"expr": "1e-15 + 0 * in0"}}],
    "connections": [["down.out", "x.in"], ["x.out", "floor.in"], ["floor.out", "lift.in0"],
                    ["lift.out", "x.reset"]]})");
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "floor");
  CHECK(run.result.message.find("chattering") != std::string::npos);
  CHECK(run.result.message.find("floor (ZeroCrossingDetector)") != std::string::npos);
  CHECK(run.result.time == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(run.lines.back()["status"] == "error");
}

TEST_CASE("a bouncing ball run past its accumulation time ends with a Zeno error, never below the floor") {
  // The flights shrink by e = 0.8: they accumulate at t1 (1 + 2 e / (1 - e)) = 9 t1.
  const Run run = run_model(bouncing_ball({{"stop_time", 20}}));
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.actor == "ground");
  CHECK(run.result.message.find("Zeno") != std::string::npos);
  const double accumulation = 9 * std::sqrt(2 * 10 / 9.81);
  CHECK(run.result.time == doctest::Approx(accumulation).epsilon(1e-6));
  const std::size_t h = run.column("h.out");
  for (const Row& row : run.rows) CHECK(row.values[h] >= -1e-9);
  CHECK(run.rows.back().t <= accumulation + 1e-6);
}

namespace {
/// A user-written generator: x' = 1 and two guards on its own state, x - 1
/// (rising) and x - 2 (falling only, so never an event here). Counts what it sees.
class TwoGuards final : public Actor {
 public:
  TwoGuards(std::string name, std::vector<std::pair<double, int>>& seen)
      : Actor(std::move(name), "TwoGuards", TimeMode::kContinuous), seen_(seen) {
    out_ = declare_output("out", PortKind::kContinuous, 1);
  }
  [[nodiscard]] std::size_t state_size() const override { return 1; }
  void evaluate(EvalContext& context) const override { context.output(out_)[0] = context.states()[0]; }
  void derivatives(const ReadContext& /*context*/, std::span<double> dx) const override { dx[0] = 1; }
  [[nodiscard]] std::size_t guard_count() const override { return 2; }
  [[nodiscard]] Crossing guard_direction(std::size_t i) const override {
    return i == 0 ? Crossing::kRising : Crossing::kFalling;
  }
  [[nodiscard]] std::string guard_name(std::size_t i) const override { return i == 0 ? "one" : "two"; }
  void guards(const ReadContext& context, std::span<double> g) const override {
    g[0] = context.states()[0] - 1;
    g[1] = context.states()[0] - 2;
  }
  void fire(FireContext& context) const override {
    for (std::size_t i = 0; i < 2; ++i) {
      if (context.crossing(i) != Crossing::kNone) seen_.emplace_back(context.time(), static_cast<int>(i));
    }
  }

 private:
  OutputPort out_;
  std::vector<std::pair<double, int>>& seen_;
};
}  // namespace

TEST_CASE("a user-written C++ actor is a state-event generator through the same interface") {
  std::vector<std::pair<double, int>> seen;
  Model model("user");
  model.add<TwoGuards>("mine", seen);
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 3;
  std::ostringstream out;
  {
    TraceWriter trace(out);
    Director director(flat, options, "user", &trace);
    CHECK(director.run().status == RunStatus::kOk);
  }
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].second == 0);
  CHECK(std::abs(seen[0].first - 1.0) <= kTick);
  CHECK(out.str().find(R"("actor":"mine","guard":"one","direction":"rising")") != std::string::npos);
}

TEST_CASE("late in a long run, where a tick is a few ulps of t, a crossing one tick away still fires") {
  // An elastic ball (e = 1) for 1400 s: impacts at (2k - 1) t1. Near t = 1300 s
  // a tick (1e-12 s) is about 4 ulps, below what the solver can step.
  const Run run = run_model(
      bouncing_ball({{"stop_time", 1400}, {"rtol", 1e-10}, {"output_interval", nullptr}}, {{"e", 1}}));
  REQUIRE(run.result.status == RunStatus::kOk);
  const double t1 = std::sqrt(2 * 10 / 9.81);
  const std::vector<double> found = event_times(run, "ground");
  REQUIRE(found.size() == static_cast<std::size_t>((1400 / t1 + 1) / 2));
  for (std::size_t k = 0; k < found.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(found[k] - static_cast<double>(2 * k + 1) * t1) <= 1e-9 * found[k]);
  }
}
