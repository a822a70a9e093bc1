#include "actors/sources/input.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/state_stream.hpp"

namespace ctde {

namespace {
/// The value the output has and the one given for the next firing.
struct InputState final : ActorState {
  std::vector<double> value;
  std::vector<double> given;

  void save(StateWriter& out) const override {
    out.values(value);
    out.values(given);
  }
  void restore(StateReader& in) override {
    value = in.values<double>();
    given = in.values<double>();
    if (given.size() != value.size()) in.fail("an input's given value of another width than its value");
  }
};
}  // namespace

Input::Input(std::string name) : Actor(std::move(name), kInfo, TimeMode::kHybrid) {
  out_ = declare_output("out", PortKind::kContinuous);
  start_ = declare_parameter("start", ParamKind::kVector);
  set_feedthrough(false);
}

void Input::configure(const ParameterScope& /*scope*/) {
  set_width(out_, static_cast<int>(vector(start_).size()));
}

std::unique_ptr<ActorState> Input::make_state() const { return std::make_unique<InputState>(); }

void Input::initialize(FireContext& context) const {
  auto& state = context.state<InputState>();
  const auto start = vector(start_);
  state.value.assign(start.begin(), start.end());
  state.given = state.value;
}

void Input::evaluate(EvalContext& context) const {
  const auto& state = context.state<InputState>();
  std::copy(state.value.begin(), state.value.end(), context.output(out_).begin());
}

void Input::fire(FireContext& context) const {
  auto& state = context.state<InputState>();
  state.value = state.given;  // same width: no allocation
}

bool Input::take(ActorState& state, std::span<const double> value) const {
  auto& mine = static_cast<InputState&>(state);
  if (value.size() != mine.given.size()) {
    throw ModelError(describe() + ": a value of width " + std::to_string(value.size()) +
                     " given to an input of width " + std::to_string(mine.given.size()));
  }
  std::copy(value.begin(), value.end(), mine.given.begin());
  return !std::equal(value.begin(), value.end(), mine.value.begin());
}

void Input::hold(ActorState& state, std::span<const double> value) const {
  (void)take(state, value);
  auto& mine = static_cast<InputState&>(state);
  mine.value = mine.given;  // same width: no allocation
}

}  // namespace ctde
