// Linearization (Director::linearize, docs/semantics.md "Linearization"):
// against models whose A, B, C, D are known in closed form.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// Loads `text`, runs it to `at` (when given; else it stays at the start),
/// and linearizes it there.
Director::Linearization linearized(const std::string& text, std::optional<double> at,
                                   const std::vector<std::string>& inputs,
                                   const std::vector<std::string>& outputs) {
  Model model = load(text);
  const RunSetup setup = set_up_run(model, at);
  Director director(setup.flat, setup.options, "m");
  if (at) {
    const RunResult result = director.run();
    REQUIRE_MESSAGE(result.status == RunStatus::kOk, result.message);
  }
  return director.linearize(inputs, outputs);
}

void check_matrix(const std::vector<double>& got, const std::vector<double>& expected, double tolerance) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(got[i] - expected[i]) <= tolerance);
  }
}

/// A pendulum θ'' = -(g / l) sin θ started at rest at `theta0` (an equilibrium at 0 and π).
std::string pendulum(double theta0) {
  return R"({"ctde": 1, "parameters": {"w2": 9.81}, "director": {"stop_time": 1},
    "actors": [{"name": "theta", "type": "Integrator", "params": {"initial": )" +
         format_double(theta0) + R"j(}}, {"name": "omega", "type": "Integrator"},
      {"name": "f", "type": "Expression", "params": {"expr": "-w2 * sin(in0)"}}],
    "connections": [["theta.out", "f.in0"], ["f.out", "omega.in"], ["omega.out", "theta.in"]],
    "record": ["theta.out"]})j";
}

}  // namespace

TEST_CASE("a StateSpace model linearizes to its own A, B, C, D, at the start and after a run") {
  const std::string text = R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "u", "type": "Step", "params": {"time": 1, "after": 1}},
      {"name": "p", "type": "StateSpace", "params": {"A": [[0, 1], [-4, -0.4]], "B": [[0], [1]],
        "C": [[1, 0], [0, 2]], "D": [[0.5], [0]], "initial": [1, 0]}}],
    "connections": [["u.out", "p.in"]], "record": ["p.out"]})";
  for (const std::optional<double> at : {std::optional<double>{}, std::optional<double>{2.0}}) {
    const Director::Linearization lin = linearized(text, at, {"p.in"}, {"p.out"});
    CHECK(lin.time == (at ? 2.0 : 0.0));
    CHECK(lin.states == std::vector<std::string>{"p[0]", "p[1]"});
    CHECK(lin.inputs == std::vector<std::string>{"p.in"});
    CHECK(lin.outputs == std::vector<std::string>{"p.out[0]", "p.out[1]"});
    check_matrix(lin.a, {0, 1, -4, -0.4}, 1e-8);
    check_matrix(lin.b, {0, 1}, 1e-8);
    check_matrix(lin.c, {1, 0, 0, 2}, 1e-8);
    check_matrix(lin.d, {0.5, 0}, 1e-8);
    // -0.2 ± i sqrt(3.96)
    REQUIRE(lin.eigenvalues.size() == 2);
    CHECK(lin.eigenvalues[0].real() == doctest::Approx(-0.2).epsilon(1e-8));
    CHECK(lin.eigenvalues[0].imag() == doctest::Approx(-std::sqrt(3.96)).epsilon(1e-8));
    CHECK(lin.eigenvalues[1].imag() == doctest::Approx(std::sqrt(3.96)).epsilon(1e-8));
  }
}

TEST_CASE("a pendulum linearizes at the bottom to an oscillator and at the top to a saddle") {
  const Director::Linearization bottom = linearized(pendulum(0.0), std::nullopt, {}, {"theta.out"});
  CHECK(bottom.states == std::vector<std::string>{"theta", "omega"});
  check_matrix(bottom.a, {0, 1, -9.81, 0}, 1e-8);
  check_matrix(bottom.c, {1, 0}, 1e-8);
  CHECK(bottom.b.empty());
  CHECK(bottom.d.empty());
  REQUIRE(bottom.eigenvalues.size() == 2);
  CHECK(std::abs(bottom.eigenvalues[0] - std::complex<double>(0, -std::sqrt(9.81))) <= 1e-7);
  CHECK(std::abs(bottom.eigenvalues[1] - std::complex<double>(0, std::sqrt(9.81))) <= 1e-7);
  const Director::Linearization top = linearized(pendulum(M_PI), std::nullopt, {}, {});
  check_matrix(top.a, {0, 1, 9.81, 0}, 1e-8);
  CHECK(std::abs(top.eigenvalues[0] - std::complex<double>(-std::sqrt(9.81), 0)) <= 1e-7);
  CHECK(std::abs(top.eigenvalues[1] - std::complex<double>(std::sqrt(9.81), 0)) <= 1e-7);
}

TEST_CASE("the heat network's A is its tridiagonal matrix c (x[i-1] - 2 x[i] + x[i+1])") {
  constexpr int kCells = 6;
  const double c = (kCells + 1) * (kCells + 1);
  std::string actors = R"({"name": "wall", "type": "Constant", "params": {"value": 0}})";
  std::string wires;
  for (int i = 0; i < kCells; ++i) {
    const std::string n = std::to_string(i);
    const std::string left = i == 0 ? std::string("wall") : concat({"x", std::to_string(i - 1)});
    const std::string right = i == kCells - 1 ? std::string("wall") : concat({"x", std::to_string(i + 1)});
    actors +=
        concat({R"(, {"name": "x)", n, R"(", "type": "Integrator", "params": {"initial": 1}}, {"name": "s)",
                n, R"(", "type": "Sum", "params": {"signs": "+--+"}}, {"name": "g)", n,
                R"(", "type": "Gain", "params": {"k": )", format_double(c), "}}"});
    wires += concat({wires.empty() ? "" : ", ",
                     R"([")",
                     left,
                     R"(.out", "s)",
                     n,
                     R"(.in0"], ["x)",
                     n,
                     R"(.out", "s)",
                     n,
                     R"(.in1"], ["x)",
                     n,
                     R"(.out", "s)",
                     n,
                     R"(.in2"], [")",
                     right,
                     R"(.out", "s)",
                     n,
                     R"(.in3"], ["s)",
                     n,
                     R"(.out", "g)",
                     n,
                     R"(.in"], ["g)",
                     n,
                     R"(.out", "x)",
                     n,
                     R"(.in"])"});
  }
  const std::string text = R"({"ctde": 1, "director": {"stop_time": 0.01}, "actors": [)" + actors +
                           R"(], "connections": [)" + wires + "]}";
  const Director::Linearization lin = linearized(text, 0.01, {}, {});
  REQUIRE(lin.states.size() == kCells);
  std::vector<double> expected(kCells * kCells, 0.0);
  for (int i = 0; i < kCells; ++i) {
    expected[static_cast<std::size_t>(i * kCells + i)] = -2 * c;
    if (i > 0) expected[static_cast<std::size_t>(i * kCells + i - 1)] = c;
    if (i + 1 < kCells) expected[static_cast<std::size_t>(i * kCells + i + 1)] = c;
  }
  check_matrix(lin.a, expected, 1e-6 * c);
  // Its eigenvalues: -4 c sin^2(k pi / (2 (N + 1))), k = 1..N.
  for (int k = 1; k <= kCells; ++k) {
    const double s = std::sin(k * M_PI / (2 * (kCells + 1)));
    const double lambda = -4 * c * s * s;
    CHECK(std::any_of(lin.eigenvalues.begin(), lin.eigenvalues.end(),
                      [&](std::complex<double> e) { return std::abs(e - lambda) <= 1e-6 * c; }));
  }
}

TEST_CASE("a TransferFunction linearizes to a realization of itself: its poles and its gain") {
  // 1 / (s^2 + 3 s + 2): poles -1 and -2; G(s) = C (sI - A)^-1 B + D, G(0) = 1/2.
  const std::string text = R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": 0}},
      {"name": "g", "type": "TransferFunction", "params": {"num": [1], "den": [1, 3, 2]}}],
    "connections": [["u.out", "g.in"]], "record": ["g.out"]})";
  const Director::Linearization lin = linearized(text, std::nullopt, {"g.in"}, {"g.out"});
  REQUIRE(lin.states.size() == 2);
  REQUIRE(lin.eigenvalues.size() == 2);
  CHECK(std::abs(lin.eigenvalues[0] - std::complex<double>(-2, 0)) <= 1e-7);
  CHECK(std::abs(lin.eigenvalues[1] - std::complex<double>(-1, 0)) <= 1e-7);
  // G(s) at s = 1 and s = 0 from the 2x2 realization: (sI - A)^-1 by its adjugate.
  for (const double s : {0.0, 1.0}) {
    const double m00 = s - lin.a[0], m01 = -lin.a[1], m10 = -lin.a[2], m11 = s - lin.a[3];
    const double det = m00 * m11 - m01 * m10;
    const double v0 = (m11 * lin.b[0] - m01 * lin.b[1]) / det;
    const double v1 = (-m10 * lin.b[0] + m00 * lin.b[1]) / det;
    CHECK(lin.c[0] * v0 + lin.c[1] * v1 + lin.d[0] == doctest::Approx(1 / (s * s + 3 * s + 2)).epsilon(1e-8));
  }
}

TEST_CASE("a model with an algebraic loop linearizes with the loop solved: B = 1 / (1 + k)") {
  const std::string text = R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": 1}},
      {"name": "mix", "type": "Sum", "params": {"signs": "+-"}}, {"name": "fb", "type": "Gain", "params": {"k": 3}},
      {"name": "x", "type": "Integrator"}],
    "connections": [["u.out", "mix.in0"], ["mix.out", "fb.in"], ["fb.out", "mix.in1"], ["mix.out", "x.in"]]})";
  const Director::Linearization lin = linearized(text, 0.5, {"mix.in0"}, {"mix.out"});
  check_matrix(lin.a, {0}, 1e-10);
  check_matrix(lin.b, {0.25}, 1e-9);
  check_matrix(lin.c, {0}, 1e-10);
  check_matrix(lin.d, {0.25}, 1e-9);
  CHECK_THROWS_WITH_AS(linearized(text, 0.5, {"fb.in"}, {}),
                       "linearize: input 'fb.in' is driven from inside the algebraic loop mix -> fb -> mix "
                       "(choose an input outside the loop)",
                       ModelError);
}

TEST_CASE("linearize names what it cannot find") {
  CHECK_THROWS_WITH_AS(
      linearized(pendulum(0), std::nullopt, {"nope.in"}, {}),
      "linearize: no actor for input 'nope.in' (name it as actor.port, the actor's full path)", ModelError);
  CHECK_THROWS_WITH_AS(linearized(pendulum(0), std::nullopt, {}, {"theta.in"}),
                       "linearize: actor 'theta' has no output 'in'", ModelError);
}
