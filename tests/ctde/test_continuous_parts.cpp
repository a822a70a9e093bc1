// Independent parts of the continuous side, each with its own integrator
// (director option subsystems "split", docs/semantics.md): the partition,
// and runs split against the same runs with one integrator and against
// closed forms.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "domains/ctde/continuous_parts.hpp"
#include "support/closed_forms.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// n balls in one model, ball i dropped from h0(i) with restitution e(i),
/// sharing one gravity; no recorded signal, or (`rows`) every height
/// recorded with rows every 0.05 s.
std::string balls(std::size_t n, const std::string& subsystems, double stop, bool rows = false) {
  nlohmann::json model = {
      {"ctde", 1},
      {"director", {{"stop_time", stop}, {"rtol", 1e-10}, {"atol", 1e-12}, {"subsystems", subsystems}}},
      {"actors", nlohmann::json::array()},
      {"connections", nlohmann::json::array()}};
  model["actors"].push_back({{"name", "gravity"}, {"type", "Constant"}, {"params", {{"value", -9.81}}}});
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    const double h0 = 1.0 + 0.37 * static_cast<double>(i);
    const double e = 0.95 - 0.03 * static_cast<double>(i);
    model["actors"].push_back({{"name", "v" + k}, {"type", "Integrator"}, {"params", {{"initial", 0}}}});
    model["actors"].push_back({{"name", "h" + k}, {"type", "Integrator"}, {"params", {{"initial", h0}}}});
    model["actors"].push_back(
        {{"name", "ground" + k}, {"type", "ZeroCrossingDetector"}, {"params", {{"direction", "falling"}}}});
    model["actors"].push_back({{"name", "at_impact" + k}, {"type", "Sampler"}});
    model["actors"].push_back({{"name", "rebound" + k}, {"type", "Gain"}, {"params", {{"k", -e}}}});
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"gravity.out", "v" + k + ".in"},
             {"v" + k + ".out", "h" + k + ".in"},
             {"h" + k + ".out", "ground" + k + ".in"},
             {"v" + k + ".out", "at_impact" + k + ".in"},
             {"ground" + k + ".out", "at_impact" + k + ".trigger"},
             {"at_impact" + k + ".out", "rebound" + k + ".in"},
             {"rebound" + k + ".out", "v" + k + ".reset"}}) {
      model["connections"].push_back({from, to});
    }
    if (rows) model["record"].push_back("h" + k + ".out");
  }
  if (rows) model["director"]["output_interval"] = 0.05;
  return model.dump();
}

/// The state_event times per actor.
std::map<std::string, std::vector<double>> state_events(const Run& run) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& line : run.lines) {
    if (line["kind"] == "state_event")
      out[line["actor"].get<std::string>()].push_back(line["t"].get<double>());
  }
  return out;
}

std::uint64_t steps(const Run& run) { return run.result.stats.steps; }

}  // namespace

TEST_CASE("the partition joins connected actors and numbers the kept components in order") {
  ContinuousParts parts(7);
  parts.join(ActorId{4}, ActorId{1});
  parts.join(ActorId{2}, ActorId{5});
  parts.join(ActorId{5}, ActorId{6});
  const std::vector<std::uint8_t> keep{0, 1, 0, 0, 0, 0, 1};  // actors 0, 3 alone and not kept
  const std::vector<PartId> number = parts.number(keep);
  constexpr PartId kNone = ContinuousParts::kNoPart;
  CHECK(number == std::vector<PartId>{kNone, PartId{0}, PartId{1}, kNone, PartId{0}, PartId{1}, PartId{1}});
}

TEST_CASE("balls split into parts find the impacts of one integrator and of the closed form") {
  for (const std::size_t n : {2, 10}) {
    CAPTURE(n);
    const double stop = 4;  // before the last ball would come to rest (Zeno at 4.9 s)
    const Run split = run_model(balls(n, "split", stop));
    const Run joined = run_model(balls(n, "joined", stop));
    REQUIRE(split.result.status == RunStatus::kOk);
    REQUIRE(joined.result.status == RunStatus::kOk);
    const auto a = state_events(split);
    const auto b = state_events(joined);
    REQUIRE(a.size() == n);
    REQUIRE(b.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string ground = "ground" + std::to_string(i);
      CAPTURE(ground);
      const std::vector<double> expected =
          impact_times(1.0 + 0.37 * static_cast<double>(i), 9.81, 0.95 - 0.03 * static_cast<double>(i), stop);
      REQUIRE(a.at(ground).size() == expected.size());
      REQUIRE(b.at(ground).size() == expected.size());
      for (std::size_t k = 0; k < expected.size(); ++k) {
        CAPTURE(k);
        // Each against the closed form at the tolerance of the run (rtol
        // 1e-10), and the two runs within the same of each other.
        CHECK(std::abs(a.at(ground)[k] - expected[k]) <= 1e-9 * expected[k]);
        CHECK(std::abs(b.at(ground)[k] - expected[k]) <= 1e-9 * expected[k]);
        CHECK(std::abs(a.at(ground)[k] - b.at(ground)[k]) <= 1e-9 * expected[k]);
      }
    }
    // Each ball's parabola is one step per flight when alone; joined, every
    // impact of any ball ends the step of all of them.
    if (n == 10) CHECK(steps(split) > steps(joined));
  }
}

TEST_CASE("a sampled controller on one of two plants: split and joined agree, and the other plant is exact") {
  // Plant a: x' = u - x with u a zero-order hold of 1 - x sampled every
  // 0.25 s by a controller; plant b: y' = -y alone (y = exp(-t)).
  const auto model = [](const std::string& subsystems) {
    return R"({"ctde": 1, "director": {"stop_time": 2, "rtol": 1e-10, "atol": 1e-12, "subsystems": ")" +
           subsystems + R"("},
      "actors": [
        {"name": "x", "type": "Integrator", "params": {"initial": 0}},
        {"name": "dx", "type": "Sum", "params": {"signs": "+-"}},
        {"name": "clock", "type": "DiscreteClock", "params": {"period": 0.25}},
        {"name": "sample", "type": "Sampler"},
        {"name": "error", "type": "Expression", "params": {"expr": "1 - in0"}},
        {"name": "hold", "type": "ZeroOrderHold"},
        {"name": "y", "type": "Integrator", "params": {"initial": 1}},
        {"name": "minus", "type": "Gain", "params": {"k": -1}},
        {"name": "y_clock", "type": "DiscreteClock", "params": {"period": 0.5}},
        {"name": "y_sample", "type": "Sampler"}
      ],
      "connections": [
        ["hold.out", "dx.in0"], ["x.out", "dx.in1"], ["dx.out", "x.in"],
        ["clock.out", "sample.trigger"], ["x.out", "sample.in"],
        ["sample.out", "error.in0"], ["error.out", "hold.in"],
        ["y.out", "minus.in"], ["minus.out", "y.in"],
        ["y_clock.out", "y_sample.trigger"], ["y.out", "y_sample.in"]
      ]})";
  };
  const Run split = run_model(model("split"));
  const Run joined = run_model(model("joined"));
  REQUIRE(split.result.status == RunStatus::kOk);
  REQUIRE(joined.result.status == RunStatus::kOk);
  const auto xs = events_of(split, "sample");
  const auto xj = events_of(joined, "sample");
  REQUIRE(xs.size() == 9);
  REQUIRE(xs.size() == xj.size());
  // Closed form: on each period the hold is u_k = 1 - x_k, and
  // x_{k+1} = u_k + (x_k - u_k) exp(-0.25).
  double x = 0;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    CAPTURE(k);
    CHECK(xs[k].first == xj[k].first);
    CHECK(std::abs(xs[k].second - x) <= 1e-8);
    CHECK(std::abs(xs[k].second - xj[k].second) <= 1e-8);
    const double u = 1 - x;
    x = u + (x - u) * std::exp(-0.25);
  }
  // (split: y takes its own long steps, not cut at x's samples)
  CHECK(steps(split) != steps(joined));
  const auto ys = events_of(split, "y_sample");
  REQUIRE(ys.size() == 5);
  for (const auto& [t, y] : ys) CHECK(std::abs(y - std::exp(-t)) <= 1e-8);
}

TEST_CASE("a recorded run of 10 balls is split too: its rows are the joined run's and the closed form's") {
  const std::size_t n = 10;
  const double stop = 4;
  const Run split = run_model(balls(n, "split", stop, /*rows=*/true));
  const Run joined = run_model(balls(n, "joined", stop, /*rows=*/true));
  REQUIRE(split.result.status == RunStatus::kOk);
  REQUIRE(joined.result.status == RunStatus::kOk);
  // Split as the run without rows is: the same steps, each ball its own.
  CHECK(steps(split) == steps(run_model(balls(n, "split", stop))));
  CHECK(steps(split) > steps(joined));
  // The output_interval rows: the same times in both runs (k * 0.05 s at
  // microstep 0), each ball's height the closed form's.
  const auto grid = [](const Run& run) {
    std::map<long, const Row*> rows;
    for (const Row& row : run.rows) {
      const double k = row.t / 0.05;
      if (row.n == 0 && std::abs(k - std::round(k)) < 1e-9) rows[std::lround(k)] = &row;
    }
    return rows;
  };
  const auto a = grid(split);
  const auto b = grid(joined);
  std::vector<std::size_t> column;  // per ball: its height's column
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = "h";
    name += std::to_string(i);
    name += ".out";
    column.push_back(split.column(name));
  }
  REQUIRE(a.size() == 81);  // 0, 0.05, ..., 4
  REQUIRE(b.size() == a.size());
  for (const auto& [k, row] : a) {
    CAPTURE(row->t);
    REQUIRE(b.count(k) == 1);
    CHECK(b.at(k)->t == row->t);
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      const double h0 = 1.0 + 0.37 * static_cast<double>(i);
      const double e = 0.95 - 0.03 * static_cast<double>(i);
      const double expected = ball_height(h0, 9.81, e, row->t);
      const std::size_t h = column[i];
      CHECK(std::abs(row->values[h] - expected) <= 1e-8);
      CHECK(std::abs(row->values[h] - b.at(k)->values[h]) <= 1e-8);
    }
  }
  // The two sides of each impact: a row at (te, 0) and one at (te, 1), the
  // ball on the ground on both, the same impacts as the joined run's.
  const auto impacts = [](const Run& run) {
    std::vector<double> times;
    for (const Row& row : run.rows) {
      if (row.n == 1) times.push_back(row.t);
    }
    return times;
  };
  const std::vector<double> ta = impacts(split);
  const std::vector<double> tb = impacts(joined);
  std::size_t located = 0;
  for (const auto& [actor, times] : state_events(split)) located += times.size();
  REQUIRE(ta.size() == located);
  REQUIRE(tb.size() == ta.size());
  for (std::size_t k = 0; k < ta.size(); ++k) CHECK(std::abs(ta[k] - tb[k]) <= 1e-9 * ta[k]);
  for (const Row& row : split.rows) {
    if (row.n != 1) continue;
    double lowest = 1e9;
    for (const std::size_t h : column) lowest = std::min(lowest, std::abs(row.values[h]));
    CHECK(lowest <= 1e-9);  // the ball that landed
  }
  // Rows come in time order, each (t, n) once.
  for (std::size_t k = 1; k < split.rows.size(); ++k) {
    const Row& p = split.rows[k - 1];
    const Row& q = split.rows[k];
    CHECK((p.t < q.t || (p.t == q.t && p.n < q.n)));
  }
}

TEST_CASE("subsystems \"split\" is the default, and the option takes two words") {
  const Run split = run_model(balls(2, "split", 3));
  nlohmann::json plain = nlohmann::json::parse(balls(2, "split", 3));
  plain["director"].erase("subsystems");
  const Run by_default = run_model(plain.dump());
  CHECK(split.trace == by_default.trace);
  CHECK(split.trace != run_model(balls(2, "joined", 3)).trace);
  CHECK_THROWS_WITH_AS(run_model(balls(2, "apart", 3)), doctest::Contains("subsystems"), ModelError);
}
