// Sweeps from a warm start (sweep/warm_start.hpp): every run is, bit for
// bit, the run resumed alone from a snapshot taken at T of the model with
// its own values, with the run's values set on resuming: its rows after T,
// its status and its counters. The warm-up crosses the fork of local
// workers and its bytes a process boundary unchanged; what cannot be
// resumed is refused before any run, at its place in the sweep file.
#include <doctest/doctest.h>

#include <bit>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/actor_context.hpp"
#include "core/columnar_results.hpp"
#include "core/error.hpp"
#include "core/model_file.hpp"
#include "core/registry.hpp"
#include "core/state_stream.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"
#include "support/cli_helpers.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/warm_start.hpp"
#include "sweep/worker_pool.hpp"

using ctde::ActorRegistry;
using ctde::ColumnarResults;
using ctde::Director;
using ctde::ModelError;
using ctde::ParameterOverrides;
using ctde::RunSnapshot;
using ctde::results::RunRecord;
using ctde::sweep::SweepModel;

namespace {

/// The sweep of model text `model` with sweep text `spec`, checked and
/// warmed up as the command does (with `types`).
SweepModel warmed(const std::string& model, const std::string& spec,
                  const ActorRegistry& types = ctde::builtin_actors()) {
  SweepModel sweep{"model.json", ".", model, ctde::sweep::parse_sweep(spec, "sweep.json"), &types, nullptr};
  ctde::sweep::check_model(sweep, "sweep.json");
  if (sweep.spec.warm_start_until) sweep.warm_start = ctde::sweep::warm_up(sweep, "sweep.json");
  return sweep;
}

/// The ModelError of warming `spec` up on `model`, or "".
std::string refusal(const std::string& model, const std::string& spec,
                    const ActorRegistry& types = ctde::builtin_actors()) {
  try {
    (void)warmed(model, spec, types);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

/// `value` as a --set text, exact (17 significant digits), written apart from the sweep's own formatting.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// The run of `model`'s text with `overrides` and the sweep's stop time;
/// `configure` sets its director up (a snapshot to take, one to resume from).
RunRecord run_alone(const SweepModel& sweep, const ParameterOverrides& overrides,
                    const std::function<void(Director&)>& configure) {
  ctde::Model loaded = ctde::load_model_text(sweep.text, sweep.path, *sweep.types, overrides, sweep.folder);
  ctde::RunSetup setup = ctde::set_up_run(loaded, sweep.spec.stop_time);
  ColumnarResults rows(std::move(setup.signals));
  Director director(setup.flat, setup.options, loaded.name(), nullptr, &rows);
  configure(director);
  RunRecord record;
  ctde::results::fill_record(record, director.run(), rows);
  return record;
}

/// The rows of `record` whose time `keep` accepts.
RunRecord rows_where(const RunRecord& record, const std::function<bool(double)>& keep) {
  RunRecord out;
  const std::size_t rows = record.time.size();
  std::vector<std::size_t> kept;
  for (std::size_t r = 0; r < rows; ++r) {
    if (keep(record.time[r])) kept.push_back(r);
  }
  for (const std::size_t r : kept) {
    out.time.push_back(record.time[r]);
    out.microstep.push_back(record.microstep[r]);
  }
  for (const auto& signal : record.signals) {
    auto& copy = out.signals.emplace_back(signal.name, signal.width, std::vector<double>{}, signal.discrete);
    for (std::uint32_t e = 0; e < signal.width; ++e) {
      for (const std::size_t r : kept) copy.values.push_back(signal.values[e * rows + r]);
    }
  }
  return out;
}

/// The doubles of `values` as bits: equal when the same bit for bit (NaN included).
std::vector<std::uint64_t> bits(const std::vector<double>& values) {
  std::vector<std::uint64_t> out;
  out.reserve(values.size());
  for (const double v : values) out.push_back(std::bit_cast<std::uint64_t>(v));
  return out;
}

/// Checks that `a` and `b` hold the same rows, bit for bit.
void check_same_rows(const RunRecord& a, const RunRecord& b) {
  CHECK(bits(a.time) == bits(b.time));
  CHECK(a.microstep == b.microstep);
  REQUIRE(a.signals.size() == b.signals.size());
  for (std::size_t i = 0; i < a.signals.size(); ++i) {
    CAPTURE(a.signals[i].name);
    CHECK(a.signals[i].name == b.signals[i].name);
    CHECK(a.signals[i].width == b.signals[i].width);
    CHECK(bits(a.signals[i].values) == bits(b.signals[i].values));
  }
}

/// Checks that the outcome of `a` (status, message, end, counters) is `b`'s.
void check_same_outcome(const RunRecord& a, const RunRecord& b) {
  CHECK(a.status == b.status);
  CHECK(a.message == b.message);
  CHECK(a.end_time == b.end_time);
  CHECK(a.stats.steps == b.stats.steps);
  CHECK(a.stats.rejected_steps == b.stats.rejected_steps);
  CHECK(a.stats.rhs_evals == b.stats.rhs_evals);
  CHECK(a.stats.events == b.stats.events);
  CHECK(a.stats.time_events == b.stats.time_events);
  CHECK(a.stats.state_events == b.stats.state_events);
}

/// Checks every run of the warm-started `sweep` against the runs resumed
/// one by one, with their values set, from a snapshot at T taken (by
/// Director::snapshot_at, on a run that goes on to the stop time) of the
/// model with its own values.
void check_against_runs_resumed_alone(const SweepModel& sweep) {
  const double until = *sweep.spec.warm_start_until;
  std::optional<RunSnapshot> snapshot;
  (void)run_alone(sweep, {},
                  [&](Director& d) { d.snapshot_at(until, [&](const RunSnapshot& s) { snapshot = s; }); });
  REQUIRE(snapshot.has_value());
  for (std::uint64_t k = 0; k < sweep.spec.run_count(); ++k) {
    CAPTURE(k);
    const RunRecord run = ctde::sweep::run_one(sweep, k, [] { return false; });
    ParameterOverrides set;
    for (const auto& [name, value] : sweep.spec.values(k)) set.emplace_back(name, exact(value));
    const RunRecord alone = run_alone(sweep, set, [&](Director& d) { d.resume_from(*snapshot, true); });
    CHECK(run.parameters == sweep.spec.values(k));
    REQUIRE(run.warm_start_until.has_value());
    CHECK(*run.warm_start_until == until);
    CHECK(!alone.time.empty());
    CHECK(rows_where(run, [&](double t) { return t <= until; }).time.empty());
    check_same_rows(run, alone);
    check_same_outcome(run, alone);
  }
}

const std::string kBallGrid = R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.75, 0.9]},
  "random": {"h0": {"uniform": [5, 15]}}, "samples": 2, "seed": 4, "stop_time": 6,
  "warm_start": {"until": UNTIL}})";

std::string ball_sweep(const std::string& until) {
  std::string spec = kBallGrid;
  spec.replace(spec.find("UNTIL"), 5, until);
  return spec;
}

/// A pass-through whose run state a snapshot cannot hold (as a Python actor's).
class Unsaveable final : public ctde::Actor {
 public:
  static constexpr ctde::ActorInfo kInfo{.type = "Unsaveable",
                                         .family = "test",
                                         .summary = "y = u; its state cannot be saved.",
                                         .sample_params = "{}"};
  explicit Unsaveable(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kUnresolved) {
    in_ = declare_input("in", ctde::PortKind::kPolymorphic);
    out_ = declare_output("out", ctde::PortKind::kPolymorphic);
  }
  void evaluate(ctde::EvalContext& context) const override {
    const auto u = context.input(in_);
    const auto y = context.output(out_);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = u[i];
  }
  [[nodiscard]] std::unique_ptr<ctde::ActorState> make_state() const override {
    struct State final : ctde::ActorState {
      void save(ctde::StateWriter& /*out*/) const override {
        throw ctde::SnapshotError("actor 'u' (Unsaveable) keeps its state where a snapshot cannot reach it");
      }
    };
    return std::make_unique<State>();
  }

 private:
  ctde::InputPort in_;
  ctde::OutputPort out_;
};

}  // namespace

TEST_CASE(
    "after T every run of a warm-started sweep is the run resumed alone from a snapshot at T with its "
    "values") {
  const std::string ball = ctde::test::read_example("bouncing_ball.json");
  SUBCASE("the ball, T between two output rows and impacts") {
    check_against_runs_resumed_alone(warmed(ball, ball_sweep("2.13")));
  }
  SUBCASE("the ball, T on an output row") { check_against_runs_resumed_alone(warmed(ball, ball_sweep("2"))); }
  SUBCASE("an M/M/1 queue: random actors, a value that fails its runs") {
    // mean_service = -1 is refused by the server at its first service after T: those runs fail, kept.
    const SweepModel sweep = warmed(ctde::test::read_example("mm1_queue.json"),
                                    R"({"ctde_sweep": 1, "grid": {"mean_service": [0.5, 1.5, -1]},
                                        "samples": 2, "stop_time": 200, "warm_start": {"until": 150}})");
    check_against_runs_resumed_alone(sweep);
    CHECK(ctde::sweep::run_one(sweep, 4, [] { return false; }).status == "error");
  }
}

TEST_CASE("the runs of a warm-started sweep go on with the warm-up's random streams, whatever their seed") {
  // A cold sweep gives each sample its own actor seeds; a warm-started one resumes the warm-up's
  // generators where they stood at T: two samples of one grid point are the same run.
  const std::string model = ctde::test::read_example("mm1_queue.json");
  const std::string cold =
      R"({"ctde_sweep": 1, "grid": {"mean_service": [0.5]}, "samples": 2, "stop_time": 200})";
  const std::string warm =
      R"({"ctde_sweep": 1, "grid": {"mean_service": [0.5]}, "samples": 2, "stop_time": 200,
                               "warm_start": {"until": 150}})";
  const auto never = [] { return false; };
  const SweepModel c = warmed(model, cold);
  CHECK(bits(ctde::sweep::run_one(c, 0, never).time) != bits(ctde::sweep::run_one(c, 1, never).time));
  const SweepModel w = warmed(model, warm);
  const RunRecord first = ctde::sweep::run_one(w, 0, never);
  check_same_rows(first, ctde::sweep::run_one(w, 1, never));
  CHECK(first.time.size() > 10);
}

TEST_CASE("forked workers inherit the warm-up: --jobs 2 gives the records of --jobs 1") {
  const SweepModel sweep = warmed(ctde::test::read_example("bouncing_ball.json"), ball_sweep("2.13"));
  const auto run = [&](std::uint64_t k) { return ctde::sweep::run_one(sweep, k, [] { return false; }); };
  std::map<std::uint64_t, RunRecord> one;
  std::map<std::uint64_t, RunRecord> two;
  ctde::sweep::run_local(
      sweep.spec.run_count(), 1, run, [&](RunRecord&& r) { one.emplace(r.index, std::move(r)); },
      [] { return false; });
  ctde::sweep::run_local(
      sweep.spec.run_count(), 2, run, [&](RunRecord&& r) { two.emplace(r.index, std::move(r)); },
      [] { return false; });
  REQUIRE(one.size() == sweep.spec.run_count());
  REQUIRE(two.size() == one.size());
  for (const auto& [k, record] : one) {
    CAPTURE(k);
    check_same_rows(record, two.at(k));
    check_same_outcome(record, two.at(k));
    CHECK(two.at(k).warm_start_until == record.warm_start_until);
  }
}

TEST_CASE("a warm-up read back from its bytes gives the same runs; bytes cut short are refused") {
  const SweepModel sweep = warmed(ctde::test::read_example("bouncing_ball.json"), ball_sweep("2.13"));
  const std::vector<char> bytes = ctde::sweep::encode_warm_start(*sweep.warm_start);
  SweepModel shipped = sweep;
  shipped.warm_start = std::make_shared<const ctde::sweep::WarmStart>(ctde::sweep::decode_warm_start(bytes));
  CHECK(shipped.warm_start->snapshot.body == sweep.warm_start->snapshot.body);
  CHECK(shipped.warm_start->start_time == sweep.warm_start->start_time);
  CHECK(shipped.warm_start->stop_time == sweep.warm_start->stop_time);
  for (std::uint64_t k = 0; k < sweep.spec.run_count(); ++k) {
    CAPTURE(k);
    const RunRecord a = ctde::sweep::run_one(sweep, k, [] { return false; });
    const RunRecord b = ctde::sweep::run_one(shipped, k, [] { return false; });
    check_same_rows(a, b);
    check_same_outcome(a, b);
  }
  for (const std::size_t cut : {std::size_t{0}, std::size_t{7}, bytes.size() / 2, bytes.size() - 1}) {
    CAPTURE(cut);
    CHECK_THROWS_AS((void)ctde::sweep::decode_warm_start(std::span<const char>(bytes.data(), cut)),
                    ctde::SnapshotError);
  }
}

TEST_CASE("a warm-started run holds the rows after T and says T; a cold one says nothing") {
  const std::string ball = ctde::test::read_example("bouncing_ball.json");
  const SweepModel warm = warmed(ball, ball_sweep("2"));
  CHECK(warm.warm_start->snapshot.time == 2);
  CHECK(warm.warm_start->start_time == 0);
  CHECK(warm.warm_start->stop_time == 6);
  std::string cold_spec = ball_sweep("2");
  cold_spec.erase(cold_spec.find(",\n  \"warm_start\""), std::string::npos);
  const SweepModel cold = warmed(ball, cold_spec + "}");
  CHECK(!cold.warm_start);
  const RunRecord run = ctde::sweep::run_one(warm, 0, [] { return false; });
  REQUIRE(!run.time.empty());
  CHECK(run.time.front() > 2);
  CHECK(run.time.back() == 6);
  CHECK(run.warm_start_until == 2.0);
  const RunRecord whole = ctde::sweep::run_one(cold, 0, [] { return false; });
  CHECK(whole.time.front() == 0);
  CHECK(!whole.warm_start_until.has_value());
}

TEST_CASE(
    "a warm start that cannot be made or resumed is refused before any run, where the sweep file says it") {
  const std::string ball = ctde::test::read_example("bouncing_ball.json");
  const auto spec = [](const std::string& rest) {
    return R"({"ctde_sweep": 1, "grid": {"e": [0.6, 0.7]}, "stop_time": 6, )" + rest + "}";
  };
  using ctde::test::check_contains;
  check_contains(refusal(ball, spec(R"("warm_start": {"until": 6})")),
                 {"sweep.json at /warm_start/until", "not inside the run, from 0 to 6 s"});
  check_contains(refusal(ball, spec(R"("warm_start": {"until": -0.5})")),
                 {"sweep.json at /warm_start/until", "not inside the run"});
  check_contains(refusal(ball, spec(R"("warm_start": {"until": 2.0000000000005})")),
                 {"sweep.json at /warm_start/until", "not a whole number of ticks", "1e-12 s"});
  CHECK(refusal(ball, spec(R"("warm_start": {"until": 0})")).empty());  // after the events of the start
  SUBCASE("the warm-up ends before T") {
    std::string zeno = ball;  // e = 0.5 from 10 m: the impacts accumulate at 4.28 s
    zeno.replace(zeno.find("\"e\": 0.8"), 8, "\"e\": 0.5");
    check_contains(refusal(zeno, spec(R"("warm_start": {"until": 5})")),
                   {"sweep.json at /warm_start/until", "the warm-up", "ended at 4.28",
                    "before the warm start at 5 s", "Zeno"});
  }
  SUBCASE("a swept parameter that changes the structure or the stop time") {
    std::string model = ball;
    model.replace(model.find("\"h0\": 10 }"), 10, R"("h0": 10, "tend": 6, "res": 1e-12 })");
    model.replace(model.find("\"stop_time\": 10"), 15, R"("stop_time": "tend", "time_resolution": "res")");
    const std::string head = R"({"ctde_sweep": 1, "warm_start": {"until": 2}, )";
    check_contains(refusal(model, head + R"("grid": {"e": [0.6], "res": [1e-12, 1e-9]}})"),
                   {"sweep.json at /grid/res/1", "with res = 1e-09", "structure differs"});
    check_contains(refusal(model, head + R"("grid": {"tend": [6, 5]}})"),
                   {"sweep.json at /grid/tend/1", "with tend = 5", "from 0 to 5 s, the warm-up from 0 to 6 s",
                    "cannot sweep the start or stop time"});
    check_contains(refusal(model, head + R"("random": {"tend": {"uniform": [3, 4]}}})"),
                   {"sweep.json at /random/tend", "cannot sweep the start or stop time"});
    // The sweep's own stop time holds for every run: then the parameter does not move it.
    CHECK(refusal(model, head + R"("grid": {"tend": [6, 5]}, "stop_time": 4})").empty());
    // A value the model refuses is its runs' failure, as in any sweep, not a refusal.
    CHECK(refusal(model, head + R"("grid": {"res": [1e-12, 5]}})").empty());
  }
  SUBCASE("an actor that cannot save its state") {
    ActorRegistry types = ctde::builtin_actors();
    ctde::register_actor<Unsaveable>(types);
    const std::string model =
        R"({"ctde": 1, "name": "m", "parameters": {"k": 1}, "director": {"stop_time": 2},
      "actors": [{"name": "c", "type": "Constant", "params": {"value": "k"}}, {"name": "u", "type": "Unsaveable"},
                 {"name": "x", "type": "Integrator"}],
      "connections": [["c.out", "u.in"], ["u.out", "x.in"]], "record": ["x.out"]})";
    const std::string sweep = R"({"ctde_sweep": 1, "grid": {"k": [1, 2]}, "warm_start": {"until": 1}})";
    check_contains(refusal(model, sweep, types),
                   {"sweep.json at /warm_start", "cannot be saved at 1 s", "Unsaveable", "cannot reach it"});
    // Without a warm start the same sweep runs.
    CHECK(refusal(model, R"({"ctde_sweep": 1, "grid": {"k": [1, 2]}})", types).empty());
  }
}

TEST_CASE("a run whose values change the structure after all fails alone, naming why") {
  // Only the grid's values and run 0's draws are checked before the runs: a later draw that changes the
  // structure fails its run with the director's reason.
  std::string model = ctde::test::read_example("bouncing_ball.json");
  model.replace(model.find("\"h0\": 10 }"), 10, R"("h0": 10, "res": 1e-12 })");
  model.replace(model.find("\"stop_time\": 10"), 15, R"("stop_time": 6, "time_resolution": "res")");
  const SweepModel sweep =
      warmed(model, R"({"ctde_sweep": 1, "grid": {"e": [0.7]}, "warm_start": {"until": 2}})");
  SweepModel other = sweep;
  other.spec = ctde::sweep::parse_sweep(
      R"({"ctde_sweep": 1, "grid": {"res": [1e-12, 1e-9]}, "warm_start": {"until": 2}})", "sweep.json");
  CHECK(ctde::sweep::run_one(other, 0, [] { return false; }).status == "ok");
  const RunRecord failed = ctde::sweep::run_one(other, 1, [] { return false; });
  CHECK(failed.status == "error");
  ctde::test::check_contains(failed.message, {"cannot resume from the warm-up at 2 s", "another model"});
  CHECK(failed.warm_start_until == 2.0);
}
