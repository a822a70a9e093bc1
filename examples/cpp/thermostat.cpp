// Two actors written in C++ — a heated room (a continuous actor) and a
// thermostat (a state-event generator) — registered beside the built-in types
// and used from a JSON model. The user guide (docs/user-guide.md) shows the
// marked regions. Writes the results CSV and prints the run's status.
//
//   T' = k (ambient - T) + rate * u;  u = 0 from the instant T rises through
//   `high`, u = 1 from the instant it falls through `low`.
//
// Usage: thermostat [results.csv]   (default: thermostat.csv in the current folder)

#include <cstdio>
#include <exception>
#include <span>
#include <string>

#include <ctde/ctde.hpp>  // the actor base class and its context, the registry, the director...

// [guide:actors]
/// A room heated at `rate` (K/h) times the heater's input u in [0, 1], losing
/// heat to `ambient` at `k` (1/h): T' = k (ambient - T) + rate u, out = T.
class Room : public ctde::Actor {
 public:
  // Who the type is, written once: the constructor and register_actor<Room>() read it.
  static constexpr ctde::ActorInfo kInfo{
      .type = "Room",
      .family = "user",
      .summary = "A heated room: T' = k (ambient - T) + rate u.",
  };

  explicit Room(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kContinuous) {
    heater_ = declare_input("heater", ctde::PortKind::kContinuous, 1);
    temperature_ = declare_output("temperature", ctde::PortKind::kContinuous, 1);
    k_ = declare_parameter("k", ctde::ParamKind::kScalar, 0.5);
    ambient_ = declare_parameter("ambient", ctde::ParamKind::kScalar, 12.0);
    rate_ = declare_parameter("rate", ctde::ParamKind::kScalar, 10.0);
    initial_ = declare_parameter("initial", ctde::ParamKind::kScalar, 15.0);
    set_feedthrough(false);  // the output is the state: the heater reaches it only through T'
  }

  [[nodiscard]] std::size_t state_size() const override { return 1; }
  void initialize(ctde::FireContext& context) const override {
    context.mutable_states()[0] = scalar(initial_);
  }
  void evaluate(ctde::EvalContext& context) const override {
    context.output(temperature_)[0] = context.states()[0];
  }
  void derivatives(const ctde::ReadContext& context, std::span<double> dxdt) const override {
    const double temperature = context.states()[0];
    const double u = context.input(heater_)[0];
    dxdt[0] = scalar(k_) * (scalar(ambient_) - temperature) + scalar(rate_) * u;
  }

 protected:
  void configure(const ctde::ParameterScope& /*scope*/) override {
    if (!(scalar(k_) > 0)) fail(k_, "must be > 0");
  }

 private:
  ctde::InputPort heater_;
  ctde::OutputPort temperature_;
  ctde::ParamHandle k_, ambient_, rate_, initial_;
};

/// A thermostat with two guards on its input T: g0 = T - high (rising: the
/// heater goes off, token 0) and g1 = T - low (falling: it goes on, token 1).
class Thermostat : public ctde::Actor {
 public:
  static constexpr ctde::ActorInfo kInfo{
      .type = "Thermostat",
      .family = "user",
      .summary = "Sends 0 when T rises through `high`, 1 when it falls through `low`.",
  };

  explicit Thermostat(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kHybrid) {
    in_ = declare_input("in", ctde::PortKind::kContinuous, 1);
    out_ = declare_output("out", ctde::PortKind::kDiscrete, 1);
    low_ = declare_parameter("low", ctde::ParamKind::kScalar, 19.0);
    high_ = declare_parameter("high", ctde::ParamKind::kScalar, 21.0);
  }

  [[nodiscard]] std::size_t guard_count() const override { return 2; }
  [[nodiscard]] ctde::Crossing guard_direction(std::size_t i) const override {
    return i == 0 ? ctde::Crossing::kRising : ctde::Crossing::kFalling;
  }
  [[nodiscard]] std::string guard_name(std::size_t i) const override { return i == 0 ? "high" : "low"; }
  void guards(const ctde::ReadContext& context, std::span<double> g) const override {
    const double temperature = context.input(in_)[0];
    g[0] = temperature - scalar(high_);
    g[1] = temperature - scalar(low_);
  }
  // Fired at each located crossing, at (te, 0); crossing(i) says which guard crossed.
  void fire(ctde::FireContext& context) const override {
    if (context.crossing(0) != ctde::Crossing::kNone) context.emit(out_, 0.0);
    if (context.crossing(1) != ctde::Crossing::kNone) context.emit(out_, 1.0);
  }

 protected:
  void configure(const ctde::ParameterScope& /*scope*/) override {
    if (!(scalar(low_) < scalar(high_))) fail(low_, "must be below 'high'");
  }

 private:
  ctde::InputPort in_;
  ctde::OutputPort out_;
  ctde::ParamHandle low_, high_;
};
// [/guide:actors]

namespace {

// [guide:model]
const char* const kModel = R"({
  "ctde": 1,
  "name": "thermostat",
  "director": { "stop_time": 5, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.05 },
  "actors": [
    { "name": "room", "type": "Room", "params": { "k": 0.5, "ambient": 12, "rate": 10, "initial": 15 } },
    { "name": "thermostat", "type": "Thermostat", "params": { "low": 19, "high": 21 } },
    { "name": "heater", "type": "ZeroOrderHold", "params": { "initial": 1 } }
  ],
  "connections": [
    ["room.temperature", "thermostat.in"], ["thermostat.out", "heater.in"], ["heater.out", "room.heater"]
  ],
  "record": ["room.temperature", "thermostat.out", "heater.out"]
})";
// [/guide:model]

ctde::RunResult run(const std::string& results_path) {
  // [guide:register]
  ctde::ActorRegistry registry;
  ctde::register_builtin_actors(registry);
  ctde::register_actor<Room>(registry);
  ctde::register_actor<Thermostat>(registry);
  ctde::Model model = ctde::load_model_text(kModel, "thermostat.json", registry);
  const ctde::FlatModel flat = ctde::validate(model);
  const ctde::RunOptions options = ctde::make_run_options(model.director(), model.parameters());
  // [/guide:register]
  ctde::CsvResults results(results_path, ctde::resolve_record(flat, model.record()));
  ctde::Director director(flat, options, model.name(), nullptr, &results);
  return director.run();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string results = argc > 1 ? argv[1] : "thermostat.csv";
  try {
    const ctde::RunResult result = run(results);
    std::printf("status %s at t = %.17g h: %llu state events\n", ctde::to_string(result.status), result.time,
                static_cast<unsigned long long>(result.stats.state_events));
    return result.status == ctde::RunStatus::kError ? 3 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "thermostat: %s\n", e.what());
    return 2;
  }
}
