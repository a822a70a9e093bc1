// The example examples/models/tank_queue.json: a continuous tank level, a
// level switch (state events) and a single-server queue (discrete events),
// checked against the closed-form level, its crossing times and the queue's
// departure recurrence.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// The example's parameters (read from the file, so the test follows it).
struct Tank {
  double b, a, f, k, mark, service, stop, initial;

  /// level' = b + a sin(w t) - k level, level(0) = initial:
  /// level = b/k + a/(k² + w²) (k sin wt - w cos wt) + (initial - b/k + a w/(k² + w²)) e^(-kt).
  [[nodiscard]] double level(double t) const {
    const double w = 2 * std::numbers::pi * f;
    const double d = k * k + w * w;
    return b / k + a / d * (k * std::sin(w * t) - w * std::cos(w * t)) +
           (initial - b / k + a * w / d) * std::exp(-k * t);
  }

  /// The times at which the level passes `mark`, with +1 rising / -1 falling:
  /// sign changes on a fine grid (the level's period is 1/f), each refined by bisection.
  [[nodiscard]] std::vector<std::pair<double, int>> crossings() const {
    std::vector<std::pair<double, int>> out;
    const double dt = 1e-3 / f;
    const auto g = [&](double t) { return level(t) - mark; };
    for (double t0 = 0; t0 < stop; t0 += dt) {
      const double t1 = std::min(t0 + dt, stop);
      if ((g(t0) < 0) == (g(t1) < 0)) continue;
      const bool rising = g(t0) < 0;
      double lo = t0;
      double hi = t1;
      for (int i = 0; i < 80 && hi - lo > 1e-14; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((g(mid) < 0) == rising ? lo : hi) = mid;
      }
      out.emplace_back(hi, rising ? 1 : -1);
    }
    return out;
  }
};

Tank tank_of(const std::string& text) {
  const auto model = nlohmann::json::parse(text);
  const auto& p = model["parameters"];
  Tank tank{p["b"].get<double>(),
            p["a"].get<double>(),
            p["f"].get<double>(),
            p["k"].get<double>(),
            p["mark"].get<double>(),
            p["service"].get<double>(),
            model["director"]["stop_time"].get<double>(),
            0.0};
  for (const auto& actor : model["actors"]) {
    if (actor["name"] == "level") tank.initial = actor["params"]["initial"].get<double>();
  }
  return tank;
}

}  // namespace

TEST_CASE("the tank-and-queue example follows the closed-form level, crossings and departures") {
  const std::string text = read_example("tank_queue.json");
  const Tank tank = tank_of(text);
  const Run run = run_model(text);
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);

  SUBCASE("the recorded level is the solution of level' = b + a sin(2 pi f t) - k level") {
    const std::size_t level = run.column("level.out");
    REQUIRE(run.rows.size() > 100);
    for (const auto& row : run.rows)
      CHECK(row.values[level] == doctest::Approx(tank.level(row.t)).epsilon(1e-8));
  }

  const auto crossings = tank.crossings();
  REQUIRE(crossings.size() >= 8);  // the level oscillates through the mark

  SUBCASE("the switch fires at every crossing of the mark, in both directions") {
    std::vector<nlohmann::json> located;
    for (const auto& line : run.lines) {
      if (line["kind"] == "state_event" && line["actor"] == "switch") located.push_back(line);
    }
    REQUIRE(located.size() == crossings.size());
    const auto sent = events_of(run, "switch");
    REQUIRE(sent.size() == crossings.size());
    for (std::size_t i = 0; i < crossings.size(); ++i) {
      CHECK(located[i]["t"].get<double>() == doctest::Approx(crossings[i].first).epsilon(1e-8));
      CHECK(located[i]["direction"] == (crossings[i].second > 0 ? "rising" : "falling"));
      CHECK(sent[i].second == doctest::Approx(tank.mark).epsilon(1e-8));  // the level at the crossing
    }
  }

  SUBCASE("each crossing is one job, numbered in order") {
    const auto jobs = events_of(run, "jobs");
    REQUIRE(jobs.size() == crossings.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      CHECK(jobs[i].first == doctest::Approx(crossings[i].first).epsilon(1e-8));
      CHECK(jobs[i].second == static_cast<double>(i + 1));
    }
  }

  SUBCASE("the inspector serves the jobs first come first served: d_i = max(a_i, d_i-1) + service") {
    std::vector<double> done;  // every job's departure, within the run or not
    for (const auto& [arrival, direction] : crossings) {
      done.push_back(std::max(arrival, done.empty() ? -HUGE_VAL : done.back()) + tank.service);
    }
    std::vector<double> departures;
    for (const double d : done) {
      if (d <= tank.stop) departures.push_back(d);
    }
    // The example is meant to make some jobs wait and to leave the inspector idle at times.
    bool waited = false;
    bool idle = false;
    for (std::size_t i = 1; i < crossings.size(); ++i) {
      waited = waited || crossings[i].first < done[i - 1];
      idle = idle || crossings[i].first > done[i - 1];
    }
    CHECK(waited);
    CHECK(idle);

    const auto served = events_of(run, "inspector");
    REQUIRE(served.size() == departures.size());
    for (std::size_t i = 0; i < served.size(); ++i) {
      CHECK(served[i].first == doctest::Approx(departures[i]).epsilon(1e-8));
      CHECK(served[i].second == static_cast<double>(i + 1));  // the job's number
    }
  }
}
