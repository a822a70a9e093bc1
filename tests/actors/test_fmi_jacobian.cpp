// Jacobians from an FMU's directional derivatives (actors/fmi/fmu_partials.cpp,
// domains/ctde/jacobian_program.hpp; docs/semantics.md, "Jacobians"): the
// test FMU `coupled` (x' = y, y' = -k x^3 - y + u x, w = x u + sin(y))
// declares them (FMI 2 and FMI 3), `coupled_fd` is the same binary without
// the declaration. Its input u is fed back from its own output w through an
// Integrator, so that the FMU's values at each point are composed with the
// other actors' along the connections.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/model_file.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

constexpr double kGain = 0.5;  // u = kGain z
constexpr double kK = 2.0;     // the FMU's parameter k

/// a (the FMU) -> neg -> z (Integrator) -> g -> a.u.
std::string coupled_model(const std::string& name, const std::string& solver = "bdf") {
  return fmu_model(name, "", R"("stop_time": 3, "output_interval": 0.1, "solver": ")" + solver + "\"",
                   R"("a.w", "z.out")",
                   R"(, {"name": "neg", "type": "Gain", "params": {"k": -1}},
                      {"name": "z", "type": "Integrator", "params": {"initial": 1}},
                      {"name": "g", "type": "Gain", "params": {"k": 0.5}})",
                   R"(["a.w", "neg.in"], ["neg.out", "z.in"], ["z.out", "g.in"], ["g.out", "a.u"])");
}

/// ∂f/∂x at the start, by state name: J[{row, column}].
std::map<std::pair<std::string, std::string>, double> start_jacobian(const std::string& text,
                                                                     bool finite_differences) {
  Model model = load_model_text(text, "test.json", builtin_actors());
  const FlatModel flat = validate(model);
  Director director(flat, make_run_options(model.director(), model.parameters()), "test");
  const std::vector<std::string> names = director.state_names();
  const std::vector<double> j = director.jacobian_at_start(finite_differences);
  std::map<std::pair<std::string, std::string>, double> by_name;
  for (std::size_t c = 0; c < names.size(); ++c) {
    for (std::size_t r = 0; r < names.size(); ++r) by_name[{names[r], names[c]}] = j[r + c * names.size()];
  }
  return by_name;
}

/// The closed form at x = 1, y = 0, z = 1 (u = kGain z): rows x', y', z' = -w.
std::map<std::pair<std::string, std::string>, double> closed_form_at_start() {
  const double x = 1, y = 0, z = 1, u = kGain * z;
  return {{{"a[0]", "a[0]"}, 0.0},  {{"a[0]", "a[1]"}, 1.0},
          {{"a[0]", "z"}, 0.0},     {{"a[1]", "a[0]"}, -3 * kK * x * x + u},
          {{"a[1]", "a[1]"}, -1.0}, {{"a[1]", "z"}, x * kGain},
          {{"z", "a[0]"}, -u},      {{"z", "a[1]"}, -std::cos(y)},
          {{"z", "z"}, -x * kGain}};
}

/// The rows on the output grid of 0.1 s.
std::vector<Row> grid_rows(const Run& run) {
  std::vector<Row> rows;
  for (const Row& row : run.rows) {
    if (std::fabs(row.t * 10 - std::round(row.t * 10)) < 1e-9) rows.push_back(row);
  }
  return rows;
}

/// The `solver` trace line's reason.
std::string solver_reason(const Run& run) {
  for (const auto& line : run.lines) {
    if (line["kind"] == "solver") return line.value("reason", "");
  }
  return "";
}

}  // namespace

TEST_CASE(
    "an FMU's directional derivatives give its Jacobian rows exactly, composed through its connections") {
  const auto expected = closed_form_at_start();
  for (const std::string name : {"coupled", "coupled3"}) {
    CAPTURE(name);
    const auto exact = start_jacobian(coupled_model(name), false);
    const auto differences = start_jacobian(coupled_model(name), true);
    REQUIRE(exact.size() == expected.size());
    for (const auto& [at, value] : expected) {
      CAPTURE(at.first);
      CAPTURE(at.second);
      CHECK(exact.at(at) == doctest::Approx(value).epsilon(1e-14));
      CHECK(std::fabs(differences.at(at) - value) <= 1e-7 * std::max(1.0, std::fabs(value)));
    }
  }
  // Undeclared, the same binary's rows come from differences alone.
  const auto undeclared = start_jacobian(coupled_model("coupled_fd"), false);
  for (const auto& [at, value] : expected)
    CHECK(std::fabs(undeclared.at(at) - value) <= 1e-7 * std::max(1.0, std::fabs(value)));
}

TEST_CASE(
    "a stiff solver with directional derivatives evaluates f for no Jacobian, and agrees with differences") {
  for (const std::string solver : {"bdf", "dirk"}) {
    CAPTURE(solver);
    const Run exact = run_model(coupled_model("coupled", solver));
    const Run differences = run_model(coupled_model("coupled_fd", solver));
    REQUIRE_MESSAGE(exact.result.status == RunStatus::kOk, exact.result.message);
    REQUIRE_MESSAGE(differences.result.status == RunStatus::kOk, differences.result.message);
    CHECK(solver_reason(exact).find("0 evaluations of f per Jacobian, 3 of 3 rows known") !=
          std::string::npos);
    CHECK(solver_reason(differences).find("0 of 3 rows known") != std::string::npos);
    // On the output grid (the rows at the solvers' own steps differ).
    const std::vector<Row> a = grid_rows(exact);
    const std::vector<Row> b = grid_rows(differences);
    REQUIRE(a.size() >= 31);  // 0, 0.1, ..., 3 (and the start's microstep row)
    REQUIRE(b.size() == a.size());
    for (std::size_t r = 0; r < a.size(); ++r) {
      CAPTURE(a[r].t);
      REQUIRE(b[r].t == a[r].t);
      for (std::size_t c = 0; c < a[r].values.size(); ++c)
        CHECK(a[r].values[c] == doctest::Approx(b[r].values[c]).epsilon(1e-4));
    }
  }
}

TEST_CASE("the strict runtime refuses directional derivatives that FMI forbids") {
  const double seed = 1;
  double out[2] = {0, 0};
  SUBCASE("the values, where allowed: der(y) and w on x at x = 1, u = 0") {
    OneInstance d("coupled", true, false);
    REQUIRE(d.library->look_up_directional_derivative());
    enter_continuous_time(*d.instance);
    const unsigned int unknowns[2] = {3, 6};
    const unsigned int x = 0;
    CHECK(d.instance->f().get_directional_derivative(d.instance->component(), unknowns, 2, &x, 1, &seed,
                                                     out) == fmi2::Status::kOK);
    CHECK(out[0] == -3 * kK);
    CHECK(out[1] == 0.0);
  }
  SUBCASE("in Instantiated") {
    OneInstance d("coupled", true, false);
    REQUIRE(d.library->look_up_directional_derivative());
    const unsigned int unknown = 3, known = 0;
    CHECK(d.instance->f().get_directional_derivative(d.instance->component(), &unknown, 1, &known, 1, &seed,
                                                     out) == fmi2::Status::kError);
    CHECK(d.instance->last_message().find("Instantiated") != std::string::npos);
  }
  SUBCASE("an unknown that is a state, a known that is a parameter") {
    OneInstance d("coupled", true, false);
    REQUIRE(d.library->look_up_directional_derivative());
    enter_continuous_time(*d.instance);
    const unsigned int state = 0, derivative = 1, parameter = 5;
    CHECK(d.instance->f().get_directional_derivative(d.instance->component(), &state, 1, &state, 1, &seed,
                                                     out) == fmi2::Status::kError);
    CHECK(d.instance->last_message().find("neither a state derivative nor an output") != std::string::npos);
    OneInstance e("coupled", true, false);
    REQUIRE(e.library->look_up_directional_derivative());
    enter_continuous_time(*e.instance);
    CHECK(e.instance->f().get_directional_derivative(e.instance->component(), &derivative, 1, &parameter, 1,
                                                     &seed, out) == fmi2::Status::kError);
    CHECK(e.instance->last_message().find("neither a state nor an input") != std::string::npos);
  }
  SUBCASE("an FMU whose description does not declare them") {
    OneInstance d("coupled_fd", true, false);
    REQUIRE(d.library->look_up_directional_derivative());  // the binary has the function
    enter_continuous_time(*d.instance);
    const unsigned int unknown = 3, known = 0;
    CHECK(d.instance->f().get_directional_derivative(d.instance->component(), &unknown, 1, &known, 1, &seed,
                                                     out) == fmi2::Status::kError);
    CHECK(d.instance->last_message().find("does not declare providesDirectionalDerivative") !=
          std::string::npos);
  }
  SUBCASE("ctde's own table: not in Instantiated") {
    OneInstance d("coupled", true, false);
    CHECK_THROWS_WITH_AS(d.instance->expect(FmiCall::kGetDirectionalDerivative),
                         doctest::Contains("fmi2GetDirectionalDerivative in Instantiated"), std::logic_error);
  }
}
