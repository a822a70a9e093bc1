// Conformance: an Integrator's scalar `initial` (the default, 0) is broadcast
// to the width of its input, as ZeroOrderHold's is.
#include <doctest/doctest.h>

#include <string>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("an Integrator fed a width-3 input with the default initial integrates each component") {
  // x(t) = t * (1, -2, 3): one state per component, each from 0.
  const Run run = run_model(R"({"ctde": 1, "name": "vector_integrator", "director": {"stop_time": 2},
    "actors": [{"name": "rate", "type": "Constant", "params": {"value": [1, -2, 3]}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["rate.out", "x.in"]],
    "record": ["x.out"]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  REQUIRE(run.columns.size() == 3);
  const Row& last = run.rows.back();
  CHECK(last.t == 2.0);
  CHECK(last.values[0] == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(last.values[1] == doctest::Approx(-4.0).epsilon(1e-12));
  CHECK(last.values[2] == doctest::Approx(6.0).epsilon(1e-12));
}

TEST_CASE("a scalar initial value is broadcast too, and a reset's width must be 1 or the input's") {
  Model model = load(R"({"ctde": 1, "name": "vector_integrator", "director": {"stop_time": 1},
    "actors": [{"name": "rate", "type": "Constant", "params": {"value": [1, 1]}},
               {"name": "x", "type": "Integrator", "params": {"initial": 5}}],
    "connections": [["rate.out", "x.in"]]})");
  const FlatModel flat = validate(model);
  CHECK(flat.actors[1].actor->state_size() == 2);
  CHECK(flat.actors[1].output_widths[0] == 2);

  CHECK(
      model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "rate", "type": "Constant", "params": {"value": [1, 1, 1]}},
               {"name": "zero", "type": "Constant", "params": {"value": [0, 0]}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["rate.out", "x.in"], ["zero.out", "x.reset"]]})")
          .find(
              "actor 'x' (Integrator): input 'reset' has width 2 but input 'in' has width 3; give 1 or 3") !=
      std::string::npos);
}
