// FMI 3.0 clocks of Model Exchange FMUs (actors/fmi/fmi3_clocks.*) on the
// clocked test FMUs of tests/fmi/ (clocked.c, ball.c with its impact clock):
// periodic input clocks ticked by ctde at exact times, triggered input
// clocks driven by tokens with a clocked input, an output clock ticking at
// a state event, the equivalence of a periodic clock and a DiscreteClock,
// and the errors of clocks ctde does not run.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_helpers.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::fmu;
using ctde::test::fmu_model;
using ctde::test::run_model;

namespace {

namespace fs = std::filesystem;

/// One token in the trace: its tag and value.
struct Token {
  std::int64_t tick = 0;
  int n = 0;
  double t = 0;
  double value = 0;
  bool operator==(const Token&) const = default;
};

/// The tokens that `actor` sent on `port` (the trace's `event` lines).
std::vector<Token> tokens(const test::Run& run, const std::string& actor, const std::string& port) {
  std::vector<Token> out;
  for (const auto& line : run.lines) {
    if (line["kind"] != "event" || line["actor"] != actor || line["port"] != port) continue;
    out.push_back({line["tick"].get<std::int64_t>(), line["n"].get<int>(), line["t"].get<double>(),
                   line["value"][0].get<double>()});
  }
  return out;
}

/// `ctde validate` of `model` text, or run_cli's result.
test::CommandResult validate_text(const std::string& name, const std::string& model) {
  const fs::path file = test::scratch_file("ctde_fmi3_clocks_test", name + ".json");
  std::ofstream(file) << model;
  return test::run_cli("validate " + file.string());
}

constexpr std::int64_t kTicksPer100ms = 100000000000;  // 0.1 s at the default resolution, 1e-12 s

}  // namespace

TEST_CASE("a periodic input clock ticks at exactly k * 0.1 s and its clocked output counts the ticks") {
  // tick3: constant clock, intervalDecimal 0.1, shiftDecimal 0.1: t_k = 0.1 k, count k.
  const auto run = run_model(fmu_model("tick3", "", R"("stop_time": 1)", R"("a.count")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<Token> count = tokens(run, "a", "count");
  REQUIRE(count.size() == 10);  // 0.1 ... 1.0: the tick at the stop time is in the run
  for (std::size_t k = 1; k <= count.size(); ++k) {
    CAPTURE(k);
    CHECK(count[k - 1].tick == static_cast<std::int64_t>(k) * kTicksPer100ms);
    CHECK(count[k - 1].value == static_cast<double>(k));
  }
  // The same ticks when the FMU gives the interval and shift (a fixed clock without intervalDecimal).
  const auto asked = run_model(fmu_model("tick_fixed3", "", R"("stop_time": 1)", R"("a.count")"));
  REQUIRE_MESSAGE(asked.result.status == RunStatus::kOk, asked.result.message);
  CHECK(tokens(asked, "a", "count") == count);
}

TEST_CASE("a periodic clock's ticks do not drift over many intervals") {
  const auto run = run_model(fmu_model("tick3", "", R"("stop_time": 100)", ""));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<Token> count = tokens(run, "a", "count");
  REQUIRE(count.size() == 1000);
  CHECK(count.back().tick == 1000 * kTicksPer100ms);
  CHECK(count.back().value == 1000);
}

TEST_CASE("a triggered input clock ticks at each token and the clocked input is read at the tick") {
  // tick on each DiscreteClock token; u is the time of the tick (CurrentTime), y = 2 u.
  const std::string more = R"(, {"name": "c", "type": "DiscreteClock", "params": {"period": 0.1}},
      {"name": "now", "type": "CurrentTime"})";
  const std::string connections = R"(["c.out", "a.tick"], ["c.out", "now.trigger"], ["now.out", "a.u"])";
  const auto run =
      run_model(fmu_model("triggered3", "", R"("stop_time": 0.5)", R"("a.y")", more, connections));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<Token> y = tokens(run, "a", "y");
  const std::vector<Token> count = tokens(run, "a", "count");
  REQUIRE(y.size() == 6);  // 0, 0.1, ..., 0.5
  REQUIRE(count.size() == 6);
  for (std::size_t k = 0; k < y.size(); ++k) {
    CAPTURE(k);
    CHECK(y[k].tick == static_cast<std::int64_t>(k) * kTicksPer100ms);
    CHECK(y[k].value == 2 * y[k].t);
    CHECK(count[k].value == static_cast<double>(k + 1));
  }
}

TEST_CASE("a clocked input keeps its last token until its clock ticks") {
  // u = the time of tokens at 0.05 + 0.1 k, the clock ticks at 0.1 k: y = 2 (0.1 k - 0.05), 0 before any u.
  const std::string more = R"(, {"name": "c", "type": "DiscreteClock", "params": {"period": 0.1}},
      {"name": "c2", "type": "DiscreteClock", "params": {"period": 0.1, "offsets": [0.05]}},
      {"name": "now", "type": "CurrentTime"})";
  const std::string connections = R"(["c.out", "a.tick"], ["c2.out", "now.trigger"], ["now.out", "a.u"])";
  const auto run = run_model(fmu_model("triggered3", "", R"("stop_time": 0.5)", "", more, connections));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<Token> y = tokens(run, "a", "y");
  const std::vector<Token> u = tokens(run, "now", "out");
  REQUIRE(y.size() == 6);
  REQUIRE(u.size() == 5);  // 0.05 ... 0.45
  CHECK(y[0].value == 0);
  for (std::size_t k = 1; k < y.size(); ++k) {
    CAPTURE(k);
    CHECK(y[k].tick == static_cast<std::int64_t>(k) * kTicksPer100ms);
    CHECK(y[k].value == 2 * u[k - 1].value);
    CHECK(std::fabs(y[k].value - 2 * (0.1 * static_cast<double>(k) - 0.05)) < 1e-12);
  }
}

TEST_CASE("a periodic clock and a DiscreteClock driving a triggered clock give identical tokens") {
  // tick0_3 ticks from the start every 0.1 s; triggered3 ticks at a DiscreteClock of period 0.1.
  const auto periodic = run_model(fmu_model("tick0_3", "", R"("stop_time": 2)", ""));
  const std::string more = R"(, {"name": "c", "type": "DiscreteClock", "params": {"period": 0.1}},
      {"name": "zero", "type": "Constant", "params": {"value": [0]}})";
  const auto triggered = run_model(fmu_model("triggered3", "", R"("stop_time": 2)", "", more,
                                             R"(["c.out", "a.tick"], ["zero.out", "a.u"])"));
  REQUIRE_MESSAGE(periodic.result.status == RunStatus::kOk, periodic.result.message);
  REQUIRE_MESSAGE(triggered.result.status == RunStatus::kOk, triggered.result.message);
  const std::vector<Token> a = tokens(periodic, "a", "count");
  CHECK(a.size() == 21);
  CHECK(a == tokens(triggered, "a", "count"));
}

TEST_CASE("an output clock ticks at the FMU's state events and a Counter counts them") {
  const double g = 9.81;
  const double e = 0.7;
  const double stop = 2.4;
  const std::string more = R"(, {"name": "impacts", "type": "Counter"})";
  const auto run = run_model(fmu_model("ball_clock3", "", R"("stop_time": 2.4, "rtol": 1e-10, "atol": 1e-12)",
                                       R"("impacts.out")", more, R"(["a.impact", "impacts.in"])"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  // h0 = 1: t1 = sqrt(2 / g) at speed g t1; each bounce leaves at e times the speed and flies 2 v / g.
  std::vector<double> times;
  std::vector<double> speeds;
  double t = std::sqrt(2 / g);
  double v = g * t;
  while (t < stop) {
    times.push_back(t);
    speeds.push_back(v);
    v *= e;
    t += 2 * v / g;
  }
  const std::vector<Token> ticks = tokens(run, "a", "impact");
  const std::vector<Token> speed = tokens(run, "a", "impact_speed");
  const std::vector<Token> counted = tokens(run, "impacts", "out");
  REQUIRE(ticks.size() == times.size());
  REQUIRE(speed.size() == times.size());
  REQUIRE(counted.size() == times.size());
  CHECK(times.size() >= 6);
  for (std::size_t k = 0; k < times.size(); ++k) {
    CAPTURE(k);
    CHECK(std::fabs(ticks[k].t - times[k]) < 1e-8);
    CHECK(ticks[k].value == 1);
    CHECK(speed[k].tick == ticks[k].tick);
    CHECK(std::fabs(speed[k].value - speeds[k]) < 1e-6);
    CHECK(counted[k].tick == ticks[k].tick);
    CHECK(counted[k].value == static_cast<double>(k + 1));
  }
}

TEST_CASE("validate lists clocks and clocked variables as discrete ports") {
  // A triggered clock and a clocked input are inputs that need drivers, as discrete ports.
  const auto unconnected = validate_text("triggered3", fmu_model("triggered3", "", R"("stop_time": 1)", ""));
  CHECK(unconnected.status == 2);
  CHECK_MESSAGE(unconnected.output.find("unconnected input 'a.tick' of actor 'a' (FMU)") != std::string::npos,
                unconnected.output);
  const std::string more = R"(, {"name": "c", "type": "DiscreteClock", "params": {"period": 0.1}})";
  const auto valid = validate_text(
      "triggered3_driven",
      fmu_model("triggered3", "", R"("stop_time": 1)", "", more, R"(["c.out", "a.tick"], ["c.out", "a.u"])"));
  REQUIRE_MESSAGE(valid.status == 0, valid.output);
  CHECK_MESSAGE(valid.output.find("tick[1]D u[1]D -> count[1]D y[1]D") != std::string::npos, valid.output);
  CHECK_MESSAGE(valid.output.find("0 event indicators, clocks: tick (input, triggered)") != std::string::npos,
                valid.output);
  // A periodic input clock has no port: ctde ticks it.
  const auto periodic = validate_text("tick3", fmu_model("tick3", "", R"("stop_time": 1)", ""));
  REQUIRE_MESSAGE(periodic.status == 0, periodic.output);
  CHECK_MESSAGE(periodic.output.find("- -> count[1]D") != std::string::npos, periodic.output);
  CHECK_MESSAGE(periodic.output.find("clocks: tick (input, constant, interval 0.1 s, shift 0.1 s)") !=
                    std::string::npos,
                periodic.output);
  // An output clock beside continuous outputs.
  const auto ball = validate_text("ball_clock3", fmu_model("ball_clock3", "", R"("stop_time": 1)", ""));
  REQUIRE_MESSAGE(ball.status == 0, ball.output);
  CHECK_MESSAGE(ball.output.find("- -> h[1]C v[1]C impact[1]D impact_speed[1]D") != std::string::npos,
                ball.output);
  CHECK_MESSAGE(ball.output.find("clocks: impact (output, triggered)") != std::string::npos, ball.output);
}

TEST_CASE("a clocked variable naming no clock is a model error naming the variable and the reference") {
  const auto refused =
      validate_text("unknown_clock3", fmu_model("unknown_clock3", "", R"("stop_time": 1)", ""));
  CHECK(refused.status == 2);
  CHECK_MESSAGE(refused.output.find("actor 'a' (FMU), parameter 'file': FMU '" + fmu("unknown_clock3") +
                                    "'") != std::string::npos,
                refused.output);
  CHECK_MESSAGE(refused.output.find("variable 'count' names value reference 99 in its clocks attribute, and "
                                    "no <Clock> has it") != std::string::npos,
                refused.output);
}

TEST_CASE("an aperiodic clock is a model error naming the clock and its kind") {
  const auto refused =
      validate_text("tick_countdown3", fmu_model("tick_countdown3", "", R"("stop_time": 1)", ""));
  CHECK(refused.status == 2);
  CHECK_MESSAGE(
      refused.output.find("clock 'tick': intervalVariability 'countdown' (an aperiodic clock) is not "
                          "supported") != std::string::npos,
      refused.output);
}

TEST_CASE("an FMU with clocks is refused for co-simulation") {
  const auto refused = validate_text(
      "triggered3_cs", fmu_model("triggered3", R"("interface": "co-simulation", "communication_step": 0.1)",
                                 R"("stop_time": 1)", ""));
  CHECK(refused.status == 2);
  CHECK_MESSAGE(refused.output.find("parameter 'interface'") != std::string::npos, refused.output);
  CHECK_MESSAGE(refused.output.find("has clocks ('tick'): ctde runs FMI 3 clocks with Model Exchange only") !=
                    std::string::npos,
                refused.output);
}

TEST_CASE("an FMU whose binary lacks the clock functions its clocks need is refused") {
  const std::string more = R"(, {"name": "c", "type": "DiscreteClock", "params": {"period": 0.1}})";
  const auto refused =
      validate_text("no_set_clock3", fmu_model("no_set_clock3", "", R"("stop_time": 1)", "", more,
                                               R"(["c.out", "a.tick"], ["c.out", "a.u"])"));
  CHECK(refused.status == 2);
  CHECK_MESSAGE(
      refused.output.find("FMU '" + fmu("no_set_clock3") +
                          "': the binary does not export the function fmi3SetClock, which its input "
                          "clocks need") != std::string::npos,
      refused.output);
}
