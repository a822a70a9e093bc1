// Conformance (docs/semantics.md): every reader at a tag sees one value, a
// constant is a value present at every tag, and every polymorphic actor
// resolved discrete follows one rule for absent inputs.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/actor_samples.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::events_of;
using ctde::test::run_model;

namespace {

using Events = std::vector<std::pair<double, double>>;

/// `count` counts the ticks of a clock of period 0.5 (1 at t = 0), a
/// sampler triggered by a second clock of the same period reads `source`
/// through `through` unit gains: the value at the sampling tag is
/// whatever the first clock's tick made of it at that same tag.
std::string sampled_model(const std::string& actors, const std::string& connections,
                          const std::string& source, int through) {
  std::string chain;
  std::string links;
  std::string from = source;
  for (int i = 0; i < through; ++i) {
    const std::string name = "unit" + std::to_string(i);
    chain += R"(, {"name": ")" + name + R"(", "type": "Gain", "params": {"k": 1}})";
    links += R"(, [")" + from + R"(", ")" + name + R"(.in"])";
    from = name + ".out";
  }
  return R"({"ctde": 1, "director": {"stop_time": 3},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.5}},
      {"name": "count", "type": "Counter"},
      {"name": "trigger", "type": "DiscreteClock", "params": {"period": 0.5}},
      {"name": "sampler", "type": "Sampler"})" +
         actors + chain + R"(],
    "connections": [["clock.out", "count.in"], ["trigger.out", "sampler.trigger"])" +
         connections + links + R"(, [")" + from + R"(", "sampler.in"]]})";
}

}  // namespace

TEST_CASE("conformance 1: a sampler reads a hold's new value at its tag, directly or through unit gains") {
  const std::string hold = R"(, {"name": "hold", "type": "ZeroOrderHold"})";
  const std::string link = R"(, ["count.out", "hold.in"])";
  Events expected;
  for (int k = 0; k <= 6; ++k) expected.emplace_back(0.5 * k, k + 1);  // the k-th tick makes the count k + 1
  for (int through = 0; through <= 3; ++through) {
    CAPTURE(through);
    const auto run = run_model(sampled_model(hold, link, "hold.out", through));
    REQUIRE(run.result.status == RunStatus::kOk);
    CHECK(events_of(run, "sampler") == expected);
  }
}

TEST_CASE(
    "conformance 1: a sampler reads an integrator's reset value at its tag, directly or through unit gains") {
  // x' = 1, reset to the count at every tick: at t = 0.5 k the reset makes
  // x = k + 1 (just before it, x was k + 0.5).
  const std::string actors = R"(, {"name": "one", "type": "Constant", "params": {"value": 1}},
      {"name": "x", "type": "Integrator"})";
  const std::string links = R"(, ["one.out", "x.in"], ["count.out", "x.reset"])";
  Events expected;
  for (int k = 0; k <= 6; ++k) expected.emplace_back(0.5 * k, k + 1);
  for (int through = 0; through <= 2; ++through) {
    CAPTURE(through);
    const auto run = run_model(sampled_model(actors, links, "x.out", through));
    REQUIRE(run.result.status == RunStatus::kOk);
    const Events got = events_of(run, "sampler");
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      CHECK(got[i].first == expected[i].first);
      CHECK(got[i].second == doctest::Approx(expected[i].second).epsilon(1e-12));
    }
  }
}

namespace {

/// e[k] = r - y[k], y = t sampled every 0.25 s; the reference written as
/// `reference` (actors feeding "err.in0", or nothing when `expr` is set).
std::string pi_error_model(const std::string& reference, const std::string& links, bool expression) {
  const std::string err =
      expression ? R"({"name": "err", "type": "Expression", "params": {"expr": "r - in0", "inputs": 1}})"
                 : R"({"name": "err", "type": "Sum", "params": {"signs": "+-"}})";
  const std::string y_link = expression ? R"(["samp.out", "err.in0"])" : R"(["samp.out", "err.in1"])";
  return R"({"ctde": 1, "parameters": {"r": 2}, "director": {"stop_time": 2},
    "actors": [)" +
         reference +
         R"({"name": "y", "type": "Clock"},
      {"name": "samp", "type": "PeriodicSampler", "params": {"period": 0.25}}, )" +
         err + R"(],
    "connections": [["y.out", "samp.in"], )" +
         links + y_link + "]}";
}

}  // namespace

TEST_CASE("conformance 2: a constant reference is present at every sample (e[k] = r - y[k])") {
  Events expected;
  for (int k = 0; k <= 8; ++k) expected.emplace_back(0.25 * k, 2.0 - 0.25 * k);
  const auto direct =
      run_model(pi_error_model(R"({"name": "ref", "type": "Constant", "params": {"value": "r"}}, )",
                               R"(["ref.out", "err.in0"], )", false));
  REQUIRE(direct.result.status == RunStatus::kOk);
  CHECK(events_of(direct, "err") == expected);
  // The same reference through a unit gain (resolved constant) ...
  const auto gained =
      run_model(pi_error_model(R"({"name": "ref", "type": "Constant", "params": {"value": "r"}},
                        {"name": "unit", "type": "Gain", "params": {"k": 1}}, )",
                               R"(["ref.out", "unit.in"], ["unit.out", "err.in0"], )", false));
  CHECK(events_of(gained, "err") == expected);
  // ... and written as a parameter inside an expression: one answer.
  const auto parameter = run_model(pi_error_model("", "", true));
  CHECK(events_of(parameter, "err") == expected);
}

TEST_CASE("conformance 2: a constant never fires its readers after the start tag") {
  // Constant -> Counter: the reader fires once, at the start tag where the
  // value appears, and never again however long the run.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 10},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 3}},
               {"name": "tick", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "count", "type": "Counter"}, {"name": "hold", "type": "ZeroOrderHold"}],
    "connections": [["c.out", "count.in"], ["c.out", "hold.in"]],
    "record": ["hold.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  CHECK(events_of(run, "count") == Events{{0.0, 1.0}});
  CHECK(run.result.stats.events == 1 + 11);  // the count's one, the clock's eleven
  // The hold took the constant's value at the start.
  for (const auto& row : run.rows) {
    if (row.t > 0) CHECK(row.values[run.column("hold.out")] == 3.0);
  }
}

namespace {

/// The counts of clocks of periods 1, 1.5 and 1 from 0.5 (the first two both
/// at t = 0, then apart: each input is present alone at some tags) into an
/// actor resolved discrete ("d", written by `actor(name, extra)`), and the
/// same actor resolved continuous behind zero-order holds ("c"), sampled at
/// every token of d's `output`. `inputs`: d's inputs, fed by the first
/// clock's count, then the second's, then the third's.
std::string absent_rule_model(const std::function<std::string(const std::string&, const std::string&)>& actor,
                              const std::vector<std::string>& inputs, const std::string& output = "out") {
  std::string actors = R"({"name": "clock_a", "type": "DiscreteClock", "params": {"period": 1}},
      {"name": "clock_b", "type": "DiscreteClock", "params": {"period": 1.5}},
      {"name": "clock_c", "type": "DiscreteClock", "params": {"period": 1, "offsets": [0.5]}},
      {"name": "a", "type": "Counter"}, {"name": "b", "type": "Counter"}, {"name": "c3", "type": "Counter"},
      {"name": "sampler", "type": "Sampler"}, )" +
                       actor("d", "") + ", " + actor("c", R"(, "time_mode": "continuous")");
  std::string links = R"(["clock_a.out", "a.in"], ["clock_b.out", "b.in"], ["clock_c.out", "c3.in"], ["d.)" +
                      output + R"(", "sampler.trigger"], ["c.)" + output + R"(", "sampler.in"])";
  const char* sources[] = {"a", "b", "c3"};
  REQUIRE(inputs.size() <= 3);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& in = inputs[i];
    const std::string hold = std::string("hold_") + sources[i];
    actors += R"(, {"name": ")" + hold + R"(", "type": "ZeroOrderHold"})";
    links += std::string(R"(, [")") + sources[i] + R"(.out", "d.)" + in + R"("], [")" + sources[i] +
             R"(.out", ")" + hold + R"(.in"], [")" + hold + R"(.out", "c.)" + in + R"("])";
  }
  return R"({"ctde": 1, "director": {"stop_time": 6}, "actors": [)" + actors + R"(], "connections": [)" +
         links + "]}";
}

}  // namespace

TEST_CASE(
    "conformance 3: every polymorphic type resolved discrete computes from the latest value of every input") {
  // The rule: a polymorphic actor resolved discrete fires when any input has
  // a token and sends its function of the latest token of every input (an
  // absent input holds its last one), i.e. exactly what it computes resolved
  // continuous behind zero-order holds of the same inputs. Every registered
  // polymorphic type is checked with its sample parameters (ActorInfo), which
  // give two inputs where the number is a parameter
  // (tests/actors/test_builtin_actors.cpp): each present alone at some tags.
  const ActorRegistry& registry = builtin_actors();
  int checked = 0;
  int with_two_inputs = 0;
  for (const auto& entry : registry.entries()) {
    if (registry.make(entry.type, "probe")->declared_mode() != TimeMode::kUnresolved) continue;
    CAPTURE(entry.type);
    CAPTURE(entry.sample_params);
    std::vector<std::string> inputs;
    const auto sample = ctde::test::configured_sample(entry);
    for (const auto& port : sample.actor->inputs()) inputs.push_back(port.name);
    REQUIRE((!inputs.empty() && inputs.size() <= 3));
    const std::string output = sample.actor->outputs().at(0).name;
    const auto actor = [&](const std::string& name, const std::string& extra) {
      return ctde::test::sample_actor_json(entry, name, extra);
    };
    const auto run = run_model(absent_rule_model(actor, inputs, output));
    REQUIRE(run.result.status == RunStatus::kOk);
    const Events discrete = events_of(run, "d", output);
    const Events continuous = events_of(run, "sampler");
    // a at 0..6 (7 ticks), b at 0, 1.5, 3, 4.5, 6: tags 0, 1, 1.5, 2, 3, 4, 4.5, 5, 6; the third
    // at 0.5, 1.5, ..., 5.5 adds 0.5, 2.5, 3.5 and 5.5.
    const std::size_t tags[] = {7, 9, 13};
    CHECK(discrete.size() == tags[inputs.size() - 1]);
    CHECK(discrete == continuous);
    ++checked;
    if (inputs.size() == 2) ++with_two_inputs;
  }
  CHECK(checked >= 1);
  CHECK(with_two_inputs >= 1);
}

TEST_CASE("conformance 3: a discrete Sum with one input absent uses its last token") {
  const auto sum = [](const std::string& name, const std::string& extra) {
    return R"({"name": ")" + name + R"(", "type": "Sum", "params": {"signs": "+-"})" + extra + "}";
  };
  const auto run = run_model(absent_rule_model(sum, {"in0", "in1"}));
  // a counts 1..7 at t = 0..6, b counts 1..5 at t = 0, 1.5, 3, 4.5, 6.
  const Events expected = {{0, 1 - 1}, {1, 2 - 1},   {1.5, 2 - 2}, {2, 3 - 2}, {3, 4 - 3},
                           {4, 5 - 3}, {4.5, 5 - 4}, {5, 6 - 4},   {6, 7 - 5}};
  CHECK(events_of(run, "d") == expected);
}
