// One named test per validation error, each asserting what the message says.
#include <doctest/doctest.h>

#include "actors/continuous/integrator.hpp"
#include "actors/math/gain.hpp"
#include "actors/math/sum.hpp"
#include "actors/sources/constant.hpp"
#include "actors/sources/discrete_clock.hpp"
#include "domains/ctde/director.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;
using ctde::test::add;
using ctde::test::connect;
using ctde::test::validation_error;

TEST_CASE("duplicate actor name is rejected with its path") {
  Model model;
  auto& plant = model.add<Composite>("plant");
  plant.add<Gain>("k");
  CHECK_THROWS_WITH_AS(plant.add<Gain>("k"),
                       doctest::Contains("duplicate actor name: 'plant.k' is defined twice"), ModelError);
}

TEST_CASE("unknown actor type suggests the closest name") {
  CHECK_THROWS_WITH_AS((void)builtin_actors().make("Integrater", "x"),
                       doctest::Contains("unknown actor type 'Integrater' for actor 'x' (did you "
                                         "mean 'Integrator'?)"),
                       ModelError);
}

TEST_CASE("unconnected input names actor and port") {
  Model model;
  auto& plant = model.add<Composite>("plant");
  plant.add<Gain>("spring");
  CHECK(validation_error(model) ==
        "unconnected input 'plant.spring.in' of actor 'plant.spring' (Gain): every input needs a driver");
}

TEST_CASE("optional inputs may stay unconnected") {
  Model model;
  model.add<Constant>("c").set_parameter("value", 1.0);
  model.add<Integrator>("x");  // reset and impulse left open
  model.connect("c.out", "x.in");
  CHECK(validation_error(model).empty());
}

TEST_CASE("two drivers on one input name both drivers") {
  Model model;
  model.add<Constant>("a").set_parameter("value", 1.0);
  model.add<Constant>("b").set_parameter("value", 2.0);
  model.add<Integrator>("x");
  connect(model, {{"a.out", "x.in"}, {"b.out", "x.in"}});
  CHECK(validation_error(model).find("input 'x.in' has two drivers: 'a.out' and 'b.out'") !=
        std::string::npos);
}

TEST_CASE("continuous to discrete connection names both ports and the converter") {
  Model model;
  model.add<Constant>("c").set_parameter("value", 1.0);
  model.add<Integrator>("level");
  add(model, "Counter", "arrivals");
  connect(model, {{"c.out", "level.in"}, {"level.out", "arrivals.in"}});
  const std::string message = validation_error(model);
  CHECK(message.find("continuous output 'level.out' drives discrete input 'arrivals.in'") !=
        std::string::npos);
  CHECK(message.find("PeriodicSampler or Sampler") != std::string::npos);
}

TEST_CASE("discrete to continuous connection suggests a hold") {
  Model model;
  model.add<DiscreteClock>("clock");
  model.add<Integrator>("x");
  model.connect("clock.out", "x.in");
  const std::string message = validation_error(model);
  CHECK(message.find("discrete output 'clock.out' drives continuous input 'x.in'") != std::string::npos);
  CHECK(message.find("ZeroOrderHold or FirstOrderHold") != std::string::npos);
}

TEST_CASE("width mismatch names both ports and widths") {
  Model model;
  model.add<Constant>("c").set_parameter("value", std::vector<double>{1, 2, 3});
  model.add<Integrator>("x").set_parameter("initial", std::vector<double>{0, 0});
  model.connect("c.out", "x.in");
  CHECK(validation_error(model) == "width mismatch: output 'c.out' has width 3 but input 'x.in' has width 2");
}

TEST_CASE("width mismatch between inputs of one actor names both inputs") {
  Model model;
  model.add<Constant>("a").set_parameter("value", std::vector<double>{1, 2});
  model.add<Constant>("b").set_parameter("value", std::vector<double>{1, 2, 3});
  model.add<Sum>("s");
  model.add<Integrator>("x").set_parameter("initial", std::vector<double>{0, 0});
  connect(model, {{"a.out", "s.in0"}, {"b.out", "s.in1"}, {"s.out", "x.in"}});
  CHECK(validation_error(model).find("width mismatch in actor 's' (Sum): input 'in0' has width 2 but "
                                     "input 'in1' has width 3") != std::string::npos);
}

TEST_CASE("a matrix Gain fixes both widths") {
  Model model;
  model.add<Constant>("u").set_parameter("value", std::vector<double>{1, 2, 3});
  model.add<Gain>("g").set_parameter(
      "k", std::vector<ParamValue>{std::vector<double>{1, 0, 0}, std::vector<double>{0, 1, 0}});
  model.add<Integrator>("x").set_parameter("initial", std::vector<double>{0, 0});
  connect(model, {{"u.out", "g.in"}, {"g.out", "x.in"}});
  const FlatModel flat = validate(model);
  CHECK(flat.actors[1].input_widths[0] == 3);
  CHECK(flat.actors[1].output_widths[0] == 2);
}

TEST_CASE("algebraic loop lists the actors on the cycle") {
  Model model;
  model.add<Constant>("r").set_parameter("value", 1.0);
  auto& sum = model.add<Sum>("error");
  sum.set_parameter("signs", "+-");
  model.add<Gain>("controller");
  model.add<Gain>("plant");
  model.add<Integrator>("x");
  connect(model, {{"r.out", "error.in0"},
                  {"error.out", "controller.in"},
                  {"controller.out", "plant.in"},
                  {"plant.out", "error.in1"},
                  {"plant.out", "x.in"}});
  const FlatModel flat = validate(model);
  REQUIRE(flat.algebraic_loops.size() == 1);
  const AlgebraicLoop& loop = flat.algebraic_loops[0];
  CHECK(loop.cycle == "error -> controller -> plant -> error");
  // One tear breaks a ring of three; the others come before it, each after its driver.
  REQUIRE(loop.tears == 1);
  std::vector<std::string> order;
  for (const FlatIndex a : loop.order) order.push_back(flat[a].path);
  CHECK(order == std::vector<std::string>{"controller", "plant", "error"});
  // Refused with director option algebraic_loops "error", naming the cycle.
  RunOptions options;
  options.stop_time = 1;
  options.algebraic_loops = AlgebraicLoops::kError;
  CHECK_THROWS_WITH_AS(
      Director(flat, options, "m"),
      "algebraic loop among direct-feedthrough continuous actors: error -> controller -> plant "
      "-> error (break it with a state, e.g. an Integrator, or a delay)",
      ModelError);
}

TEST_CASE("an Integrator breaks the loop") {
  Model model;
  model.add<Gain>("k").set_parameter("k", -1.0);
  model.add<Integrator>("x").set_parameter("initial", 1.0);
  connect(model, {{"x.out", "k.in"}, {"k.out", "x.in"}});
  const FlatModel flat = validate(model);
  // x has no feedthrough: it is evaluated first, then the gain.
  REQUIRE(flat.continuous_schedule.size() == 2);
  CHECK(flat[flat.continuous_schedule[0]].path == "x");
  CHECK(flat[flat.continuous_schedule[1]].path == "k");
}

TEST_CASE("causality loop among discrete actors lists the cycle") {
  Model model;
  auto& merge = add(model, "Merge", "merge");
  (void)merge;
  add(model, {{"DiscreteClock", "clock"}, {"Accumulator", "acc"}});
  connect(model, {{"clock.out", "merge.in0"}, {"merge.out", "acc.in"}, {"acc.out", "merge.in1"}});
  CHECK(validation_error(model).find("causality loop: a zero-delay cycle among discrete actors: "
                                     "merge -> acc -> merge") != std::string::npos);
}

TEST_CASE("a TimeDelay breaks a causality loop") {
  Model model;
  add(model, {{"DiscreteClock", "clock"}, {"Merge", "merge"}, {"TimeDelay", "delay"}});
  connect(model, {{"clock.out", "merge.in0"}, {"merge.out", "delay.in"}, {"delay.out", "merge.in1"}});
  CHECK(validation_error(model).empty());
}

TEST_CASE("bad parameter expression names actor and parameter") {
  Model model;
  model.parameters().set("m", 2.0);
  auto& plant = model.add<Composite>("plant");
  plant.add<Gain>("spring").set_parameter("k", "1 / (m +");
  CHECK(validation_error(model).find("actor 'plant.spring' (Gain), parameter 'k': bad expression "
                                     "\"1 / (m +\"") != std::string::npos);
}

TEST_CASE("undefined parameter in an expression is named") {
  Model model;
  auto& plant = model.add<Composite>("plant");
  plant.add<Gain>("spring").set_parameter("k", "-stiffness");
  CHECK(validation_error(model) ==
        "actor 'plant.spring' (Gain), parameter 'k': 'stiffness' in expression \"-stiffness\" is not "
        "a defined parameter");
}

TEST_CASE("unknown parameter lists the known ones") {
  Model model;
  CHECK_THROWS_WITH_AS(model.add<Gain>("g").set_parameter("gain", 2.0),
                       "actor 'g' (Gain) has no parameter 'gain' (its parameters: k)", ModelError);
}

TEST_CASE("required parameter missing is named") {
  Model model;
  add(model, {{"PeriodicSampler", "sampler"}, {"Clock", "clock"}});
  model.connect("clock.out", "sampler.in");
  CHECK(validation_error(model) ==
        "actor 'sampler' (PeriodicSampler): required parameter 'period' is not set");
}

TEST_CASE("unknown port lists the ports of the actor") {
  Model model;
  model.add<Constant>("c").set_parameter("value", 1.0);
  model.add<Integrator>("x");
  model.connect("c.out", "x.input");
  CHECK(validation_error(model) ==
        "connection 'c.out' -> 'x.input': actor 'x' (Integrator) has no input 'input' (its inputs: "
        "in, reset, impulse)");
}

TEST_CASE("connection from an input is rejected") {
  Model model;
  model.add<Integrator>("x");
  model.add<Integrator>("y");
  model.connect("x.in", "y.in");
  CHECK(validation_error(model).find("'x.in' is an input; a connection goes from an output to an "
                                     "input") != std::string::npos);
}

TEST_CASE("parameter check of an actor names it") {
  Model model;
  model.add<Sum>("s").set_parameter("signs", "+*");
  CHECK(validation_error(model) ==
        "actor 's' (Sum), parameter 'signs': must be a non-empty string of '+' and '-', got \"+*\"");
}

TEST_CASE("composite ports connect through to inner actors") {
  Model model;
  model.add<Constant>("force").set_parameter("value", 1.0);
  auto& plant = model.add<Composite>("plant");
  plant.add<Gain>("inv_mass").set_parameter("k", 0.5);
  plant.add<Integrator>("v");
  plant.connect("inv_mass.out", "v.in");
  plant.export_input("F", {"inv_mass.in"});
  plant.export_output("v", "v.out");
  model.add<Gain>("damping");
  connect(model, {{"force.out", "plant.F"}, {"plant.v", "damping.in"}});
  const FlatModel flat = validate(model);
  const auto damping = flat.find("damping");
  const auto v = flat.find("plant.v");
  REQUIRE(damping);
  REQUIRE(v);
  REQUIRE(flat[*damping].drivers[0]);
  CHECK(flat[*damping].drivers[0]->actor == *v);
  CHECK(flat[*damping].mode == TimeMode::kContinuous);
}

TEST_CASE("endpoint reaching inside a composite uses the dotted path") {
  Model model;
  auto& plant = model.add<Composite>("plant");
  plant.add<Integrator>("x");
  model.add<Constant>("c").set_parameter("value", 1.0);
  connect(model, {{"c.out", "plant.x.in"}, {"plant.x.out", "plant.nothing.in"}});
  CHECK(validation_error(model) ==
        "connection 'plant.x.out' -> 'plant.nothing.in': there is no actor 'nothing' in actor "
        "'plant' (Composite)");
}
