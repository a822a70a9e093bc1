// The director's run options (domains/ctde/run_options.hpp) as the solver
// wrapper sees them.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/model_file.hpp"
#include "core/param.hpp"
#include "domains/ctde/run_options.hpp"

using ctde::LinearSolverKind;
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
  CHECK_THROWS_WITH_AS(
      (void)ctde::make_run_options(director, scope),
      doctest::Contains("erk45, erk23, rk4-fixed, dirk, ark-imex, rkf45, bdf, auto; got \"rkf4\""),
      ctde::ModelError);
}

TEST_CASE("the solver option names bdf and auto, and linear_solver names the Newton systems' solver") {
  ctde::ParameterScope scope;
  scope.resolve();
  for (const auto& [name, kind] :
       {std::pair{"bdf", SolverKind::kBdf}, std::pair{"auto", SolverKind::kAuto}}) {
    const ctde::RunOptions run = ctde::make_run_options({{"stop_time", 1.0}, {"solver", name}}, scope);
    CHECK(run.solver == kind);
    CHECK(std::string(ctde::to_string(kind)) == name);
  }
  for (const auto& [name, kind] :
       {std::pair{"auto", LinearSolverKind::kAuto}, std::pair{"dense", LinearSolverKind::kDense},
        std::pair{"band", LinearSolverKind::kBand}, std::pair{"klu", LinearSolverKind::kKlu},
        std::pair{"gmres", LinearSolverKind::kGmres}}) {
    const ctde::RunOptions run = ctde::make_run_options({{"stop_time", 1.0}, {"linear_solver", name}}, scope);
    CHECK(run.linear_solver == kind);
    CHECK(ctde::make_ode_options(run).linear_solver == kind);
    CHECK(std::string(ctde::to_string(kind)) == name);
  }
  CHECK(ctde::make_run_options({{"stop_time", 1.0}}, scope).linear_solver == LinearSolverKind::kAuto);
  CHECK_THROWS_WITH_AS(
      (void)ctde::make_run_options({{"stop_time", 1.0}, {"linear_solver", "lu"}}, scope),
      "director option 'linear_solver' must be one of auto, dense, band, klu, gmres; got \"lu\"",
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

TEST_CASE("the run options read every director option the model format lists, and no other") {
  // A value no option takes ("no such thing" is not a number, a solver or a
  // mode): an option the reader reads is refused, naming it. The reader
  // refuses to read an unlisted key itself (a std::logic_error), so the two
  // lists cannot drift apart.
  ctde::ParameterScope scope;
  scope.resolve();
  for (const std::string& key : ctde::director_keys()) {
    CAPTURE(key);
    std::map<std::string, ctde::ParamValue> director = {{"stop_time", 1.0}};
    director.insert_or_assign(key, std::string("no such thing"));
    try {
      (void)ctde::make_run_options(director, scope);
      FAIL("the option's value was not read");
    } catch (const ctde::ModelError& e) {
      CHECK(std::string(e.what()).find(key) != std::string::npos);
    }
  }
}
