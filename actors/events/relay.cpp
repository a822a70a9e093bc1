#include "actors/events/relay.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

Relay::Relay(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous, 1) {
  on_threshold_ = declare_parameter("on_threshold", ParamKind::kScalar, 0.0);
  off_threshold_ = declare_parameter("off_threshold", ParamKind::kScalar, 0.0);
  on_value_ = declare_parameter("on_value", ParamKind::kScalar, 1.0);
  off_value_ = declare_parameter("off_value", ParamKind::kScalar, 0.0);
  initial_ = declare_parameter("initial", ParamKind::kString, "off");
  set_feedthrough(false);  // the output changes only at the relay's own events
}

void Relay::configure(const ParameterScope& /*scope*/) {
  for (const ParamHandle p : {on_threshold_, off_threshold_, on_value_, off_value_}) {
    if (!std::isfinite(scalar(p))) fail(p, "must be finite, got " + format_double(scalar(p)));
  }
  if (!(scalar(off_threshold_) <= scalar(on_threshold_))) {
    fail(off_threshold_, "(" + format_double(scalar(off_threshold_)) + ") must not exceed 'on_threshold' (" +
                             format_double(scalar(on_threshold_)) + "): the thresholds of a hysteresis");
  }
  if (text(initial_) != "on" && text(initial_) != "off") {
    fail(initial_, "must be \"on\" or \"off\", got \"" + text(initial_) + "\"");
  }
}

namespace {
struct RelayState final : ActorState {
  bool on = false;

  void save(StateWriter& out) const override { out.boolean(on); }
  void restore(StateReader& in) override { on = in.boolean(); }
};
}  // namespace

std::unique_ptr<ActorState> Relay::make_state() const {
  auto state = std::make_unique<RelayState>();
  state->on = text(initial_) == "on";
  return state;
}

void Relay::initialize(FireContext& context) const {
  auto& state = context.state<RelayState>();
  const double u = context.input(in_)[0];
  if (u > scalar(on_threshold_)) {
    state.on = true;
  } else if (u < scalar(off_threshold_)) {
    state.on = false;
  } else {
    state.on = text(initial_) == "on";
  }
}

Crossing Relay::guard_direction(std::size_t i) const {
  return i == 0 ? Crossing::kRising : Crossing::kFalling;
}

std::string Relay::guard_name(std::size_t i) const { return i == 0 ? "on" : "off"; }

void Relay::guards(const ReadContext& context, std::span<double> g) const {
  const double u = context.input(in_)[0];
  g[0] = u - scalar(on_threshold_);
  g[1] = u - scalar(off_threshold_);
}

void Relay::evaluate(EvalContext& context) const {
  context.output(out_)[0] = context.state<RelayState>().on ? scalar(on_value_) : scalar(off_value_);
}

void Relay::fire(FireContext& context) const {
  auto& state = context.state<RelayState>();
  if (context.crossing(0) != Crossing::kNone) state.on = true;
  if (context.crossing(1) != Crossing::kNone) state.on = false;
}

}  // namespace ctde
