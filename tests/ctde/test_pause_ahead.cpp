// Pausing a run with its solver ahead (Director::Pause::kAhead, an FMU's
// communication points; docs/semantics.md, "Pausing a run"): the outputs at
// each pause are the rows a run without pauses records there, bit for bit,
// with the same steps and events; a value given at a pause restarts the
// solver there and the answer keeps the closed form; a snapshot there
// resumes exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/columnar_results.hpp"
#include "core/model_file.hpp"
#include "core/time.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

using Pause = Director::Pause;

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct Loaded {
  Model model;
  RunSetup setup;
};

Loaded load(const std::string& path) {
  Model model = load_model_file(path, builtin_actors());
  RunSetup setup = set_up_run(model, std::nullopt);
  return {std::move(model), std::move(setup)};
}

std::string plant() { return std::string(CTDE_SOURCE_DIR) + "/tests/fmu_export/models/plant.json"; }

/// The plant y' = gain (u - a y), y(0) = 0 (tests/fmu_export/models/plant.json)
/// with u = 1 + k on [k, k + 1): y at t, from y(k) on each piece.
double plant_y(double t) {
  const double a = 2;
  const double gain = 3;
  double y = 0;
  for (int k = 0; k < 4; ++k) {
    const double u = 1 + k;
    const double dt = std::min(t, k + 1.0) - k;
    if (dt <= 0) break;
    y = u / a + (y - u / a) * std::exp(-gain * a * dt);
  }
  return y;
}

/// The plant paused every `h` s up to 4 s (`how`), the input set to 1 + k at
/// each whole second k; y at each pause.
std::vector<double> plant_paused(double h, Pause how) {
  Loaded m = load(plant());
  Director d(m.setup.flat, m.setup.options, m.model.name());
  const TimeResolution resolution(m.setup.options.time_resolution);
  const Tick step = resolution.to_ticks(h);
  const Tick end = resolution.to_ticks(4.0);
  const Tick second = resolution.to_ticks(1.0);
  REQUIRE(d.advance_to(0, how));
  const auto y = d.output_values("x.out");
  std::vector<double> values;
  for (Tick at = step; at <= end; at += step) {
    if ((at - step) % second == 0) {
      const Tick whole_seconds = (at - step) / second;
      d.set_input("u", std::vector<double>{1.0 + static_cast<double>(whole_seconds)});
    }
    const bool paused = d.advance_to(resolution.to_seconds(at), how);
    values.push_back(y[0]);
    if (!paused) break;
  }
  return values;
}

}  // namespace

TEST_CASE(
    "a run paused ahead at every point gives the rows a run without pauses records there, bit for bit") {
  // The bouncing ball (rows every 0.02 s, impacts located inside steps).
  Loaded whole = load(example_models() + "bouncing_ball.json");
  ColumnarResults rows(whole.setup.signals);
  Director once(whole.setup.flat, whole.setup.options, whole.model.name(), nullptr, &rows);
  const RunResult unpaused = once.run();
  REQUIRE(unpaused.status == RunStatus::kOk);

  Loaded m = load(example_models() + "bouncing_ball.json");
  Director paused(m.setup.flat, m.setup.options, m.model.name());
  const TimeResolution resolution(m.setup.options.time_resolution);
  const auto h = paused.output_values("h.out");
  const auto v = paused.output_values("v.out");
  std::size_t compared = 0;
  for (std::size_t r = 0; r < rows.rows(); ++r) {
    const double t = rows.time()[r];
    const Tick at = resolution.to_ticks(t);
    // The grid's rows (an event's rows are at its microsteps, a step end's between grid points).
    if (rows.microstep()[r] != 0 || at % resolution.to_ticks(0.02) != 0 || t == 0 || t >= 10) continue;
    REQUIRE(paused.advance_to(t, Pause::kAhead));
    CAPTURE(t);
    CHECK(bits(h[0]) == bits(rows.column("h.out")[r]));
    CHECK(bits(v[0]) == bits(rows.column("v.out")[r]));
    ++compared;
  }
  CHECK(compared == 499);
  const RunResult end = paused.run();
  REQUIRE(end.status == RunStatus::kOk);
  // The same steps and impacts: nothing pausing changed the solution.
  CHECK(end.stats.steps == unpaused.stats.steps);
  CHECK(end.stats.rejected_steps == unpaused.stats.rejected_steps);
  CHECK(end.stats.state_events == unpaused.stats.state_events);
  CHECK(bits(h[0]) == bits(rows.column("h.out").back()));

  // Paused exactly instead, the solver lands on each point: more steps.
  Loaded e = load(example_models() + "bouncing_ball.json");
  Director exact(e.setup.flat, e.setup.options, e.model.name());
  for (Tick k = 1; k < 500; ++k)
    REQUIRE(exact.advance_to(resolution.to_seconds(k * resolution.to_ticks(0.02))));
  CHECK(exact.run().stats.steps > unpaused.stats.steps + 400);
}

TEST_CASE("an input given where a run paused ahead restarts the solver there: the closed form holds") {
  const std::vector<double> ahead = plant_paused(0.125, Pause::kAhead);
  const std::vector<double> exact = plant_paused(0.125, Pause::kExact);
  REQUIRE(ahead.size() == 32);
  REQUIRE(exact.size() == 32);
  for (std::size_t k = 0; k < ahead.size(); ++k) {
    const double t = 0.125 * static_cast<double>(k + 1);
    CAPTURE(t);
    CHECK(ahead[k] == doctest::Approx(plant_y(t)).epsilon(1e-8));
    CHECK(exact[k] == doctest::Approx(plant_y(t)).epsilon(1e-8));
  }
}

TEST_CASE("a snapshot where a run paused ahead: the run and the one resumed from it go on alike") {
  Loaded m = load(example_models() + "bouncing_ball.json");
  Director d(m.setup.flat, m.setup.options, m.model.name());
  REQUIRE(d.advance_to(1.37, Pause::kAhead));
  const double h_before = d.output_values("h.out")[0];
  const RunSnapshot snapshot = d.snapshot();
  // The snapshot takes the state where the run stands: the outputs there unchanged.
  CHECK(bits(d.output_values("h.out")[0]) == bits(h_before));
  REQUIRE(d.advance_to(6.1, Pause::kAhead));
  const double h_on = d.output_values("h.out")[0];
  const double v_on = d.output_values("v.out")[0];

  // The first impact (t = 1.428 s) was found in the step over 1.37 s: the
  // snapshot's restart forgot it and the run found it again, as the ball
  // without a pause bounces (rows every 0.02 s: 6.1 s is one).
  Loaded w = load(example_models() + "bouncing_ball.json");
  ColumnarResults rows(w.setup.signals);
  Director whole(w.setup.flat, w.setup.options, w.model.name(), nullptr, &rows);
  REQUIRE(whole.run().status == RunStatus::kOk);
  const TimeResolution resolution(w.setup.options.time_resolution);
  for (std::size_t k = 0; k < rows.rows(); ++k) {
    if (resolution.to_ticks(rows.time()[k]) == resolution.to_ticks(6.1) && rows.microstep()[k] == 0) {
      CHECK(h_on == doctest::Approx(rows.column("h.out")[k]).epsilon(1e-7));
      CHECK(v_on == doctest::Approx(rows.column("v.out")[k]).epsilon(1e-7));
    }
  }

  Loaded r = load(example_models() + "bouncing_ball.json");
  Director resumed(r.setup.flat, r.setup.options, r.model.name());
  resumed.resume_from(snapshot, false);
  REQUIRE(resumed.advance_to(6.1, Pause::kAhead));
  CHECK(bits(resumed.output_values("h.out")[0]) == bits(h_on));
  CHECK(bits(resumed.output_values("v.out")[0]) == bits(v_on));
}

TEST_CASE("return_at_events: advance_to pauses after the events of each time it reaches before its own") {
  // The ball: at each impact, t1 = sqrt(2 h0 / g), then flights of 2 e^k v1 / g.
  Loaded m = load(example_models() + "bouncing_ball.json");
  Director d(m.setup.flat, m.setup.options, m.model.name());
  d.return_at_events(true);
  std::vector<double> impacts;
  for (double t = std::sqrt(2 * 10 / 9.81), v = 9.81 * t; t <= 10; v *= 0.8, t += 2 * v / 9.81) {
    impacts.push_back(t);
  }
  std::vector<double> returns;
  while (d.advance_to(10, Pause::kAhead) && d.time() < 10) {
    returns.push_back(d.time());
    CHECK(std::abs(d.output_values("h.out")[0]) < 1e-9);
  }
  REQUIRE(returns.size() == impacts.size());
  for (std::size_t k = 0; k < impacts.size(); ++k)
    CHECK(returns[k] == doctest::Approx(impacts[k]).epsilon(1e-12));

  // A pure discrete-event model (one firing per time: the lone events' pass).
  Model clock = load_model_text(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "DiscreteClock", "params": {"period": 0.25}}], "record": ["c.out"]})",
                                "clock.json", builtin_actors());
  const RunSetup setup = set_up_run(clock, std::nullopt);
  Director dc(setup.flat, setup.options, clock.name());
  dc.return_at_events(true);
  std::vector<double> ticks;
  REQUIRE(dc.advance_to(0));  // the start's events are where the run begins, not a return
  while (dc.advance_to(0.9) && dc.time() < 0.9) ticks.push_back(dc.time());
  INFO("ticks " << ticks.size() << " first " << (ticks.empty() ? -1.0 : ticks[0]));
  CHECK(ticks == std::vector<double>{0.25, 0.5, 0.75});
  CHECK(dc.time() == 0.9);
}
