// Time-mode resolution (docs/validation.md, "Time-mode resolution": Collimator's two rules).
#include <doctest/doctest.h>

#include "support/model_helpers.hpp"

using namespace ctde;
using ctde::test::add;
using ctde::test::connect;
using ctde::test::validation_error;

namespace {

TimeMode mode_of(const FlatModel& flat, const std::string& path) {
  const auto index = flat.find(path);
  REQUIRE(index);
  return flat[*index].mode;
}

}  // namespace

TEST_CASE("a chain of polymorphic actors after a discrete source is discrete") {
  Model model;
  add(model, {{"DiscreteClock", "clock"}, {"Gain", "g1"}, {"Abs", "g2"}, {"Accumulator", "acc"}});
  connect(model, {{"clock.out", "g1.in"}, {"g1.out", "g2.in"}, {"g2.out", "acc.in"}});
  const FlatModel flat = validate(model);
  CHECK(mode_of(flat, "g1") == TimeMode::kDiscrete);
  CHECK(mode_of(flat, "g2") == TimeMode::kDiscrete);
}

TEST_CASE("rule 1 revisits downstream actors defined before their drivers") {
  Model model;
  add(model, "Gain", "last");  // defined first, resolved last
  add(model, {{"Gain", "middle"}, {"Gain", "first"}, {"DiscreteClock", "clock"}, {"Counter", "count"}});
  connect(model, {{"clock.out", "first.in"},
                  {"first.out", "middle.in"},
                  {"middle.out", "last.in"},
                  {"last.out", "count.in"}});
  const FlatModel flat = validate(model);
  CHECK(mode_of(flat, "first") == TimeMode::kDiscrete);
  CHECK(mode_of(flat, "middle") == TimeMode::kDiscrete);
  CHECK(mode_of(flat, "last") == TimeMode::kDiscrete);
}

TEST_CASE("a chain after a continuous source is continuous by rule 2") {
  Model model;
  add(model, {{"Sine", "wave"}, {"Gain", "g"}, {"Saturation", "sat"}, {"Integrator", "x"}});
  connect(model, {{"wave.out", "g.in"}, {"g.out", "sat.in"}, {"sat.out", "x.in"}});
  const FlatModel flat = validate(model);
  CHECK(mode_of(flat, "g") == TimeMode::kContinuous);
  CHECK(mode_of(flat, "sat") == TimeMode::kContinuous);
}

TEST_CASE("fan-in of two discrete signals is discrete") {
  Model model;
  add(model, "DiscreteClock", "a");
  add(model, "SingleEvent", "b").set_parameter("time", 1.0);
  add(model, {{"Sum", "s"}, {"Counter", "count"}});
  connect(model, {{"a.out", "s.in0"}, {"b.out", "s.in1"}, {"s.out", "count.in"}});
  CHECK(mode_of(validate(model), "s") == TimeMode::kDiscrete);
}

TEST_CASE("fan-in of a discrete and a continuous signal is continuous, and the discrete side is an error") {
  Model model;
  add(model, {{"DiscreteClock", "clock"}, {"Sine", "wave"}, {"Sum", "s"}, {"Integrator", "x"}});
  connect(model, {{"clock.out", "s.in0"}, {"wave.out", "s.in1"}, {"s.out", "x.in"}});
  const std::string message = validation_error(model);
  CHECK(message.find("discrete output 'clock.out' drives continuous input 's.in0'") != std::string::npos);
  CHECK(message.find("'s' is polymorphic and resolved continuous, a \"time_mode\" on it overrides that") !=
        std::string::npos);
}

TEST_CASE("a constant is neutral: constant and discrete fan-in is discrete") {
  Model model;
  add(model, "DiscreteClock", "clock");
  add(model, "Constant", "offset").set_parameter("value", 5.0);
  add(model, {{"Sum", "s"}, {"Counter", "count"}});
  connect(model, {{"clock.out", "s.in0"}, {"offset.out", "s.in1"}, {"s.out", "count.in"}});
  CHECK(mode_of(validate(model), "s") == TimeMode::kDiscrete);
}

TEST_CASE("a polymorphic actor fed only by constants is constant and fits either side") {
  Model model;
  add(model, "Constant", "c").set_parameter("value", 2.0);
  add(model, {{"Gain", "g"}, {"Integrator", "x"}, {"Counter", "count"}});
  connect(model, {{"c.out", "g.in"}, {"g.out", "x.in"}, {"g.out", "count.in"}});
  CHECK(mode_of(validate(model), "g") == TimeMode::kConstant);
}

TEST_CASE("an expression of time is never folded into a constant") {
  Model model;
  add(model, "Constant", "c").set_parameter("value", 2.0);
  auto& e = add(model, "Expression", "e");
  e.set_parameter("expr", "in0 * t");
  add(model, "Integrator", "x");
  connect(model, {{"c.out", "e.in0"}, {"e.out", "x.in"}});
  CHECK(mode_of(validate(model), "e") == TimeMode::kContinuous);
}

TEST_CASE("a time_mode override wins over both rules") {
  Model model;
  add(model, "Sine", "wave");
  add(model, "PeriodicSampler", "sample").set_parameter("period", 0.1);
  auto& g = add(model, "Gain", "g");
  g.set_time_mode(TimeMode::kDiscrete);
  add(model, "Constant", "c").set_parameter("value", 1.0);
  auto& forced = add(model, "Gain", "forced");
  forced.set_time_mode(TimeMode::kContinuous);
  add(model, "Integrator", "x");
  connect(
      model,
      {{"wave.out", "sample.in"}, {"sample.out", "g.in"}, {"c.out", "forced.in"}, {"forced.out", "x.in"}});
  add(model, "Counter", "count");
  model.connect("g.out", "count.in");
  const FlatModel flat = validate(model);
  CHECK(mode_of(flat, "g") == TimeMode::kDiscrete);
  CHECK(mode_of(flat, "forced") == TimeMode::kContinuous);
}

TEST_CASE("a time_mode on an actor with fixed ports is an error") {
  Model model;
  CHECK_THROWS_WITH_AS(add(model, "Integrator", "x").set_time_mode(TimeMode::kDiscrete),
                       doctest::Contains("has a fixed time mode (continuous)"), ModelError);
}

TEST_CASE("a polymorphic loop without a discrete source is continuous") {
  Model model;
  add(model, {{"DiscreteClock", "clock"},
              {"Sum", "s"},
              {"Gain", "g"},
              {"Integrator", "x"},
              {"ZeroOrderHold", "hold"}});
  // s <- hold (continuous) and g; g <- x: all continuous.
  connect(model, {{"clock.out", "hold.in"},
                  {"hold.out", "s.in0"},
                  {"x.out", "g.in"},
                  {"g.out", "s.in1"},
                  {"s.out", "x.in"}});
  const FlatModel flat = validate(model);
  CHECK(mode_of(flat, "s") == TimeMode::kContinuous);
  CHECK(mode_of(flat, "g") == TimeMode::kContinuous);
  CHECK(mode_of(flat, "hold") == TimeMode::kHybrid);
}

TEST_CASE("a discrete loop without a delay is named as a causality loop, not a wrong connection") {
  Model model;
  add(model, {{"DiscreteClock", "clock"}, {"Sum", "add"}, {"Gain", "half"}});
  connect(model, {{"clock.out", "add.in0"}, {"add.out", "half.in"}, {"half.out", "add.in1"}});
  CHECK(validation_error(model) ==
        "causality loop: a zero-delay cycle among discrete actors: add -> half -> add "
        "(break it with a TimeDelay, whose delay 0 means the next microstep)");
}
