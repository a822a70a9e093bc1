#include "actors/discrete/unit_delay.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

UnitDelay::UnitDelay(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  in_ = declare_input("in", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void UnitDelay::check_widths(std::span<const int> input_widths, std::span<const int> output_widths) const {
  Actor::check_widths(input_widths, output_widths);
  const std::size_t n = vector(initial_).size();
  if (n != 1 && static_cast<int>(n) != input_widths[in_.index]) {
    fail(initial_, "has " + std::to_string(n) + " values but the input has width " +
                       std::to_string(input_widths[in_.index]) + ": give one value or one per element");
  }
}

namespace {
/// The token received last (or `initial`, broadcast to the width).
struct UnitDelayState final : ActorState {
  std::vector<double> previous;
};
}  // namespace

std::unique_ptr<ActorState> UnitDelay::make_state() const { return std::make_unique<UnitDelayState>(); }

void UnitDelay::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<UnitDelayState>();
  const auto token = context.token(in_);
  if (state.previous.empty()) {  // the first token: `initial`, broadcast
    const auto initial = vector(initial_);
    state.previous.resize(token.size());
    for (std::size_t i = 0; i < token.size(); ++i) state.previous[i] = initial[initial.size() == 1 ? 0 : i];
  }
  const auto out = context.scratch(token.size());
  std::copy(state.previous.begin(), state.previous.end(), out.begin());
  std::copy(token.begin(), token.end(), state.previous.begin());
  context.emit(out_, out);
}

}  // namespace ctde
