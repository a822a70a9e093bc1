// Stiff models through the director (issue 30): bdf and auto with state
// events and resets, event times against closed forms, the same event
// sequence as erk45, and the failures an implicit method can meet, each
// named.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::run_model;

namespace {

struct Transition {
  std::string actor;
  std::string to;
  double t = 0;
};

std::vector<Transition> transitions(const test::Run& run) {
  std::vector<Transition> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "mode") out.push_back({line["actor"], line["to"], line["t"].get<double>()});
  }
  return out;
}

/// Rooms with thermostats (hysteresis between T_low and T_high) and
/// different time constants, beside a fast state that only relaxes
/// (x' = -1e4 (x - 1)): stiff as one system ("joined"), and every
/// switching time has a closed form. Room r: T' = (T_out - T) / tau_r off,
/// (T_heat - T) / tau_r on; it starts at T0 = 20, off.
constexpr double kOut = 5;
constexpr double kHeat = 40;
constexpr double kLow = 18;
constexpr double kHigh = 22;
const std::vector<double> kTau = {2.0, 0.7, 3.5};

std::string rooms_model(const std::string& solver, double rtol = 1e-12, double stop_time = 6) {
  std::string actors = R"j({"name": "fast", "type": "Integrator", "params": {"initial": 0}},
    {"name": "pull", "type": "Expression", "params": {"expr": "-1e4 * (in0 - 1)"}})j";
  for (std::size_t r = 0; r < kTau.size(); ++r) {
    actors += R"j(, {"name": "room)j" + std::to_string(r) + R"j(", "type": "ModalModel", "params": {
      "outputs": {"T": "T"}, "states": {"T": 20},
      "modes": {"OFF": {"der": {"T": "(5 - T) / )j" +
              std::to_string(kTau[r]) + R"j("}},
                "ON": {"der": {"T": "(40 - T) / )j" +
              std::to_string(kTau[r]) + R"j("}}},
      "initial": "OFF",
      "transitions": [{"path": ["OFF", "ON"], "guard": "T <= 18"}, {"path": ["ON", "OFF"], "guard": "T >= 22"}]}})j";
  }
  return R"j({"ctde": 1, "director": {"stop_time": )j" + format_double(stop_time) + R"j(, "rtol": )j" +
         format_double(rtol) + R"j(, "atol": 1e-12, "solver": ")j" + solver +
         R"j(", "subsystems": "joined"}, "actors": [)j" + actors +
         R"j(], "connections": [["fast.out", "pull.in0"], ["pull.out", "fast.in"]]})j";
}

/// Room r's switching times up to `stop`: off from 20 down to T_low, then
/// on up to T_high and off down to T_low, alternately.
std::vector<double> closed_form_switches(double tau, double stop) {
  std::vector<double> times;
  double t = tau * std::log((20 - kOut) / (kLow - kOut));
  const double heat = tau * std::log((kHeat - kLow) / (kHeat - kHigh));
  const double cool = tau * std::log((kHigh - kOut) / (kLow - kOut));
  bool on = false;
  while (t < stop) {
    times.push_back(t);
    on = !on;
    t += on ? heat : cool;
  }
  return times;
}

}  // namespace

// At rtol 1e-12 bdf's switching times drift from the closed form by about
// 1e-10 s per switch of the fastest room (its global error): over 6 s they
// stay within 1e-9 s; erk45, dirk and auto's own within a few 1e-12 s.
TEST_CASE(
    "stiff rooms with thermostats: every switching time to 1e-9 s with bdf, dirk and auto; erk45's "
    "sequence") {
  const test::Run reference = run_model(rooms_model("erk45"));
  REQUIRE(reference.result.status == RunStatus::kOk);
  const std::vector<Transition> expected = transitions(reference);
  for (const char* solver : {"bdf", "dirk", "auto"}) {
    CAPTURE(std::string(solver));
    const test::Run run = run_model(rooms_model(solver));
    REQUIRE(run.result.status == RunStatus::kOk);
    const std::vector<Transition> got = transitions(run);
    REQUIRE(got.size() == expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      CHECK(got[k].actor == expected[k].actor);
      CHECK(got[k].to == expected[k].to);
    }
    for (std::size_t r = 0; r < kTau.size(); ++r) {
      CAPTURE(r);
      const std::vector<double> exact = closed_form_switches(kTau[r], 6);
      std::vector<double> times;
      for (const Transition& tr : got) {
        if (tr.actor == "room" + std::to_string(r)) times.push_back(tr.t);
      }
      REQUIRE(times.size() == exact.size());
      for (std::size_t k = 0; k < times.size(); ++k) CHECK(std::abs(times[k] - exact[k]) <= 1e-9);
    }
  }
}

TEST_CASE(
    "split into independent parts, bdf runs one CVODE per part and gives the joined run's switching times") {
  // The rooms and the fast state share nothing: four parts, each its own
  // integrator, Jacobian and linear solver line in the trace.
  std::string split = rooms_model("bdf");
  split.replace(split.find(R"("subsystems": "joined")"), 22, R"("subsystems": "split")");
  const test::Run joined = run_model(rooms_model("bdf"));
  const test::Run parts = run_model(split);
  REQUIRE(parts.result.status == RunStatus::kOk);
  std::vector<int> part_lines;
  for (const auto& line : parts.lines) {
    if (line["kind"] == "solver") part_lines.push_back(line["part"].get<int>());
  }
  CHECK(part_lines == std::vector<int>{0, 1, 2, 3});
  const std::vector<Transition> a = transitions(joined);
  const std::vector<Transition> b = transitions(parts);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    CHECK(a[k].actor == b[k].actor);
    CHECK(std::abs(a[k].t - b[k].t) <= 1e-9);
  }
}

TEST_CASE("bdf takes far fewer steps than erk45 on the stiff rooms, and the trace says which linear solver") {
  const test::Run erk = run_model(rooms_model("erk45", 1e-6, 12));
  const test::Run bdf = run_model(rooms_model("bdf", 1e-6, 12));
  REQUIRE(erk.result.status == RunStatus::kOk);
  REQUIRE(bdf.result.status == RunStatus::kOk);
  MESSAGE("steps: erk45 " << erk.result.stats.steps << ", bdf " << bdf.result.stats.steps);
  // erk45's steps are held to about 3.3 / 1e4 s by the fast state: 12 s
  // needs over 30000 of them; bdf's follow the rooms.
  CHECK(erk.result.stats.steps > 30000);
  CHECK(bdf.result.stats.steps * 5 < erk.result.stats.steps);
  bool said = false;
  for (const auto& line : bdf.lines) {
    if (line["kind"] != "solver") continue;
    said = true;
    CHECK(line["method"] == "bdf");
    CHECK(line["linear_solver"] == "dense");
    CHECK(line["reason"].get<std::string>().find("linear solver dense (4 states") == 0);
  }
  CHECK(said);
}

TEST_CASE("auto switches to bdf when the problem turns stiff and back when it calms, each switch traced") {
  // x' = -k(t) (x - cos t) - sin t, x(0) = 1: x = cos t whatever k is; k is
  // 1 outside [2, 4] and 1e5 inside (two Steps: time events, where the
  // solver restarts).
  const std::string text =
      R"j({"ctde": 1, "director": {"stop_time": 8, "rtol": 1e-8, "atol": 1e-10, "solver": "auto"},
    "actors": [{"name": "up", "type": "Step", "params": {"time": 2, "before": 1, "after": 100000}},
               {"name": "down", "type": "Step", "params": {"time": 4, "before": 0, "after": -99999}},
               {"name": "k", "type": "Sum", "params": {"signs": "++"}},
               {"name": "f", "type": "Expression", "params": {"expr": "-in0 * (in1 - cos(t)) - sin(t)", "inputs": 2}},
               {"name": "x", "type": "Integrator", "params": {"initial": 1}}],
    "connections": [["up.out", "k.in0"], ["down.out", "k.in1"], ["k.out", "f.in0"], ["x.out", "f.in1"],
                    ["f.out", "x.in"]],
    "record": ["x.out"]})j";
  const test::Run run = run_model(text);
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::pair<std::string, double>> switches;
  for (const auto& line : run.lines) {
    if (line["kind"] == "solver" && line["t"].get<double>() > 0)
      switches.emplace_back(line["method"].get<std::string>(), line["t"].get<double>());
  }
  REQUIRE(switches.size() >= 2);
  CHECK(switches[0].first == "bdf");
  CHECK(switches[0].second > 2.0);
  CHECK(switches[0].second < 2.5);
  CHECK(switches[1].first == "erk45");
  CHECK(switches[1].second > 4.0);
  for (const auto& row : run.rows) CHECK(std::abs(row.values[0] - std::cos(row.t)) <= 1e-7);
}

TEST_CASE("an implicit method's failures end the run with the time, the method and the states") {
  SUBCASE("a Jacobian with a non-finite entry") {
    // f is finite at x = 1 (0), its difference quotient there is not.
    const test::Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 1, "solver": "bdf"},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "1.7e308 * tanh((in0 - 1) * 1e20)"}},
                 {"name": "x", "type": "Integrator", "params": {"initial": 1}}],
      "connections": [["x.out", "f.in0"], ["f.out", "x.in"]]})j");
    REQUIRE(run.result.status == RunStatus::kError);
    CHECK(test::contains(run.result.message, "the Jacobian has a non-finite entry at t = "));
    CHECK(test::contains(run.result.message, "d x' / d x = inf [bdf, linear solver dense]"));
  }
  SUBCASE("a singular Newton matrix") {
    // J = 1e300 [[1, 1], [1, 1]]: I - gamma J rounds to a singular matrix.
    const test::Run run = run_model(R"j({"ctde": 1, "director": {"stop_time": 1, "solver": "bdf"},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "1e300 * (in0 + in1)", "inputs": 2}},
                 {"name": "x", "type": "Integrator", "params": {"initial": 0}},
                 {"name": "y", "type": "Integrator", "params": {"initial": 0}}],
      "connections": [["x.out", "f.in0"], ["y.out", "f.in1"], ["f.out", "x.in"], ["f.out", "y.in"]]})j");
    REQUIRE(run.result.status == RunStatus::kError);
    CHECK(test::contains(run.result.message, "at t=0 s"));
    CHECK(test::contains(run.result.message,
                         "the Newton matrix I - gamma J is singular (a zero pivot in the column of y) [bdf, "
                         "linear solver dense]"));
  }
  SUBCASE("a Newton iteration that does not converge") {
    // A relay: f jumps by 2e6 at x = 0.5, no step above min_step converges.
    const test::Run run =
        run_model(R"j({"ctde": 1, "director": {"stop_time": 1, "solver": "bdf", "min_step": 1e-3},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "-1e6 * (in0 > 0.5 ? 1 : -1)"}},
                 {"name": "x", "type": "Integrator", "params": {"initial": 1}}],
      "connections": [["x.out", "f.in0"], ["f.out", "x.in"]]})j");
    REQUIRE(run.result.status == RunStatus::kError);
    CHECK(test::contains(run.result.message, "CV_CONV_FAILURE"));
    CHECK(test::contains(run.result.message, "the largest weighted local errors of the last step: x ("));
    CHECK(test::contains(run.result.message, "[bdf, linear solver dense]"));
  }
}

namespace {

/// Two RC nodes behind an ideal switch to V = 1 (R0 = R1 = 1, C1 = 1e-4,
/// C2 = 1, a leak R2 = 1 from node 2 to ground: time constants of about
/// 5e-5 s and 0.7 s), the switch set every 0.1 s by a sampled relay on v2
/// (closed while v2 < 0.3), held in between.
std::string rc_model(const std::string& solver) {
  return R"j({"ctde": 1, "name": "rc_switch",
    "director": {"stop_time": 3, "rtol": 1e-10, "atol": 1e-12, "solver": ")j" +
         solver + R"j("},
    "actors": [
      {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.1}},
      {"name": "sample", "type": "Sampler"},
      {"name": "decide", "type": "Expression", "params": {"expr": "in0 < 0.3 ? 1 : 0"}},
      {"name": "hold", "type": "ZeroOrderHold", "params": {"initial": 1}},
      {"name": "i1", "type": "Expression", "params": {"expr": "((in1 - in0) - in2 * (in0 - 1)) / 1e-4", "inputs": 3}},
      {"name": "i2", "type": "Expression", "params": {"expr": "in0 - 2 * in1", "inputs": 2}},
      {"name": "v1", "type": "Integrator", "params": {"initial": 0}},
      {"name": "v2", "type": "Integrator", "params": {"initial": 0}}],
    "connections": [["clock.out", "sample.trigger"], ["v2.out", "sample.in"], ["sample.out", "decide.in0"],
      ["decide.out", "hold.in"], ["v1.out", "i1.in0"], ["v2.out", "i1.in1"], ["hold.out", "i1.in2"],
      ["v1.out", "i2.in0"], ["v2.out", "i2.in1"], ["i1.out", "v1.in"], ["i2.out", "v2.in"]],
    "record": ["v2.out"]})j";
}

/// The circuit's closed form: on [t_k, t_k + 0.1) with the switch s, x' =
/// A_s x + b_s is solved exactly, x(t + h) = e^(A h) (x - x*) + x*, e^(A h)
/// by Sylvester's formula over A's two real eigenvalues. Returns v2 at
/// t_k = 0.1 k and the decisions s_k.
void rc_closed_form(int samples, std::vector<double>& v2, std::vector<int>& decisions) {
  double x1 = 0;
  double x2 = 0;
  for (int k = 0; k < samples; ++k) {
    v2.push_back(x2);
    const int s = x2 < 0.3 ? 1 : 0;
    decisions.push_back(s);
    const double a11 = -(1 + s) / 1e-4;
    const double a12 = 1 / 1e-4;
    const double a21 = 1;
    const double a22 = -2;
    const double b1 = s / 1e-4;
    // x* = -A^-1 b.
    const double det = a11 * a22 - a12 * a21;
    const double s1 = -(a22 * b1) / det;
    const double s2 = (a21 * b1) / det;
    const double tr = a11 + a22;
    const double root = std::sqrt(tr * tr - 4 * det);
    const double l1 = (tr + root) / 2;
    const double l2 = (tr - root) / 2;
    const double h = 0.1;
    const double e1 = std::exp(l1 * h);
    const double e2 = std::exp(l2 * h);
    // e^(Ah) = (e1 (A - l2 I) - e2 (A - l1 I)) / (l1 - l2).
    const double m11 = (e1 * (a11 - l2) - e2 * (a11 - l1)) / (l1 - l2);
    const double m12 = (e1 * a12 - e2 * a12) / (l1 - l2);
    const double m21 = (e1 * a21 - e2 * a21) / (l1 - l2);
    const double m22 = (e1 * (a22 - l2) - e2 * (a22 - l1)) / (l1 - l2);
    const double d1 = x1 - s1;
    const double d2 = x2 - s2;
    x1 = m11 * d1 + m12 * d2 + s1;
    x2 = m21 * d1 + m22 * d2 + s2;
  }
}

}  // namespace

TEST_CASE(
    "an RC network switched by a sampled relay: the relay's decisions and v2 at each sample, closed form") {
  std::vector<double> v2;
  std::vector<int> decisions;
  rc_closed_form(31, v2, decisions);  // t = 0, 0.1, ..., 3 (the stop time included)
  // The relay opens and closes several times in 3 s.
  int changes = 0;
  for (std::size_t k = 1; k < decisions.size(); ++k) changes += decisions[k] != decisions[k - 1] ? 1 : 0;
  REQUIRE(changes >= 4);
  for (const char* solver : {"bdf", "auto", "dirk", "erk45"}) {
    CAPTURE(std::string(solver));
    const test::Run run = run_model(rc_model(solver));
    REQUIRE(run.result.status == RunStatus::kOk);
    const auto sent = test::events_of(run, "decide");
    REQUIRE(sent.size() == decisions.size());
    for (std::size_t k = 0; k < sent.size(); ++k) {
      CHECK(sent[k].first == doctest::Approx(0.1 * static_cast<double>(k)).epsilon(1e-15));
      CHECK(sent[k].second == decisions[k]);
    }
    // v2 on the first row at each sample time (the left side: what was sampled).
    std::size_t k = 0;
    for (const auto& row : run.rows) {
      if (k < v2.size() && row.n == 0 && std::abs(row.t - 0.1 * static_cast<double>(k)) < 1e-12) {
        CHECK(std::abs(row.values[0] - v2[k]) <= 1e-8);
        ++k;
      }
    }
    CHECK(k == v2.size());
  }
}

TEST_CASE(
    "Robertson's kinetics to t = 4e10 with bdf and auto: within 1e-6 of the reference values, mass "
    "conserved") {
  // Reference values (bench/stiff/cvode_klu_floor.cpp says how they were
  // made: scipy's Radau at rtol 1e-13, which continued to t = 1e11 matches
  // the IVP test set's published value there to 5e-13).
  const double reference[3][3] = {
      {9.8517211386099057e-01, 3.3863953789749069e-05, 1.4794022185220397e-02},   // t = 0.4
      {4.9382745209800589e-03, 1.9849940879544517e-08, 9.9506170562909002e-01},   // t = 4e5
      {5.2083451767988950e-08, 2.0833381779253179e-13, 9.9999994791635582e-01}};  // t = 4e10
  const double times[3] = {0.4, 4e5, 4e10};
  for (const char* solver : {"bdf", "auto"}) {
    CAPTURE(std::string(solver));
    const test::Run run = run_model(R"j({"ctde": 1, "name": "robertson",
      "director": {"stop_time": 4e10, "time_resolution": 1e-5, "rtol": 1e-8, "atol": [1e-16, 1e-21, 1e-12],
                   "solver": ")j" + std::string(solver) +
                                    R"j("},
      "actors": [
        {"name": "rober", "type": "ModalModel", "params": {
          "outputs": {"y": ["y1", "y2", "y3"]}, "states": {"y1": 1, "y2": 0, "y3": 0},
          "modes": {"REACT": {"der": {"y1": "-0.04 * y1 + 1e4 * y2 * y3",
                                      "y2": "0.04 * y1 - 1e4 * y2 * y3 - 3e7 * y2 * y2",
                                      "y3": "3e7 * y2 * y2"}}},
          "initial": "REACT"}},
        {"name": "marks", "type": "DiscreteClock", "params": {"period": "inf", "offsets": [0.4, 400000], "values": [1, 2]}}],
      "record": ["rober.y"]})j");
    REQUIRE(run.result.status == RunStatus::kOk);
    for (int k = 0; k < 3; ++k) {
      CAPTURE(k);
      const test::Row* row = nullptr;
      for (const auto& r : run.rows) {
        if (r.t == times[k] && row == nullptr) row = &r;
      }
      REQUIRE(row != nullptr);
      for (int i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(std::abs(row->values[static_cast<std::size_t>(i)] - reference[k][i]) <= 1e-6 * reference[k][i]);
      }
      CHECK(std::abs(row->values[0] + row->values[1] + row->values[2] - 1.0) <= 1e-12);
    }
  }
}

TEST_CASE("every linear solver integrates the heat equation's first mode on its closed form, alike") {
  // x' = A x, A = c tridiag(1, -2, 1), c = (N + 1)²: from its first
  // eigenvector x_i(0) = sin(π (i + 1) / (N + 1)) the solution is that
  // vector times e^(λ t), λ = -4 c sin²(π / (2 (N + 1))) (about -π²), while
  // A's fastest mode, about -4 c, makes it stiff. One StateSpace: its A's
  // zeros are structure, so band and klu factor the tridiagonal and dense
  // the whole matrix (B and D are zeros: the input does nothing).
  constexpr int n = 24;
  const double c = (n + 1.0) * (n + 1.0);
  const double pi = std::acos(-1.0);
  const double lambda = -4 * c * std::pow(std::sin(pi / (2 * (n + 1.0))), 2);
  nlohmann::json a = nlohmann::json::array();
  nlohmann::json identity = nlohmann::json::array();
  nlohmann::json b = nlohmann::json::array();
  nlohmann::json x0 = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    std::vector<double> row(n, 0.0);
    std::vector<double> unit(n, 0.0);
    row[static_cast<std::size_t>(i)] = -2 * c;
    if (i > 0) row[static_cast<std::size_t>(i - 1)] = c;
    if (i + 1 < n) row[static_cast<std::size_t>(i + 1)] = c;
    unit[static_cast<std::size_t>(i)] = 1;
    a.push_back(row);
    identity.push_back(unit);
    b.push_back({0.0});
    x0.push_back(std::sin(pi * (i + 1) / (n + 1.0)));
  }
  std::vector<std::vector<double>> finals;
  for (const char* linear_solver : {"dense", "band", "klu"}) {
    CAPTURE(std::string(linear_solver));
    const nlohmann::json model = {
        {"ctde", 1},
        {"director",
         {{"stop_time", 0.5},
          {"solver", "bdf"},
          {"rtol", 1e-9},
          {"atol", 1e-12},
          {"linear_solver", linear_solver}}},
        {"actors",
         {{{"name", "u"}, {"type", "Constant"}, {"params", {{"value", 0}}}},
          {{"name", "heat"},
           {"type", "StateSpace"},
           {"params", {{"A", a}, {"B", b}, {"C", identity}, {"D", b}, {"initial", x0}}}}}},
        {"connections", nlohmann::json::array({nlohmann::json::array({"u.out", "heat.in"})})},
        {"record", nlohmann::json::array({"heat.out"})}};
    const test::Run run = run_model(model.dump());
    REQUIRE(run.result.status == RunStatus::kOk);
    REQUIRE(!run.rows.empty());
    for (const test::Row& row : run.rows) {
      for (int i = 0; i < n; ++i) {
        const double exact = x0[static_cast<std::size_t>(i)].get<double>() * std::exp(lambda * row.t);
        CHECK(std::abs(row.values[static_cast<std::size_t>(i)] - exact) <= 1e-7);
      }
    }
    CHECK(run.rows.back().t == 0.5);
    finals.push_back(run.rows.back().values);
  }
  for (std::size_t k = 1; k < finals.size(); ++k) {
    for (int i = 0; i < n; ++i)
      CHECK(finals[k][static_cast<std::size_t>(i)] ==
            doctest::Approx(finals[0][static_cast<std::size_t>(i)]).epsilon(1e-9));
  }
}
