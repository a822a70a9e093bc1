// The continuous phase on its own (domains/ctde/continuous_phase_impl.hpp):
// a RunState laid out with a ContinuousPhase beside it and services that
// refuse the discrete side's calls, no director. Each phase is asked to run
// to a time and checked against closed forms: the states it stands at, the
// tick and the queued firing of a located crossing, the rows inside steps, a
// split run's parts, and a stop asked for on the way.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "domains/ctde/continuous_phase_impl.hpp"
#include "run/run_setup.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// The services of the discrete side, for a continuous phase without a
/// director. Nothing the phase runs may fire, send, stop the run or reset
/// states: actors only read in evaluate(), derivatives and guards, and a
/// located crossing queues its generator's firing for the discrete phase.
/// So each such call is refused, naming it. Before the phase starts, an
/// actor's initialize() sets its states, which, as for the director, is not
/// a reset; trace lines are kept.
class ContinuousOnly final : public DirectorServices {
 public:
  const RunState* run = nullptr;  ///< set once the run is built
  bool started = false;           ///< set once the phase has started
  std::vector<std::string> traced;

  void emit(ActorId actor, OutputPort /*output*/, std::span<const double> /*token*/) override {
    refuse("emit", actor);
  }
  void fire_at(ActorId actor, Tick /*time*/) override { refuse("fire_at", actor); }
  void request_stop(ActorId actor) override { refuse("request_stop", actor); }
  void mode_changed(ActorId actor, std::string_view /*from*/, std::string_view /*via*/,
                    std::string_view /*to*/) override {
    refuse("mode_changed", actor);
  }
  void states_changing(ActorId actor) override {
    if (started) refuse("states_changing", actor);
  }
  void trace_line(ActorId /*actor*/, std::string_view kind, std::span<const TraceField> /*fields*/) override {
    traced.emplace_back(kind);
  }
  [[nodiscard]] const TimeResolution& resolution() const override { return built().resolution_; }
  [[nodiscard]] Tick start_tick() const override { return built().start_; }
  [[nodiscard]] Tick stop_tick() const override { return built().stop_; }

 private:
  [[nodiscard]] const RunState& built() const {
    if (run == nullptr) throw std::logic_error("ContinuousOnly: asked before the run was built");
    return *run;
  }
  [[noreturn]] void refuse(const char* call, ActorId actor) const {
    throw std::logic_error(concat({"the continuous phase called ", call, " for ", built().flat(actor).path}));
  }
};

/// A results sink as strict as the ResultsSink contract: a row is begun,
/// gets exactly one value() or absent() per signal at its width, and ended;
/// anything else is refused. Keeps the rows.
class StrictRows final : public ResultsSink {
 public:
  struct Row {
    RowTime time;
    std::uint32_t microstep = 0;
    std::vector<double> values;
  };
  std::vector<Row> rows;

  explicit StrictRows(std::vector<RecordedSignal> signals) : signals_(std::move(signals)) {}

  [[nodiscard]] const std::vector<RecordedSignal>& signals() const override { return signals_; }
  void begin_row(const RowTime& time, std::uint32_t microstep) override {
    if (open_) throw std::logic_error("begin_row inside a row");
    open_ = true;
    next_ = 0;
    rows.push_back({time, microstep, {}});
  }
  void value(std::span<const double> values) override {
    next_signal(static_cast<std::uint32_t>(values.size()));
    rows.back().values.insert(rows.back().values.end(), values.begin(), values.end());
  }
  void absent(std::uint32_t width) override {
    next_signal(width);
    rows.back().values.insert(rows.back().values.end(), width, std::nan(""));
  }
  void end_row() override {
    if (!open_ || next_ != signals_.size()) throw std::logic_error("end_row before every signal");
    open_ = false;
  }
  void flush() override {}
  [[nodiscard]] bool failed() const override { return false; }

 private:
  void next_signal(std::uint32_t width) {
    if (!open_ || next_ >= signals_.size()) throw std::logic_error("a value outside a row");
    if (width != static_cast<std::uint32_t>(signals_[next_].width))
      throw std::logic_error("a value of the wrong width");
    ++next_;
  }
  std::vector<RecordedSignal> signals_;
  bool open_ = false;
  std::size_t next_ = 0;
};

/// A model's continuous phase where the director would start it: laid out,
/// the actors initialized, the parts' solvers and the guards started, the
/// start's row written. `rows`: its rows go to a StrictRows sink of the
/// model's recorded signals (none are written otherwise).
struct StandalonePhase {
  Model model;
  RunSetup setup;
  ContinuousOnly services;
  std::optional<StrictRows> sink;
  RunState run;
  ContinuousPhase phase;

  explicit StandalonePhase(const std::string& text, bool rows = false)
      : model(load(text)),
        setup(set_up_run(model, std::nullopt)),
        sink(rows ? std::optional<StrictRows>(std::in_place, setup.signals) : std::nullopt),
        run(setup.flat, setup.options, nullptr, sink ? &*sink : nullptr, services),
        phase(run) {
    services.run = &run;
    run.lay_out(phase);
    run.initialize_actors();
    const double t0 = run.resolution_.to_seconds(run.start_);
    phase.check_states(t0);
    phase.start_parts(run.ode_options(), t0);
    phase.start_guards();
    phase.record(run.now_);
    services.started = true;
  }

  [[nodiscard]] Tick tick(double seconds) const { return run.resolution_.to_ticks(seconds); }
  [[nodiscard]] double now() const { return run.resolution_.to_seconds(run.now_.time); }
  [[nodiscard]] ActorId depth(const std::string& actor) const {
    const std::optional<FlatIndex> a = run.model_.find(actor);
    REQUIRE(a.has_value());
    return run.model_[*a].depth;
  }
  /// The first continuous state of `actor` where the run stands.
  [[nodiscard]] double state(const std::string& actor) const {
    return run.b_.x_storage[run.b_.actors[depth(actor).index()].states.offset.index()];
  }
};

/// x' = k x, x(0) = 1, for each k: an Integrator "x<i>" fed back through a Gain.
std::string decays(const std::vector<double>& rates, const std::string& subsystems, bool rows) {
  nlohmann::json model = {
      {"ctde", 1},
      {"director", {{"stop_time", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"subsystems", subsystems}}},
      {"actors", nlohmann::json::array()},
      {"connections", nlohmann::json::array()}};
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const std::string x = concat({"x", std::to_string(i)});
    const std::string k = concat({"k", std::to_string(i)});
    model["actors"].push_back({{"name", x}, {"type", "Integrator"}, {"params", {{"initial", 1.0}}}});
    model["actors"].push_back({{"name", k}, {"type", "Gain"}, {"params", {{"k", rates[i]}}}});
    model["connections"].push_back({x + ".out", k + ".in"});
    model["connections"].push_back({k + ".out", x + ".in"});
    if (rows) model["record"].push_back(x + ".out");
  }
  if (rows) model["director"]["output_interval"] = 0.25;
  return model.dump();
}

/// A ball dropped from 1 m (h'' = -9.81) and a detector of its falling through 0.
std::string falling_ball() {
  return R"({"ctde": 1, "director": {"stop_time": 1.0, "rtol": 1e-10, "atol": 1e-12},
             "actors": [{"name": "gravity", "type": "Constant", "params": {"value": -9.81}},
                        {"name": "v", "type": "Integrator", "params": {"initial": 0}},
                        {"name": "h", "type": "Integrator", "params": {"initial": 1.0}},
                        {"name": "ground", "type": "ZeroCrossingDetector", "params": {"direction": "falling"}}],
             "connections": [["gravity.out", "v.in"], ["v.out", "h.in"], ["h.out", "ground.in"]]})";
}

}  // namespace

TEST_CASE("the continuous phase on its own stands at each time it is run to, on the closed form") {
  StandalonePhase s(decays({-2.0}, "joined", /*rows=*/false));
  CHECK_FALSE(s.phase.split());
  for (const double t : {0.5, 1.0, 2.0}) {
    s.phase.run_to(s.tick(t));
    CHECK(s.run.now_ == Tag{s.tick(t), 0});
    CHECK(s.state("x0") == doctest::Approx(std::exp(-2.0 * t)).epsilon(1e-8));
  }
  CHECK(s.run.scheduler_.pending().empty());  // no crossing, nothing for the discrete phase
  CHECK(s.services.traced.empty());
}

TEST_CASE("a crossing ends the continuous phase at its tick, the generator's firing queued there") {
  StandalonePhase s(falling_ball());
  s.phase.run_to(s.tick(1.0));
  // h = 1 - 9.81 t² / 2 falls through 0 at t* = sqrt(2 / 9.81): the phase
  // stops at the crossing's tick (the first on or after it), not at 1 s.
  const double t_star = std::sqrt(2.0 / 9.81);
  const double tick = s.run.resolution_.to_seconds(1);
  CHECK(s.run.now_.microstep == 0);
  CHECK(s.now() >= t_star - 2 * tick);
  CHECK(s.now() <= t_star + 2 * tick);
  CHECK(std::abs(s.state("h")) < 1e-9);
  CHECK(s.state("v") == doctest::Approx(-9.81 * t_star).epsilon(1e-9));
  // The detector fires in the discrete phase, not here: it is queued at (te, 0).
  const std::span<const Event> pending = s.run.scheduler_.pending();
  REQUIRE(pending.size() == 1);
  CHECK(pending[0].tag() == s.run.now_);
  CHECK(pending[0].depth() == s.depth("ground"));
}

TEST_CASE("a split run's parts each reach the time they are run to, as one integrator does") {
  const std::vector<double> rates{-1.0, -3.0, -0.5};
  StandalonePhase split(decays(rates, "split", /*rows=*/false));
  StandalonePhase joined(decays(rates, "joined", /*rows=*/false));
  CHECK(split.phase.split());
  CHECK_FALSE(joined.phase.split());
  for (const double t : {0.75, 2.0}) {
    split.phase.run_to(split.tick(t));
    joined.phase.run_to(joined.tick(t));
    CHECK(split.run.now_ == joined.run.now_);
    for (std::size_t i = 0; i < rates.size(); ++i) {
      const std::string x = concat({"x", std::to_string(i)});
      INFO(x << " at " << t);
      CHECK(split.state(x) == doctest::Approx(std::exp(rates[i] * t)).epsilon(1e-8));
      CHECK(joined.state(x) == doctest::Approx(split.state(x)).epsilon(1e-8));
    }
  }
}

TEST_CASE(
    "the continuous phase writes a row at each step end and each output_interval point, on the closed "
    "form") {
  StandalonePhase s(decays({-2.0}, "joined", /*rows=*/true), /*rows=*/true);
  s.phase.run_to(s.tick(2.0));
  const std::vector<StrictRows::Row>& rows = s.sink->rows;
  REQUIRE(rows.size() > 9);
  std::vector<double> grid;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const StrictRows::Row& row = rows[r];
    INFO("row " << r << " at " << row.time.seconds);
    CHECK(row.microstep == 0);
    CHECK(row.values.at(0) == doctest::Approx(std::exp(-2.0 * row.time.seconds)).epsilon(1e-8));
    if (r > 0) CHECK(row.time.seconds > rows[r - 1].time.seconds);
    // A grid point is at its exact tick: 0.25 s is a whole number of them.
    const double k = row.time.seconds / 0.25;
    if (k == std::round(k)) {
      CHECK(row.time.resolution != nullptr);
      CHECK(row.time.tick == s.tick(row.time.seconds));
      grid.push_back(row.time.seconds);
    }
  }
  CHECK(grid == std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0});
  CHECK(rows.front().time.seconds == 0.0);
  CHECK(rows.back().time.seconds == 2.0);
}

TEST_CASE("a stop asked for inside the continuous phase ends it where its last row is, the rows kept") {
  StandalonePhase s(decays({-2.0}, "joined", /*rows=*/true), /*rows=*/true);
  const std::vector<StrictRows::Row>& rows = s.sink->rows;
  s.run.stop_check_ = [&] { return !rows.empty() && rows.back().time.seconds >= 0.5; };
  CHECK_THROWS_AS(s.phase.run_to(s.tick(2.0)), RunState::Interrupted);
  REQUIRE(!rows.empty());
  CHECK(rows.back().time.seconds >= 0.5);
  CHECK(rows.back().time.seconds < 2.0);
  CHECK(s.run.now_ == Tag{s.tick(rows.back().time.seconds), 0});
  for (const StrictRows::Row& row : rows)
    CHECK(row.values.at(0) == doctest::Approx(std::exp(-2.0 * row.time.seconds)).epsilon(1e-8));
}

TEST_CASE(
    "an actor's failure inside the continuous phase is a run failure naming it, the phase short of it") {
  // x' = sqrt(1 - t): NaN after t = 1. The solver's trial stages past 1 fail
  // and are tried shorter; steps that cannot be made short enough stop the phase.
  const std::string text = R"j({"ctde": 1, "director": {"stop_time": 2.0},
      "actors": [{"name": "f", "type": "Expression", "params": {"expr": "sqrt(1 - t)", "inputs": 0}},
                 {"name": "x", "type": "Integrator", "params": {"initial": 0}}],
      "connections": [["f.out", "x.in"]]})j";
  StandalonePhase s(text);
  try {
    s.phase.run_to(s.tick(2.0));
    FAIL("the phase stepped past t = 1");
  } catch (const RunState::Failure& failure) {
    // "f: expression ... gives nan (at t = <past 1> s, at a trial stage of a step from t = <before 1> s;
    // ...)"
    const std::string& m = failure.message;
    INFO(m);
    CHECK(failure.actor == "f");
    const std::string head = "f: expression \"sqrt(1 - t)\" gives nan (at t = ";
    const std::string from = " s, at a trial stage of a step from t = ";
    REQUIRE(m.rfind(head, 0) == 0);
    const std::size_t at_from = m.find(from);
    REQUIRE(at_from != std::string::npos);
    CHECK(std::stod(m.substr(head.size())) > 1.0);
    CHECK(std::stod(m.substr(at_from + from.size())) < 1.0);
    CHECK(s.now() <= 1.0);
  }
}
