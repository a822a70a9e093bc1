// The director's run options (domains/ctde/run_options.hpp) as the solver
// wrapper sees them.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "core/error.hpp"
#include "core/param.hpp"
#include "domains/ctde/run_options.hpp"

using ctde::OdeOptions;
using ctde::SolverKind;

TEST_CASE("the model-file solver option accepts rkf45 and lists it among the choices") {
  ctde::ParameterScope scope;
  scope.resolve();
  std::map<std::string, ctde::ParamValue> director{{"stop_time", 1.0}, {"solver", "rkf45"}};
  const ctde::RunOptions run = ctde::make_run_options(director, scope);
  CHECK(run.solver == SolverKind::kRkf45);
  CHECK(std::string(ctde::to_string(SolverKind::kRkf45)) == "rkf45");
  CHECK(ctde::make_ode_options(run).method == SolverKind::kRkf45);
  director.insert_or_assign("solver", "rkf4");
  CHECK_THROWS_WITH_AS((void)ctde::make_run_options(director, scope),
                       doctest::Contains("erk45, erk23, rk4-fixed, dirk, ark-imex, rkf45; got \"rkf4\""),
                       ctde::ModelError);
}

TEST_CASE("run options give the solver options") {
  ctde::RunOptions run;
  run.solver = SolverKind::kErk23;
  run.rtol = 1e-5;
  run.atol = 1e-7;
  run.max_step = 0.5;
  const OdeOptions options = ctde::make_ode_options(run);
  CHECK(options.method == SolverKind::kErk23);
  CHECK(options.rtol == 1e-5);
  CHECK(options.atol == 1e-7);
  CHECK(options.max_step == 0.5);
  CHECK_FALSE(options.initial_step.has_value());
}
