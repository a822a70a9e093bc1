// The Jacobian's structure from the model (domains/ctde/continuous_phase_jacobian.cpp;
// docs/semantics.md, "Jacobians"): each actor's local Jacobian composed along
// the connections, its known values exact, and the same matrix by finite
// differences.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;

namespace {

struct Loaded {
  Model model;
  FlatModel flat;
  RunOptions options;
};

Loaded load_model(const std::string& text) {
  Model model = test::load(text);
  FlatModel flat = validate(model);
  RunOptions options = make_run_options(model.director(), model.parameters());
  return {std::move(model), std::move(flat), options};
}

Director::JacobianSummary summary(const std::string& text) {
  const Loaded m = load_model(text);
  const Director director(m.flat, m.options, "test");
  return director.jacobian_summary();
}

std::vector<double> jacobian(const std::string& text, bool finite_differences) {
  const Loaded m = load_model(text);
  Director director(m.flat, m.options, "test");
  return director.jacobian_at_start(finite_differences);
}

/// prefix + i + suffix ("x3.out").
std::string port(const char* prefix, int i, const char* suffix) {
  return ctde::concat({prefix, std::to_string(i), suffix});
}

/// The heat equation's cells as an actor network (as bench/stiff/make_models.py
/// writes it): x_i' = c (x_{i-1} - 2 x_i + x_{i+1}).
std::string heat_network(int n, double c, const std::string& director = R"({"stop_time": 1})") {
  std::string actors;
  std::string connections;
  const auto actor = [&](const std::string& json) {
    if (!actors.empty()) actors += ",\n";
    actors += json;
  };
  const auto connect = [&](const std::string& from, const std::string& to) {
    if (!connections.empty()) connections += ',';
    connections += "[\"";
    connections += from;
    connections += "\", \"";
    connections += to;
    connections += "\"]";
  };
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    actor(R"({"name": "x)" + k + R"(", "type": "Integrator", "params": {"initial": )" +
          std::to_string(0.1 * (i + 1)) + "}}");
    actor(R"({"name": "twice)" + k + R"(", "type": "Gain", "params": {"k": 2}})");
    std::string signs;
    std::vector<std::string> inputs;
    if (i > 0) {
      signs += '+';
      inputs.push_back(port("x", i - 1, ".out"));
    }
    signs += '-';
    inputs.push_back("twice" + k + ".out");
    if (i + 1 < n) {
      signs += '+';
      inputs.push_back(port("x", i + 1, ".out"));
    }
    actor(R"({"name": "sum)" + k + R"(", "type": "Sum", "params": {"signs": ")" + signs + "\"}}");
    actor(R"({"name": "c)" + k + R"(", "type": "Gain", "params": {"k": )" + std::to_string(c) + "}}");
    connect("x" + k + ".out", "twice" + k + ".in");
    for (std::size_t m = 0; m < inputs.size(); ++m) connect(inputs[m], "sum" + k + ".in" + std::to_string(m));
    connect("sum" + k + ".out", "c" + k + ".in");
    connect("c" + k + ".out", "x" + k + ".in");
  }
  return R"({"ctde": 1, "director": )" + director + R"(, "actors": [)" + actors + R"(], "connections": [)" +
         connections + "]}";
}

/// |a - b| <= tol |b| entry by entry (absolute where b is 0).
void check_close(const std::vector<double>& a, const std::vector<double>& b, double tol, double zero_tol) {
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (b[k] == 0) {
      CHECK(std::abs(a[k]) <= zero_tol);
    } else {
      CHECK(std::abs(a[k] - b[k]) <= tol * std::abs(b[k]));
    }
  }
}

}  // namespace

TEST_CASE("the heat chain as a network: tridiagonal, 3 column groups, every row known exactly") {
  const int n = 12;
  const double c = 169.0;
  const auto j = summary(heat_network(n, c));
  CHECK(j.states == 12);
  CHECK(j.nonzeros == 3 * 12 - 2);
  CHECK(j.lower_bandwidth == 1);
  CHECK(j.upper_bandwidth == 1);
  CHECK(j.column_groups == 3);
  CHECK(j.known_rows == 12);
  CHECK(j.linear_solver == "dense");  // 12 states: small

  // The exact Jacobian is c times the second-difference matrix, bit for bit
  // (each entry one product of the Gains' and the Sum's constants).
  const std::vector<double> exact = jacobian(heat_network(n, c), false);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      const double expected = i == k ? -2.0 * c : std::abs(i - k) == 1 ? c : 0.0;
      CHECK(exact[static_cast<std::size_t>(i + k * n)] == expected);
    }
  }
  // Finite differences over the 3 groups agree to 1e-7 relative.
  check_close(jacobian(heat_network(n, c), true), exact, 1e-7, 1e-9 * c);
}

TEST_CASE("block-diagonal StateSpaces: as many column groups as the block size, A's values exactly") {
  // Four independent 3-state systems with dense A: 3 groups.
  std::string actors;
  std::vector<std::vector<double>> a = {{-1, 2, 0.5}, {0.25, -3, 1}, {4, -0.5, -2}};
  for (int b = 0; b < 4; ++b) {
    if (b > 0) actors += ',';
    actors += R"({"name": "s)" + std::to_string(b) +
              R"(", "type": "StateSpace", "params": {"A": [[-1, 2, 0.5], [0.25, -3, 1], [4, -0.5, -2]],
               "B": [[0], [0], [0]], "C": [[1, 0, 0]], "initial": [1, 2, 3]}},
              {"name": "u)" +
              std::to_string(b) + R"(", "type": "Constant", "params": {"value": 0}})";
  }
  std::string connections;
  for (int b = 0; b < 4; ++b) {
    if (b > 0) connections += ',';
    connections += "[\"u" + std::to_string(b) + ".out\", \"s" + std::to_string(b) + ".in\"]";
  }
  const std::string text =
      R"({"ctde": 1, "director": {"stop_time": 1, "subsystems": "joined"}, "actors": [)" + actors +
      R"(], "connections": [)" + connections + "]}";
  const auto j = summary(text);
  CHECK(j.states == 12);
  CHECK(j.nonzeros == 4 * 9);
  CHECK(j.column_groups == 3);
  CHECK(j.known_rows == 12);
  const std::vector<double> exact = jacobian(text, false);
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        CHECK(exact[static_cast<std::size_t>((3 * b + i) + (3 * b + k) * 12)] ==
              a[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)]);
      }
    }
  }
  check_close(jacobian(text, true), exact, 1e-7, 1e-9);
}

TEST_CASE("a derivative reads a state through a chain of five feedthrough actors") {
  // y' = e(s(g3(|g1 x|))) with e(u) = u^2 + sin(u): one entry dy'/dx, unknown
  // (Abs and Expression give no values), the rest of y's row empty.
  const std::string text = R"json({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator", "params": {"initial": -0.7}},
               {"name": "g1", "type": "Gain", "params": {"k": 3}},
               {"name": "a2", "type": "Abs"},
               {"name": "g3", "type": "Gain", "params": {"k": 0.5}},
               {"name": "s4", "type": "Sum", "params": {"signs": "++"}},
               {"name": "e5", "type": "Expression", "params": {"expr": "in0 * in0 + sin(in0)"}},
               {"name": "y", "type": "Integrator"}],
    "connections": [["one.out", "x.in"], ["x.out", "g1.in"], ["g1.out", "a2.in"], ["a2.out", "g3.in"],
                    ["g3.out", "s4.in0"], ["one.out", "s4.in1"], ["s4.out", "e5.in0"], ["e5.out", "y.in"]]})json";
  const auto j = summary(text);
  CHECK(j.states == 2);
  CHECK(j.nonzeros == 3);  // the two diagonals and dy'/dx
  CHECK(j.lower_bandwidth == 1);
  CHECK(j.upper_bandwidth == 0);
  CHECK(j.known_rows == 1);  // x' = 1
  // d/dx of e(0.5 * |3 x| + 1) at x = -0.7: u = 0.5 * 2.1 + 1 = 2.05,
  // du/dx = 0.5 * 3 * sign(3x) = -1.5, de/du = 2u + cos(u).
  const double u = 2.05;
  const double expected = (2 * u + std::cos(u)) * -1.5;
  for (const bool fd : {false, true}) {
    const std::vector<double> jac = jacobian(text, fd);
    CHECK(jac[0] == 0.0);  // dx'/dx
    CHECK(jac[2] == 0.0);  // dx'/dy
    CHECK(jac[3] == 0.0);  // dy'/dy
    CHECK(jac[1] == doctest::Approx(expected).epsilon(1e-7));
  }
}

TEST_CASE("vector ports and matrix gains: the exact Jacobian is the chain rule's, and differences agree") {
  // z' = K y + w, y = C x (StateSpace, 3 states, 2 outputs), K 3x2, w = v
  // (an Integrator of width 3 whose input is constant): J over (x, v, z).
  const std::string text = R"({"ctde": 1, "director": {"stop_time": 1, "subsystems": "joined"},
    "actors": [{"name": "u", "type": "Constant", "params": {"value": 1}},
               {"name": "plant", "type": "StateSpace", "params": {"A": [[-1, 0, 0], [1, -2, 0], [0, 1, -3]],
                  "B": [[1], [0], [0]], "C": [[1, 0, 2], [0, -1, 0]], "initial": [1, 1, 1]}},
               {"name": "k", "type": "Gain", "params": {"k": [[1, 2], [0, 3], [-1, 0]]}},
               {"name": "ones", "type": "Constant", "params": {"value": [1, 1, 1]}},
               {"name": "v", "type": "Integrator", "params": {"initial": [0, 0, 0]}},
               {"name": "add", "type": "Sum", "params": {"signs": "++"}},
               {"name": "z", "type": "Integrator", "params": {"initial": [0, 0, 0]}}],
    "connections": [["u.out", "plant.in"], ["plant.out", "k.in"], ["ones.out", "v.in"], ["k.out", "add.in0"],
                    ["v.out", "add.in1"], ["add.out", "z.in"]]})";
  const auto j = summary(text);
  CHECK(j.states == 9);
  CHECK(j.known_rows == 9);
  const std::vector<double> exact = jacobian(text, false);
  // K C = [[1, -2, 2], [0, -3, 0], [-1, 0, -2]].
  const std::vector<std::vector<double>> kc = {{1, -2, 2}, {0, -3, 0}, {-1, 0, -2}};
  const auto at = [&](int i, int k) { return exact[static_cast<std::size_t>(i + k * 9)]; };
  // The state order is the validate order (by depth): v (0-2), z (3-5), plant (6-8).
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) {
      CHECK(at(3 + i, 6 + k) == kc[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)]);
      CHECK(at(3 + i, k) == (i == k ? 1.0 : 0.0));
      CHECK(at(3 + i, 3 + k) == 0.0);
      CHECK(at(i, 6 + k) == 0.0);
    }
  }
  CHECK(at(7, 6) == 1.0);
  CHECK(at(8, 8) == -3.0);
  check_close(jacobian(text, true), exact, 1e-7, 1e-9);
}

TEST_CASE("ctde validate --json reports the Jacobian's structure and the linear solver auto chooses") {
  const auto path = test::scratch_file("ctde-jacobian-" + std::to_string(::getpid()), "heat40.json");
  {
    std::ofstream out(path);
    out << heat_network(40, 1681.0);
  }
  const test::CommandResult r = test::run_cli("validate --json " + path.string());
  REQUIRE(r.status == 0);
  const auto json = nlohmann::json::parse(r.output);
  const auto& j = json["jacobian"];
  CHECK(j["states"] == 40);
  CHECK(j["nonzeros"] == 118);
  CHECK(j["lower_bandwidth"] == 1);
  CHECK(j["upper_bandwidth"] == 1);
  CHECK(j["column_groups"] == 3);
  CHECK(j["known_rows"] == 40);
  CHECK(j["linear_solver"] == "band");
  CHECK(j["linear_solver_reason"] == "40 states, 118 nonzeros, half-bandwidths 1/1: banded");
}

TEST_CASE("a TransferFunction's exact Jacobian is its canonical form's, and differences agree") {
  // y = (s^2 + 3) / (2 s^3 + 10 s^2 + 12 s + 4) u, u = x (an Integrator of 1),
  // and a second one with equal degrees (a direct term) feeding z.
  const std::string text = R"json({"ctde": 1, "director": {"stop_time": 1, "subsystems": "joined"},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator", "params": {"initial": 0.5}},
               {"name": "tf", "type": "TransferFunction", "params": {"num": [1, 0, 3], "den": [2, 10, 12, 4]}},
               {"name": "lead", "type": "TransferFunction", "params": {"num": [2, 1], "den": [1, 4]}},
               {"name": "z", "type": "Integrator", "params": {"initial": 0}}],
    "connections": [["one.out", "x.in"], ["x.out", "tf.in"], ["tf.out", "lead.in"], ["lead.out", "z.in"]]})json";
  const auto j = summary(text);
  CHECK(j.states == 6);
  CHECK(j.known_rows == 6);
  const std::vector<double> exact = jacobian(text, false);
  check_close(jacobian(text, true), exact, 1e-7, 1e-9);
  // The canonical form of tf (den / 2: a = 5, 6, 2): x3' = u - 5 x3 - 6 x2 - 2 x1.
  CHECK(std::count(exact.begin(), exact.end(), -5.0) == 1);
  CHECK(std::count(exact.begin(), exact.end(), -6.0) == 1);
}

TEST_CASE("PID and Derivative: their exact Jacobians are their equations', and differences agree") {
  // x' = 1; pid on e = x (kp 1.5, ki 3, kd 0.5, tf 0.25): p0' = x, p1' = (x - p1) / 0.25,
  // z' = y = 1.5 x + 3 p0 + 0.5 (x - p1) / 0.25; a PI without feedthrough (ki 7): q0' = x,
  // q1' = 4 (x - q1), v' = 7 q0; der on a vector x2 (tau 0.125): d' = 8 (x2 - d), r' = 8 (x2 - d).
  const std::string text = R"json({"ctde": 1, "director": {"stop_time": 1, "subsystems": "joined"},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator", "params": {"initial": 0.5}},
               {"name": "pid", "type": "PID", "params": {"kp": 1.5, "ki": 3, "kd": 0.5, "tf": 0.25}},
               {"name": "z", "type": "Integrator"},
               {"name": "pi", "type": "PID", "params": {"kp": 0, "ki": 7, "kd": 0, "tf": 0.25}},
               {"name": "v", "type": "Integrator"},
               {"name": "ones", "type": "Constant", "params": {"value": [1, 1]}},
               {"name": "x2", "type": "Integrator", "params": {"initial": [0.5, 0.25]}},
               {"name": "der", "type": "Derivative", "params": {"time_constant": 0.125, "initial": 0.75}},
               {"name": "r", "type": "Integrator", "params": {"initial": [0, 0]}}],
    "connections": [["one.out", "x.in"], ["x.out", "pid.in"], ["pid.out", "z.in"], ["x.out", "pi.in"],
                    ["pi.out", "v.in"], ["ones.out", "x2.in"], ["x2.out", "der.in"], ["der.out", "r.in"]]})json";
  const auto j = summary(text);
  CHECK(j.states == 13);
  CHECK(j.known_rows == 13);
  const std::vector<double> exact = jacobian(text, false);
  const auto count = [&](double v) { return std::count(exact.begin(), exact.end(), v); };
  // Every nonzero of the closed form, once per row it is in (the states' order is validate's).
  CHECK(count(1.0) == 2);   // p0' and q0' on x
  CHECK(count(4.0) == 2);   // p1' and q1' on x
  CHECK(count(-4.0) == 2);  // p1' and q1' on themselves
  CHECK(count(3.5) == 1);   // z' on x: 1.5 + 0.5 / 0.25
  CHECK(count(3.0) == 1);   // z' on p0
  CHECK(count(-2.0) == 1);  // z' on p1
  CHECK(count(7.0) == 1);   // v' on q0
  CHECK(count(8.0) == 4);   // d' and r' on x2, each element
  CHECK(count(-8.0) == 4);  // d' and r' on d, each element
  CHECK(exact.size() - static_cast<std::size_t>(count(0.0)) == 18);
  check_close(jacobian(text, true), exact, 1e-7, 1e-9);
}
