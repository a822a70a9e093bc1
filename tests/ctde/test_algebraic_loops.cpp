// Algebraic loops solved at every evaluation (docs/semantics.md, "Algebraic
// loops"): against closed forms, against the same models with the loop
// removed by hand, with every solver, split parts, state events, and the
// failures (a loop without a solution, a singular one).

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/fast_paths.hpp"
#include "core/format.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// A model file: `director` options (besides the stop time 4 s and rows
/// every 0.25 s), actors, connections and recorded signals as JSON text.
std::string model(const std::string& director, const std::string& actors, const std::string& connections,
                  const std::string& record) {
  return R"({"ctde": 1, "name": "loops", "director": {"stop_time": 4, "output_interval": 0.25)" + director +
         R"(}, "actors": [)" + actors + R"(], "connections": [)" + connections + R"(], "record": [)" +
         record + "]}";
}

/// y = u - k y (a Sum and a Gain in a ring) driven by u = sin(t) + 2, and
/// x' = y; `record`: the signals recorded.
std::string linear_loop(double k, const std::string& director = "",
                        const std::string& record = R"("u.out", "mix.out", "x.out")") {
  return model(director,
               R"({"name": "u", "type": "Sine", "params": {"frequency": 0.15915494309189535, "bias": 2}},
                  {"name": "mix", "type": "Sum", "params": {"signs": "+-"}},
                  {"name": "fb", "type": "Gain", "params": {"k": )" +
                   std::to_string(k) + R"(}},
                  {"name": "x", "type": "Integrator"})",
               R"(["u.out", "mix.in0"], ["mix.out", "fb.in"], ["fb.out", "mix.in1"], ["mix.out", "x.in"])",
               record);
}

/// The same model with the loop solved by hand: y = u / (1 + k).
std::string linear_by_hand(double k, const std::string& director = "") {
  return model(director,
               R"({"name": "u", "type": "Sine", "params": {"frequency": 0.15915494309189535, "bias": 2}},
                  {"name": "mix", "type": "Gain", "params": {"k": )" +
                   std::to_string(1.0 / (1.0 + k)) + R"(}},
                  {"name": "x", "type": "Integrator"})",
               R"(["u.out", "mix.in"], ["mix.out", "x.in"])", R"("u.out", "mix.out", "x.out")");
}

/// The rows of `run` on the output_interval grid (every 0.25 s): the rows
/// at step ends differ between runs that step differently.
std::vector<Row> grid_rows(const Run& run) {
  std::vector<Row> rows;
  for (const Row& row : run.rows) {
    if (row.t * 4 == std::round(row.t * 4) && (rows.empty() || rows.back().t != row.t)) rows.push_back(row);
  }
  return rows;
}

/// Checks that runs `a` and `b` agree on the output_interval grid (17 rows
/// from 0 to 4 s), every column to `epsilon` (relative).
void check_same_on_grid(const Run& a, const Run& b, double epsilon) {
  REQUIRE_MESSAGE(a.result.status == RunStatus::kOk, a.result.message);
  REQUIRE_MESSAGE(b.result.status == RunStatus::kOk, b.result.message);
  const std::vector<Row> x = grid_rows(a);
  const std::vector<Row> y = grid_rows(b);
  REQUIRE(x.size() == 17);
  REQUIRE(y.size() == 17);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i].t);
    CHECK(x[i].t == y[i].t);
    for (std::size_t c = 0; c < x[i].values.size(); ++c)
      CHECK(x[i].values[c] == doctest::Approx(y[i].values[c]).epsilon(epsilon));
  }
}

}  // namespace

TEST_CASE("a linear loop y = u - k y is solved to the closed form u / (1 + k) at every row") {
  const Run run = run_model(linear_loop(3.0));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  REQUIRE(run.rows.size() >= 17);
  const std::size_t u = run.column("u.out");
  const std::size_t y = run.column("mix.out");
  const std::size_t x = run.column("x.out");
  for (const Row& row : run.rows) {
    CAPTURE(row.t);
    CHECK(std::abs(row.values[y] - row.values[u] / 4.0) <= 1e-12);
    // x = (2 t + 1 - cos t) / 4, to the integrator's tolerance.
    CHECK(row.values[x] == doctest::Approx((2 * row.t + 1 - std::cos(row.t)) / 4).epsilon(1e-6));
  }
  // Each evaluation of the outputs solved the loop once; Newton's method
  // kept its Jacobian from one solve to the next.
  CHECK(run.result.stats.loop_solves > run.result.stats.rhs_evals);
  CHECK(run.result.stats.loop_iterations > 0);
  if (fast_paths_enabled()) {  // one Newton step: a linear loop (KINSOL's general path takes more)
    CHECK(run.result.stats.loop_iterations <= run.result.stats.loop_solves);
  }
  CHECK(run.lines.back()["loop_solves"] == run.result.stats.loop_solves);
}

TEST_CASE("every output of a linear loop's actors is at the solution, the tear's and the others'") {
  // The fast path evaluates a linear loop once and moves the outputs along
  // their slopes to the Newton step's end: fb = k mix and mix = u - fb to
  // rounding. The general path stops KINSOL within the loop's tolerance
  // (10^-6 of rtol 1e-6, atol 1e-9) and evaluates the loop there.
  const Run run = run_model(linear_loop(3.0, "", R"("u.out", "mix.out", "fb.out")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  REQUIRE(run.rows.size() >= 17);
  for (const Row& row : run.rows) {
    CAPTURE(row.t);
    const double u = row.values[0];
    const double mix = row.values[1];
    const double fb = row.values[2];
    const double bound = fast_paths_enabled()
                             ? 1e-14 * std::abs(u)
                             : 1e-6 * (1e-9 + 1e-6 * std::max(std::abs(mix), std::abs(fb))) * 1.01;
    CHECK(std::abs(fb - 3.0 * mix) <= bound);
    CHECK(std::abs(mix - (u - fb)) <= bound);
  }
}

TEST_CASE("a loop and the same model with the loop removed by hand give the same trajectory") {
  for (const char* solver : {"erk45", "bdf", "dirk"}) {
    CAPTURE(solver);
    const std::string options = std::string(R"(, "rtol": 1e-9, "atol": 1e-12, "solver": ")") + solver + "\"";
    check_same_on_grid(run_model(linear_loop(3.0, options)), run_model(linear_by_hand(3.0, options)), 1e-8);
  }
}

TEST_CASE("a nonlinear loop y = sin(u - y) is solved to Newton's tolerance") {
  const Run run = run_model(model("", R"j({"name": "u", "type": "Ramp", "params": {"slope": 2}},
                   {"name": "f", "type": "Expression", "params": {"expr": "sin(in0 - in1)", "inputs": 2}})j",
                                  R"(["u.out", "f.in0"], ["f.out", "f.in1"])", R"("u.out", "f.out")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  REQUIRE(run.rows.size() >= 17);
  for (const Row& row : run.rows) {
    CAPTURE(row.t);
    const double u = row.values[0];
    const double y = row.values[1];
    CHECK(u == doctest::Approx(2 * row.t));
    // Solved to 10^-6 of the tolerances rtol 1e-6, atol 1e-9.
    CHECK(std::abs(y - std::sin(u - y)) <= 1e-6 * (1e-9 + 1e-6 * std::abs(y)) * 1.01);
  }
}

TEST_CASE("a loop through a StateSpace with D != 0 in feedback equals the loop eliminated by hand") {
  // Plant x' = -x + v, y = x + 2 v, fed v = r - 0.5 y: y = (x + 2 r) / 2 and
  // x' = -1.25 x + 0.5 r, y = 0.5 x + r, a StateSpace of its own.
  const std::string options = R"(, "rtol": 1e-10, "atol": 1e-12)";
  const Run loop = run_model(model(
      options,
      R"({"name": "r", "type": "Step", "params": {"time": 0.5, "after": 1}},
                    {"name": "v", "type": "Sum", "params": {"signs": "+-"}},
                    {"name": "half", "type": "Gain", "params": {"k": 0.5}},
                    {"name": "p", "type": "StateSpace", "params": {"A": [[-1]], "B": [[1]], "C": [[1]], "D": [[2]]}})",
      R"(["r.out", "v.in0"], ["half.out", "v.in1"], ["v.out", "p.in"], ["p.out", "half.in"])", R"("p.out")"));
  const Run by_hand = run_model(model(options,
                                      R"({"name": "r", "type": "Step", "params": {"time": 0.5, "after": 1}},
         {"name": "p", "type": "StateSpace", "params": {"A": [[-1.25]], "B": [[0.5]], "C": [[0.5]], "D": [[1]]}})",
                                      R"(["r.out", "p.in"])", R"("p.out")"));
  check_same_on_grid(loop, by_hand, 1e-9);
  // Closed form after the step: y = 0.8 (1 - e^{-1.25 (t - 0.5)}) / 2 + 1.
  const Row& last = loop.rows.back();
  CHECK(last.values[0] == doctest::Approx(0.2 * (1 - std::exp(-1.25 * (last.t - 0.5))) + 1).epsilon(1e-8));
}

TEST_CASE("a guard on a loop's output fires at the closed-form time") {
  // y = t / 4 crosses 0.5 at t = 2 exactly.
  const Run run = run_model(
      model("", R"({"name": "u", "type": "Ramp", "params": {"slope": 1}},
                   {"name": "mix", "type": "Sum", "params": {"signs": "+-"}},
                   {"name": "fb", "type": "Gain", "params": {"k": 3}},
                   {"name": "d", "type": "LevelCrossingDetector", "params": {"level": 0.5}})",
            R"(["u.out", "mix.in0"], ["mix.out", "fb.in"], ["fb.out", "mix.in1"], ["mix.out", "d.in"])",
            R"("mix.out")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  std::vector<double> times;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event") times.push_back(line["t"].get<double>());
  }
  REQUIRE(times.size() == 1);
  CHECK(std::abs(times[0] - 2.0) <= 1e-12);
}

TEST_CASE("two independent loops are solved in their own parts, as in one joined run") {
  const std::string actors =
      R"j({"name": "u", "type": "Sine", "params": {"frequency": 0.15915494309189535, "bias": 2}},
         {"name": "mix", "type": "Sum", "params": {"signs": "+-"}}, {"name": "fb", "type": "Gain", "params": {"k": 3}},
         {"name": "x", "type": "Integrator"},
         {"name": "w", "type": "Ramp", "params": {"slope": 1}},
         {"name": "f", "type": "Expression", "params": {"expr": "0.5 * cos(in0 + in1)", "inputs": 2}},
         {"name": "z", "type": "Integrator"})j";
  const std::string wires =
      R"(["u.out", "mix.in0"], ["mix.out", "fb.in"], ["fb.out", "mix.in1"], ["mix.out", "x.in"],
         ["w.out", "f.in0"], ["f.out", "f.in1"], ["f.out", "z.in"])";
  const std::string record = R"("mix.out", "x.out", "f.out", "z.out")";
  const Run split = run_model(model(R"(, "rtol": 1e-10, "atol": 1e-12)", actors, wires, record));
  const Run joined =
      run_model(model(R"(, "rtol": 1e-10, "atol": 1e-12, "subsystems": "joined")", actors, wires, record));
  check_same_on_grid(split, joined, 1e-8);
  for (const Row& row : grid_rows(split)) {
    CAPTURE(row.t);
    const double f = row.values[2];
    CHECK(std::abs(f - 0.5 * std::cos(row.t + f)) <= 1e-13);
  }
}

TEST_CASE(
    "a loop without a solution ends the run naming the loop, the time, the residual and the iterations") {
  // y = exp(y) + t has no real solution.
  const Run none = run_model(model("", R"({"name": "t", "type": "Ramp", "params": {"slope": 1}},
                             {"name": "f", "type": "Expression", "params": {"expr": "exp(in0) + in1", "inputs": 2}})",
                                   R"(["f.out", "f.in0"], ["t.out", "f.in1"])", R"("f.out")"));
  CHECK(none.result.status == RunStatus::kError);
  CHECK_MESSAGE(
      none.result.message.rfind("at t=0 s (tick 0, microstep 0): algebraic loop f -> f: no solution "
                                "found at t = 0 s: ",
                                0) == 0,
      none.result.message);
  CHECK(none.result.message.find("(largest residual ") != std::string::npos);
  CHECK(none.result.message.find(" Newton iterations)") != std::string::npos);
  CHECK(none.result.actor == "f");
  // y = 1 + sin(t) + y: the loop's Jacobian is singular.
  const Run singular = run_model(model("", R"({"name": "t", "type": "Sine", "params": {"bias": 1}},
                             {"name": "s", "type": "Sum", "params": {"signs": "++"}})",
                                       R"(["t.out", "s.in0"], ["s.out", "s.in1"])", R"("s.out")"));
  CHECK(singular.result.status == RunStatus::kError);
  CHECK_MESSAGE(
      singular.result.message.find("algebraic loop s -> s: no solution found at t = 0 s: the loop's "
                                   "Jacobian is singular") != std::string::npos,
      singular.result.message);
}

TEST_CASE("algebraic_loops \"error\" refuses a loop; other values are named") {
  CHECK(run_setup_error(linear_loop(3.0, R"(, "algebraic_loops": "error")")) ==
        "test.json at /actors/1: algebraic loop among direct-feedthrough continuous actors: mix -> fb -> mix "
        "(break it with a state, e.g. an Integrator, or a delay)");
  CHECK(run_setup_error(linear_loop(3.0, R"(, "algebraic_loops": "solve")")).empty());
  CHECK(run_setup_error(linear_loop(3.0, R"(, "algebraic_loops": "tear")")) ==
        "test.json at /director/algebraic_loops: director option 'algebraic_loops' must be \"solve\" or "
        "\"error\", got \"tear\"");
}

TEST_CASE("a run with loops resumes from a snapshot exactly: the kept Jacobian is saved") {
  for (const std::string& text :
       {linear_loop(3.0),
        model("",
              R"j({"name": "u", "type": "Ramp", "params": {"slope": 2}}, {"name": "x", "type": "Integrator"},
                      {"name": "f", "type": "Expression", "params": {"expr": "sin(in0 - in1)", "inputs": 2}})j",
              R"(["u.out", "f.in0"], ["f.out", "f.in1"], ["f.out", "x.in"])", R"("f.out", "x.out")")}) {
    const auto load = [&] { return load_model_text(text, "test.json", builtin_actors()); };
    (void)check_resumes_exactly(load, 2.0);
  }
}

TEST_CASE("a loop of three unknowns is solved whether its Jacobian is composed or taken by differences") {
  // y = u - K y with a 3 x 3 K whose LU needs row interchanges at two columns:
  // I + K = [[1.5, 2, 0], [3, 1.1, 1], [0.2, 4, 1.3]].
  const std::string k = "[[0.5, 2, 0], [3, 0.1, 1], [0.2, 4, 0.3]]";
  const std::vector<std::string> feedbacks{
      concat({R"({"name": "fb", "type": "Gain", "params": {"k": )", k, "}}"}),
      R"j({"name": "split", "type": "Demux", "params": {"outputs": 3}},
         {"name": "fb", "type": "Expression", "params": {"inputs": 3,
           "expr": "0.5*in0 + 2*in1, 3*in0 + 0.1*in1 + in2, 0.2*in0 + 4*in1 + 0.3*in2"}})j"};
  for (const std::string& fb : feedbacks) {
    CAPTURE(fb);
    const bool gain = fb.find("Gain") != std::string::npos;
    const std::string wires =
        gain
            ? R"(["t.out", "u.in0"], ["u.out", "mix.in0"], ["mix.out", "fb.in"], ["fb.out", "mix.in1"], ["mix.out", "x.in"])"
            : R"(["t.out", "u.in0"], ["u.out", "mix.in0"], ["mix.out", "split.in"], ["split.out0", "fb.in0"], ["split.out1", "fb.in1"],
                  ["split.out2", "fb.in2"], ["fb.out", "mix.in1"], ["mix.out", "x.in"])";
    const Run run = run_model(model(
        "",
        R"j({"name": "t", "type": "Clock"}, {"name": "u", "type": "Expression", "params": {"expr": "1 + sin(in0), 2 * cos(in0) - 1, 3 * sin(0.5 * in0)"}},
                     {"name": "mix", "type": "Sum", "params": {"signs": "+-"}},
                                          {"name": "x", "type": "Integrator"}, )j" +
            fb,
        wires, gain ? R"("u.out", "mix.out", "fb.out")" : R"("u.out", "mix.out")"));
    REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
    REQUIRE(run.rows.size() >= 17);
    // Linear: its Jacobian composed once, each solve one Newton step.
    if (gain && fast_paths_enabled()) CHECK(run.result.stats.loop_iterations <= run.result.stats.loop_solves);
    const double m[3][3] = {{1.5, 2, 0}, {3, 1.1, 1}, {0.2, 4, 1.3}};
    const double kk[3][3] = {{0.5, 2, 0}, {3, 0.1, 1}, {0.2, 4, 0.3}};
    const auto at = [](const Row& row, int c) { return row.values[static_cast<std::size_t>(c)]; };
    for (const Row& row : run.rows) {
      CAPTURE(row.t);
      for (int i = 0; i < 3; ++i) {  // (I + K) y = u
        double lhs = 0;
        for (int j = 0; j < 3; ++j) lhs += m[i][j] * at(row, 3 + j);
        CHECK(std::abs(lhs - at(row, i)) <= 1e-10);
        if (!gain) continue;
        double ky = 0;  // the Gain's output is K y, whichever actor is the tear
        for (int j = 0; j < 3; ++j) ky += kk[i][j] * at(row, 3 + j);
        CHECK(std::abs(ky - at(row, 6 + i)) <= 1e-12);
      }
    }
  }
}
