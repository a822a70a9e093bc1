// Snapshots (docs/snapshots.md): a run resumed from a snapshot continues
// the run that took it exactly — rows, trace and counters after the
// snapshot's time, byte for byte — for every example model, the cases of
// every kind of dynamics, and every registered actor type; what a snapshot
// refuses and how it says so.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "actors/builtin_actors.hpp"
#include "core/model_file.hpp"
#include "core/state_stream.hpp"
#include "core/validate.hpp"
#include "support/actor_samples.hpp"
#include "support/cli_helpers.hpp"
#include "support/snapshot_helpers.hpp"

namespace ctde::test {
namespace {

std::function<Model()> example(const std::string& name) {
  return [name] {
    return load_model_file(std::string(CTDE_SOURCE_DIR) + "/examples/models/" + name + ".json",
                           builtin_actors());
  };
}

std::function<Model()> text(const std::string& json) {
  return [json] { return load_model_text(json, "test.json", builtin_actors()); };
}

/// A sampled PI controller on a first-order plant with a random
/// disturbance, a queue fed by a threshold detector, a transport delay:
/// continuous states, a random stream, a DE queue and a delay line at once.
const char* const kMixed = R"({"ctde": 1,
  "director": {"stop_time": 4, "output_interval": 0.05},
  "actors": [
    {"name": "ref", "type": "Step", "params": {"time": 0.3, "after": 1}},
    {"name": "err", "type": "Sum", "params": {"signs": "+-"}},
    {"name": "sample", "type": "PeriodicSampler", "params": {"period": 0.1}},
    {"name": "pi", "type": "DiscreteTransferFunction", "params": {"num": [0.8, -0.6], "den": [1, -1]}},
    {"name": "hold", "type": "ZeroOrderHold"},
    {"name": "plant", "type": "TransferFunction", "params": {"num": [1], "den": [0.5, 1]}},
    {"name": "noise", "type": "GaussianRandom", "params": {"seed": 7}},
    {"name": "tick", "type": "DiscreteClock", "params": {"period": 0.2}},
    {"name": "delay", "type": "TransportDelay", "params": {"delay": 0.35}},
    {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 0.5}},
    {"name": "queue", "type": "Queue"},
    {"name": "server", "type": "Server", "params": {"service_time": 0.4}}
  ],
  "connections": [
    ["ref.out", "err.in0"], ["plant.out", "err.in1"], ["err.out", "sample.in"],
    ["sample.out", "pi.in"], ["pi.out", "hold.in"], ["hold.out", "plant.in"],
    ["tick.out", "noise.trigger"], ["plant.out", "delay.in"], ["delay.out", "level.in"],
    ["level.out", "queue.in"], ["tick.out", "queue.trigger"], ["queue.out", "server.in"]
  ],
  "record": ["plant.out", "delay.out", "noise.out", "server.out"]
})";

}  // namespace

TEST_CASE("a run resumed from a snapshot continues every example model exactly") {
  for (const std::string name :
       {"bouncing_ball", "hard_stop", "mm1_queue", "sampled_pi", "spring_mass", "tank_queue", "thermostat"}) {
    CAPTURE(name);
    Model model = example(name)();
    (void)validate(model);
    const double stop = make_run_options(model.director(), model.parameters()).stop_time;
    check_resumes_exactly(example(name), stop / 2);
  }
}

TEST_CASE("a snapshot at a time with events and one between them both resume exactly") {
  // The sampler fires at 0.1 k: 2.0 is one of its times, 1.95 is not.
  for (const double at : {2.0, 1.95, 0.0}) {
    CAPTURE(at);
    check_resumes_exactly(text(kMixed), at);
  }
}

TEST_CASE("a snapshot resumes exactly with every solver") {
  for (const std::string solver :
       {"erk45", "erk23", "rk4-fixed", "dirk", "ark-imex", "rkf45", "bdf", "auto"}) {
    CAPTURE(solver);
    std::string model = kMixed;
    const std::string from = R"("stop_time": 4,)";
    model.replace(model.find(from), from.size(),
                  R"("stop_time": 4, "solver": ")" + solver +
                      (solver == "rk4-fixed" ? R"(", "initial_step": 0.01,)" : "\","));
    check_resumes_exactly(text(model), 1.5);
  }
}

TEST_CASE("auto resumes exactly before its switch to bdf, while on bdf, and after switching back") {
  // k = 1e5 on [2, 4], 1 elsewhere: auto switches to bdf a little after 2
  // and back a little after 4 (tests/ctde/test_stiff.cpp).
  const std::string model =
      R"j({"ctde": 1, "director": {"stop_time": 8, "rtol": 1e-8, "atol": 1e-10, "solver": "auto"},
    "actors": [{"name": "up", "type": "Step", "params": {"time": 2, "before": 1, "after": 100000}},
               {"name": "down", "type": "Step", "params": {"time": 4, "before": 0, "after": -99999}},
               {"name": "k", "type": "Sum", "params": {"signs": "++"}},
               {"name": "f", "type": "Expression", "params": {"expr": "-in0 * (in1 - cos(t)) - sin(t)", "inputs": 2}},
               {"name": "x", "type": "Integrator", "params": {"initial": 1}}],
    "connections": [["up.out", "k.in0"], ["down.out", "k.in1"], ["k.out", "f.in0"], ["x.out", "f.in1"],
                    ["f.out", "x.in"]],
    "record": ["x.out"]})j";
  for (const double at : {1.0, 3.0, 3.5, 6.0}) {
    CAPTURE(at);
    check_resumes_exactly(text(model), at);
  }
}

namespace {

/// Runs the model plainly and with a checkpoint asked for at every chance:
/// the two write the same rows and trace, bit for bit, at least three
/// checkpoints were taken, and the first, middle and last resume exactly.
void check_checkpoints_at_every_chance(const std::function<Model()>& load) {
  const Written plain = run_written(load, [](Director&) {});
  std::vector<RunSnapshot> checkpoints;
  const Written checkpointed = run_written(load, [&](Director& d) {
    d.set_checkpoints([] { return true; }, [&](const RunSnapshot& s) { checkpoints.push_back(s); });
  });
  CHECK(checkpointed.csv == plain.csv);
  CHECK(checkpointed.trace == plain.trace);
  REQUIRE(checkpoints.size() >= 3);
  for (const std::size_t k : {std::size_t{0}, checkpoints.size() / 2, checkpoints.size() - 1}) {
    CAPTURE(checkpoints[k].time);
    check_resumed(load, plain, checkpoints[k]);
  }
}

}  // namespace

TEST_CASE("checkpoints change nothing in the run, wherever they fall, and each resumes exactly") {
  // Asked for at every chance: after the events of every time at which every
  // solver restarted anyway or saves its exact state (erk45, the default:
  // every event time of the tank and its queue, where the level's solver
  // goes on through the queue's events), and at every step end of an erk45
  // run (spring_mass has no event at all; two_tanks has two independent
  // parts, each ahead of the other in turn), or of a run without states.
  const std::string two_tanks = R"({"ctde": 1, "director": {"stop_time": 40},
    "actors": [{"name": "in1", "type": "Sine", "params": {"amplitude": 0.8, "frequency": 0.1, "bias": 1}},
               {"name": "x1", "type": "Integrator", "params": {"initial": 0}},
               {"name": "d1", "type": "Gain", "params": {"k": -0.5}},
               {"name": "s1", "type": "Sum", "params": {"signs": "++"}},
               {"name": "x2", "type": "Integrator", "params": {"initial": 3}},
               {"name": "d2", "type": "Gain", "params": {"k": -0.3}},
               {"name": "level", "type": "LevelCrossingDetector", "params": {"level": 1.5, "direction": "both"}},
               {"name": "count", "type": "Counter"}],
    "connections": [["in1.out", "s1.in0"], ["x1.out", "d1.in"], ["d1.out", "s1.in1"], ["s1.out", "x1.in"],
                    ["x2.out", "d2.in"], ["d2.out", "x2.in"], ["x1.out", "level.in"], ["level.out", "count.in"]],
    "record": ["x1.out", "x2.out", "count.out"]})";
  const std::string mm1 = R"({"ctde": 1, "director": {"stop_time": 30},
    "actors": [{"name": "arrivals", "type": "PoissonClock", "params": {"mean_interval": 1.5, "seed": 3}},
               {"name": "server", "type": "Server", "params": {"service_time": 1.2}}],
    "connections": [["arrivals.out", "server.in"]], "record": ["server.out"]})";
  for (const auto& [name, load] : std::vector<std::pair<std::string, std::function<Model()>>>{
           {"mixed", text(kMixed)},
           {"bouncing_ball", example("bouncing_ball")},
           {"tank_queue", example("tank_queue")},
           {"spring_mass", example("spring_mass")},
           {"two_tanks", text(two_tanks)},
           {"mm1", text(mm1)}}) {
    CAPTURE(name);
    check_checkpoints_at_every_chance(load);
  }
}

TEST_CASE("checkpoints with every solver change nothing and resume exactly") {
  // The ball's impacts restart every solver: the SUNDIALS methods' places.
  // ARKODE's restarts are full re-initializations (its Reset kept the step
  // counter and the controller's past errors, which a resumed run's new
  // integrator lacks: erk23, rkf45 and ARKODE's erk45 then resumed a few
  // steps apart).
  const std::string ball = read_example("bouncing_ball.json");
  for (const std::string solver : {"erk23", "rkf45", "dirk", "ark-imex", "bdf", "auto"}) {
    CAPTURE(solver);
    nlohmann::json model = nlohmann::json::parse(ball);
    model["director"]["solver"] = solver;
    const auto load = text(model.dump());
    check_checkpoints_at_every_chance(load);
  }
}

TEST_CASE("every registered actor type's run state resumes exactly") {
  for (const auto& entry : builtin_actors().entries()) {
    if (entry.type == "FMU") continue;  // tests/fmi/test_fmu_snapshots.cpp
    CAPTURE(entry.type);
    if (entry.type == "Stop") {  // ends the run at its first token, at 0: no snapshot after that
      bool taken = false;
      const Written stopped = run_written(text(sample_model(entry, 2.0)), [&](Director& d) {
        d.snapshot_at(1.0, [&](const RunSnapshot&) { taken = true; });
      });
      CHECK(stopped.result.status == RunStatus::kStopped);
      CHECK(!taken);
      continue;
    }
    // Snapshots at a time of the input clock's events (0.25 k) and between two.
    for (const double at : {1.0, 1.1}) {
      CAPTURE(at);
      check_resumes_exactly(text(sample_model(entry, 2.0)), at);
    }
  }
}

TEST_CASE("a snapshot of another model, or of other parameters, is refused") {
  RunSnapshot snapshot;
  run_written(text(kMixed),
              [&](Director& d) { d.snapshot_at(1.0, [&](const RunSnapshot& s) { snapshot = s; }); });
  REQUIRE(!snapshot.body.empty());

  SUBCASE("another model") {
    Model model = example("thermostat")();
    const FlatModel flat = validate(model);
    Director director(flat, make_run_options(model.director(), model.parameters()), "thermostat");
    CHECK_THROWS_WITH_AS(director.resume_from(snapshot, false),
                         "the snapshot was taken of another model: its actors, ports, connections, states or "
                         "time resolution differ from this one's",
                         SnapshotError);
  }
  SUBCASE("another parameter value, unless asked for") {
    std::string changed = kMixed;
    const std::string from = R"("service_time": 0.4)";
    changed.replace(changed.find(from), from.size(), R"("service_time": 0.5)");
    Model model = text(changed)();
    const FlatModel flat = validate(model);
    Director director(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_THROWS_WITH_AS(
        director.resume_from(snapshot, false),
        "the snapshot: actor 'server' (Server) has other parameter values than in the run that "
        "took it (to change parameters on resuming, set them with --set)",
        SnapshotError);
    Director allowed(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_NOTHROW(allowed.resume_from(snapshot, true));
  }
  SUBCASE("a truncated or corrupt body") {
    Model model = text(kMixed)();
    const FlatModel flat = validate(model);
    RunSnapshot cut = snapshot;
    cut.body.resize(cut.body.size() / 2);
    Director director(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_THROWS_AS(director.resume_from(cut, false), SnapshotError);
    RunSnapshot version = snapshot;
    version.body[0] = std::byte{9};
    Director second(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_THROWS_WITH_AS(second.resume_from(version, false),
                         "the snapshot: its body is of version 9; this ctde reads version 3", SnapshotError);
  }
  SUBCASE("a stop time later than the first run's") {
    std::string later = kMixed;
    const std::string from = R"("stop_time": 4,)";
    later.replace(later.find(from), from.size(), R"("stop_time": 5,)");
    Model model = text(later)();
    const FlatModel flat = validate(model);
    Director director(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_THROWS_WITH_AS(
        director.resume_from(snapshot, false),
        "the snapshot: it was taken in a run that stops at 4 s, and its actors planned their "
        "events up to that time: a run resumed from it may stop then or before, not at 5 s",
        SnapshotError);
  }
  SUBCASE("a stop time not after the snapshot's") {
    std::string early = kMixed;
    const std::string from = R"("stop_time": 4,)";
    early.replace(early.find(from), from.size(), R"("stop_time": 1,)");
    Model model = text(early)();
    const FlatModel flat = validate(model);
    Director director(flat, make_run_options(model.director(), model.parameters()), "m");
    CHECK_THROWS_WITH_AS(director.resume_from(snapshot, false),
                         "the snapshot was taken at 1 s, not before this run's stop time (1 s): there is "
                         "nothing left to run",
                         SnapshotError);
  }
}

TEST_CASE("a run resumed with an earlier stop time writes the first run's rows up to it") {
  RunSnapshot snapshot;
  const Written whole = run_written(
      text(kMixed), [&](Director& d) { d.snapshot_at(1.0, [&](const RunSnapshot& s) { snapshot = s; }); });
  std::string earlier = kMixed;
  const std::string from = R"("stop_time": 4,)";
  earlier.replace(earlier.find(from), from.size(), R"("stop_time": 3,)");
  const Written resumed = run_written(text(earlier), [&](Director& d) { d.resume_from(snapshot, false); });
  REQUIRE(resumed.result.status == RunStatus::kOk);
  CHECK(resumed.result.time == 3.0);
  std::vector<std::string> expected;
  for (const std::string& row : rows_after(whole.csv, 1.0)) {
    if (std::stod(row.substr(0, row.find(','))) < 3.0) expected.push_back(row);
  }
  const std::vector<std::string> got = body_lines(resumed.csv);
  REQUIRE(got.size() > expected.size());  // and the rows at 3 s, its end
  CHECK(std::vector<std::string>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(expected.size())) ==
        expected);
}

TEST_CASE("a snapshot of a paused run is the snapshot snapshot_at takes there, and the run goes on alike") {
  RunSnapshot at_time;
  const Written whole = run_written(
      text(kMixed), [&](Director& d) { d.snapshot_at(1.25, [&](const RunSnapshot& s) { at_time = s; }); });
  RunSnapshot paused;
  const Written pieces = run_written(text(kMixed), [&](Director& d) {
    CHECK(d.advance_to(0.5));
    CHECK_THROWS_AS(d.advance_to(0.25), std::invalid_argument);  // behind where it stands
    CHECK(d.advance_to(1.25));
    CHECK(d.advance_to(1.25));  // already there: stays
    paused = d.snapshot();
  });
  CHECK(paused.tag.time == at_time.tag.time);
  CHECK(paused.tag.microstep == at_time.tag.microstep);
  // Pausing at 0.5 lands the solver there, as a time event would: the two
  // runs differ after it, so compare each with its own resumed run.
  const Written resumed = run_written(text(kMixed), [&](Director& d) { d.resume_from(paused, false); });
  CHECK(body_lines(resumed.csv) == rows_after(pieces.csv, 1.25));
  CHECK(trace_after(resumed.trace, 1.25) == trace_after(pieces.trace, 1.25));
  CHECK(whole.result.status == RunStatus::kOk);
}

TEST_CASE("a pure discrete-event run advanced in pieces writes what it writes in one go") {
  const std::string model = R"({"ctde": 1, "director": {"stop_time": 20},
    "actors": [{"name": "arrivals", "type": "PoissonClock", "params": {"mean_interval": 1.5, "seed": 3}},
               {"name": "server", "type": "Server", "params": {"service_time": 1.2}}],
    "connections": [["arrivals.out", "server.in"]], "record": ["server.out"]})";
  const Written once = run_written(text(model), [](Director&) {});
  // Pauses at times with events (the first arrival, a departure): nothing changes.
  const Written at_events = run_written(text(model), [](Director& d) {
    for (const double t : {0.0, 1.227269862746, 2.427269862746}) CHECK(d.advance_to(t));
  });
  CHECK(at_events.csv == once.csv);
  CHECK(at_events.trace == once.trace);
  // A pause between events ends a phase there, as a time event would: its
  // row (3.5, 0) is the one thing added.
  const Written between = run_written(text(model), [](Director& d) { CHECK(d.advance_to(3.5)); });
  std::vector<std::string> rows = body_lines(once.csv);
  std::vector<std::string> added = body_lines(between.csv);
  REQUIRE(added.size() == rows.size() + 1);
  const auto at = std::find(added.begin(), added.end(), "3.5,0,");
  REQUIRE(at != added.end());
  added.erase(at);
  CHECK(added == rows);
  CHECK(between.trace == once.trace);
}

TEST_CASE("advance_to says when the run ended before the pause, and snapshot() needs a pause") {
  const std::string model = R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "count", "type": "Counter"}],
    "connections": [["clock.out", "count.in"]]})";
  Model m = text(model)();
  const FlatModel flat = validate(m);
  Director director(flat, make_run_options(m.director(), m.parameters()), "m");
  CHECK_THROWS_AS(director.snapshot(), std::logic_error);
  CHECK(director.advance_to(2.0));
  CHECK(!director.advance_to(5.0));  // the stop time: the run ended
  CHECK(director.run().status == RunStatus::kOk);
  CHECK_THROWS_AS(director.snapshot(), std::logic_error);
}

TEST_CASE("a snapshot time must be a tick from the start to before the stop") {
  Model model = text(kMixed)();
  const FlatModel flat = validate(model);
  Director director(flat, make_run_options(model.director(), model.parameters()), "m");
  CHECK_THROWS_WITH_AS(
      director.snapshot_at(4.0, [](const RunSnapshot&) {}),
      "the snapshot time 4 s must be a whole number of ticks from the start time to before the "
      "stop time (0 to 4 s)",
      ModelError);
  CHECK_THROWS_AS(director.snapshot_at(-1.0, [](const RunSnapshot&) {}), ModelError);
}

}  // namespace ctde::test
