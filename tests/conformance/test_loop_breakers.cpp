// Conformance (docs/semantics.md, "Loops through a delay of one sample"): a
// discrete loop closed through an actor without direct feedthrough (a
// UnitDelay, a strictly proper DiscreteTransferFunction, a DiscreteStateSpace
// with D = 0) is no causality loop: it runs as a sampled system, each sample
// once, y[k] = u + a z[k] with z[k] the delay's output from its state.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::events_of;
using ctde::test::run_model;
using ctde::test::run_setup_error;

namespace {

/// clock (u = 1 at t = 0, 1, ..., 4) -> add.in0; add -> delay -> fb (k = a) -> add.in1.
std::string loop_model(const std::string& delay, double a) {
  return R"({"ctde": 1, "director": {"stop_time": 4},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
      {"name": "add", "type": "Sum"},
      )" +
         delay +
         R"(,
      {"name": "fb", "type": "Gain", "params": {"k": )" +
         std::to_string(a) + R"(}}],
    "connections": [["clock.out", "add.in0"], ["add.out", "delay.in"], ["delay.out", "fb.in"],
                    ["fb.out", "add.in1"]]})";
}

/// Checks that `add` sent exactly `expected` (one token per sample, at t = 0, 1, ...).
void check_samples(const std::string& model, const std::vector<double>& expected) {
  const auto run = run_model(model);
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const std::vector<std::pair<double, double>> sent = events_of(run, "add");
  REQUIRE(sent.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    CAPTURE(k);
    CHECK(sent[k].first == static_cast<double>(k));
    CHECK(sent[k].second == doctest::Approx(expected[k]).epsilon(1e-15));
  }
}

const char* const kLoopMessage =
    "causality loop: a zero-delay cycle among discrete actors: add -> delay -> fb -> add (break it with a "
    "TimeDelay, whose delay 0 means the next microstep)";

}  // namespace

TEST_CASE("a loop through a UnitDelay runs: y[k] = u + a y[k-1], y[-1] = initial") {
  const double a = 0.5;
  const double initial = 2.0;
  std::vector<double> y;
  double previous = initial;
  for (int k = 0; k < 5; ++k) {
    previous = 1.0 + a * previous;
    y.push_back(previous);
  }
  // 2, 2, 2, ... would hide a missed sample: initial 2 and a = 0.5 give 2 at once; take initial 0 too.
  check_samples(loop_model(R"({"name": "delay", "type": "UnitDelay", "params": {"initial": 2}})", a), y);
  check_samples(loop_model(R"({"name": "delay", "type": "UnitDelay"})", a), {1.0, 1.5, 1.75, 1.875, 1.9375});
}

TEST_CASE(
    "a loop through a strictly proper DiscreteTransferFunction runs; one with num's degree = den's is a "
    "loop") {
  // H(z) = 1 / (z - 0.5): w[k] = y[k-1] + 0.5 w[k-1], w[0] = 0; y[k] = 1 + 0.8 w[k].
  const double a = 0.8;
  std::vector<double> y;
  double w = 0.0;
  double last = 0.0;
  for (int k = 0; k < 5; ++k) {
    if (k > 0) w = last + 0.5 * w;
    last = 1.0 + a * w;
    y.push_back(last);
  }
  check_samples(
      loop_model(
          R"({"name": "delay", "type": "DiscreteTransferFunction", "params": {"num": [1], "den": [1, -0.5]}})",
          a),
      y);
  // A leading zero in num is strictly proper too, decided once the parameters are evaluated.
  const std::string with_b0 = R"({"name": "delay", "type": "DiscreteTransferFunction",
      "params": {"num": ["b0", 1], "den": [1, -0.5]}})";
  std::string model = loop_model(with_b0, a);
  model.insert(model.find("\"director\""), R"("parameters": {"b0": 0}, )");
  check_samples(model, y);
  model.replace(model.find("\"b0\": 0"), 7, "\"b0\": 1");
  CHECK(run_setup_error(model) == std::string("test.json at /actors/1: ") + kLoopMessage);
}

TEST_CASE("a loop through a DiscreteStateSpace with D = 0 runs; with D != 0 it is a loop") {
  // x[k+1] = 0.5 x[k] + y[k], z[k] = 2 x[k], x[0] = 1; y[k] = 1 + 0.25 z[k].
  const double a = 0.25;
  std::vector<double> y;
  double x = 1.0;
  for (int k = 0; k < 5; ++k) {
    const double out = 1.0 + a * 2.0 * x;
    y.push_back(out);
    x = 0.5 * x + out;
  }
  const char* const kSystem = R"({"name": "delay", "type": "DiscreteStateSpace",
      "params": {"A": [[0.5]], "B": [[1]], "C": [[2]], "D": [[0]], "initial": [1]}})";
  check_samples(loop_model(kSystem, a), y);
  std::string feedthrough = kSystem;
  feedthrough.replace(feedthrough.find("[[0]]"), 5, "[[0.1]]");
  CHECK(run_setup_error(loop_model(feedthrough, a)) ==
        std::string("test.json at /actors/1: ") + kLoopMessage);
}

TEST_CASE("a UnitDelay outside a loop still sends at each token the one before it") {
  // clock -> Accumulator (1, 2, 3 at t = 0, 1, 2) -> z.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "sum", "type": "Accumulator"},
               {"name": "z", "type": "UnitDelay", "params": {"initial": 7}}],
    "connections": [["clock.out", "sum.in"], ["sum.out", "z.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "sum") == std::vector<std::pair<double, double>>{{0, 1}, {1, 2}, {2, 3}});
  CHECK(events_of(run, "z") == std::vector<std::pair<double, double>>{{0, 7}, {1, 1}, {2, 2}});
}

TEST_CASE("a loop through a forward-Euler DiscreteIntegrator runs; backward Euler is a loop") {
  // I[k] = I[k-1] + g y[k-1] (h = 1), I[0] = 0.5; y[k] = 1 + a I[k].
  const double a = -0.5;
  const double g = 0.75;
  std::vector<double> y;
  double integral = 0.5;
  for (int k = 0; k < 5; ++k) {
    if (k > 0) integral += g * y.back();
    y.push_back(1.0 + a * integral);
  }
  const std::string forward = R"({"name": "delay", "type": "DiscreteIntegrator",
      "params": {"gain": 0.75, "initial": 0.5}})";
  check_samples(loop_model(forward, a), y);
  // DiscretePID's integral alone (kp = kd = 0; its ki scales the integral from `initial`, so both start
  // at 0) is the same loop, sample for sample
  const auto pid = run_model(
      loop_model(R"({"name": "delay", "type": "DiscretePID", "params": {"kp": 0, "ki": 0.75}})", a));
  REQUIRE_MESSAGE(pid.result.status == RunStatus::kOk, pid.result.message);
  const auto integrator = run_model(
      loop_model(R"({"name": "delay", "type": "DiscreteIntegrator", "params": {"gain": 0.75}})", a));
  REQUIRE(events_of(pid, "add").size() == 5);
  CHECK(events_of(pid, "add") == events_of(integrator, "add"));
  std::string backward = forward;
  backward.insert(backward.find("\"initial\""), R"("method": "backward_euler", )");
  CHECK(run_setup_error(loop_model(backward, a)) == std::string("test.json at /actors/1: ") + kLoopMessage);
}
