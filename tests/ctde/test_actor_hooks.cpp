// The hooks an FMU actor needs (issue 16), on small C++ actors: an event
// asked for at a step's end, per-state absolute tolerances, and a
// recoverable failure of the derivatives.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/actor_context.hpp"
#include "core/columnar_results.hpp"
#include "core/model.hpp"
#include "core/recorded_signal.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

using namespace ctde;

namespace {

/// x' = 1 from 0; after the first accepted step that ends with x > 0.5 it
/// asks for an event, and records the times it fires and every step end.
/// With `reset`, its firing also resets x to 0 (the solver restarts at the
/// event's tick).
class StepWatcher final : public Actor {
 public:
  StepWatcher(std::string name, std::vector<double>& fired, std::vector<double>& steps, bool reset = false)
      : Actor(std::move(name), "StepWatcher", TimeMode::kContinuous),
        fired_(fired),
        steps_(steps),
        reset_(reset) {
    out_ = declare_output("out", PortKind::kContinuous, 1);
  }
  [[nodiscard]] std::size_t state_size() const override { return 1; }
  void evaluate(EvalContext& context) const override { context.output(out_)[0] = context.states()[0]; }
  void derivatives(const ReadContext& /*context*/, std::span<double> dx) const override { dx[0] = 1; }
  [[nodiscard]] bool watches_steps() const override { return true; }
  [[nodiscard]] bool step_completed(StepContext& context) const override {
    steps_.push_back(context.time());
    return fired_.empty() && context.states()[0] > 0.5;
  }
  void fire(FireContext& context) const override {
    fired_.push_back(context.time());
    if (reset_) context.mutable_states()[0] = 0;
  }

 private:
  OutputPort out_;
  std::vector<double>& fired_;
  std::vector<double>& steps_;
  bool reset_;
};

/// x' = −x from 1 (its states' scale given by `atol`).
class Decay final : public Actor {
 public:
  Decay(std::string name, double atol) : Actor(std::move(name), "Decay", TimeMode::kContinuous), atol_(atol) {
    out_ = declare_output("out", PortKind::kContinuous, 1);
  }
  [[nodiscard]] std::size_t state_size() const override { return 1; }
  void initialize(FireContext& context) const override { context.mutable_states()[0] = 1; }
  void evaluate(EvalContext& context) const override { context.output(out_)[0] = context.states()[0]; }
  void derivatives(const ReadContext& context, std::span<double> dx) const override {
    dx[0] = -context.states()[0];
  }
  void state_tolerances(std::span<double> atol) const override {
    if (atol_ != 0) atol[0] = atol_;
  }

 private:
  OutputPort out_;
  double atol_;
};

RunResult run_decay(double atol) {
  Model model("decay");
  model.add<Decay>("x", atol);
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 40;  // x falls to 4e-18: past x = atol / rtol the absolute tolerance sets the steps
  options.rtol = 1e-3;
  Director director(flat, options, "decay");
  return director.run();
}

}  // namespace

TEST_CASE("hooks: an actor watching the steps asks for an event at a step's end, and fires there") {
  std::vector<double> fired;
  std::vector<double> steps;
  Model model("watch");
  model.add<StepWatcher>("w", fired, steps);
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 2;
  options.max_step = 0.1;
  Director director(flat, options, "watch");
  const RunResult result = director.run();
  REQUIRE(result.status == RunStatus::kOk);
  REQUIRE(fired.size() == 1);
  // It fired at the end of the first step past x = 0.5 (x = t), at that
  // step end's tick: the step ends are every 0.1 s at most.
  const auto first_past = std::find_if(steps.begin(), steps.end(), [](double t) { return t > 0.5; });
  REQUIRE(first_past != steps.end());
  CHECK(std::abs(fired[0] - *first_past) <= 1e-12);
  CHECK(fired[0] > 0.5);
  CHECK(fired[0] <= 0.6 + 1e-12);
  CHECK(steps.back() == doctest::Approx(2.0));  // asked after every step, to the end
}

TEST_CASE("hooks: an actor's state tolerances reach the solver") {
  const RunResult loose = run_decay(1e-2);
  const RunResult tight = run_decay(1e-12);
  const RunResult run_default = run_decay(0);  // the run's atol, 1e-9
  REQUIRE(loose.status == RunStatus::kOk);
  REQUIRE(tight.status == RunStatus::kOk);
  CHECK(loose.stats.steps < run_default.stats.steps);
  CHECK(run_default.stats.steps < tight.stats.steps);
  const RunResult bad = run_decay(-1);
  CHECK(bad.status == RunStatus::kError);
  CHECK(bad.message.find("an actor gave a state tolerance of -1") != std::string::npos);
}

TEST_CASE(
    "hooks: a restart at a step event's tick whose first step ends less than half a tick before the stop "
    "time reaches the stop time") {
  // The event is at the tick nearest the step's end; the solver restarts
  // there with the step it had planned from the step's end, cut to reach the
  // stop time. Where the tick is earlier than the step's end, that step ends
  // short of the stop time by less than half a tick. Over these stop times
  // some events round down and some up (1 and 1.5 down, on ARKODE); with the
  // default steps (x' = 1: each step much longer than the last) the planned
  // step passes each stop. The project's stepper stretches a step that would
  // stop just short to reach the stop time, so it is run on both.
  for (const OdeIntegrator integrator : {OdeIntegrator::kArkode, OdeIntegrator::kCtde}) {
    for (const double stop : {0.8, 1.0, 1.1, 1.2, 1.5, 2.0, 3.0}) {
      const std::string on = integrator == OdeIntegrator::kArkode ? "arkode" : "ctde";
      CAPTURE(on);
      CAPTURE(stop);
      std::vector<double> fired;
      std::vector<double> steps;
      Model model("reset");
      model.add<StepWatcher>("w", fired, steps, /*reset=*/true);
      const FlatModel flat = validate(model);
      RunOptions options;
      options.stop_time = stop;
      options.integrator = integrator;
      ColumnarResults rows(resolve_record(flat, {"w.out"}));
      Director director(flat, options, "reset", nullptr, &rows);
      const RunResult result = director.run();
      REQUIRE_MESSAGE(result.status == RunStatus::kOk, result.message);
      REQUIRE(fired.size() == 1);
      CHECK(fired[0] > 0.5);
      CHECK(fired[0] <= stop);
      // x = t - fired[0] after the reset, to the end.
      REQUIRE(rows.rows() > 0);
      CHECK(rows.time().back() == stop);
      CHECK(rows.column("w.out").back() == doctest::Approx(stop - fired[0]).epsilon(1e-12));
    }
  }
}
