#include "actors/converters/zero_order_hold.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

ZeroOrderHold::ZeroOrderHold(std::string name) : Actor(std::move(name), kInfo, TimeMode::kHybrid) {
  in_ = declare_input("in", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kContinuous);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void ZeroOrderHold::check_widths(std::span<const int> input_widths,
                                 std::span<const int> /*output_widths*/) const {
  const auto initial = vector(initial_).size();
  if (initial != 1 && static_cast<int>(initial) != input_widths[in_.index]) {
    fail(initial_, "has " + std::to_string(initial) + " entries but the input has width " +
                       std::to_string(input_widths[in_.index]) + "; give 1 or " + std::to_string(input_widths[in_.index]));
  }
}

namespace {
/// The value held: `initial` (broadcast), then the last token.
struct HoldState final : ActorState {
  std::vector<double> held;
};
}  // namespace

std::unique_ptr<ActorState> ZeroOrderHold::make_state() const { return std::make_unique<HoldState>(); }

void ZeroOrderHold::initialize(FireContext& context) const {
  auto& state = context.state<HoldState>();
  const auto initial = vector(initial_);
  state.held.resize(context.width(out_));  // sized once, here: nothing allocates later
  for (std::size_t i = 0; i < state.held.size(); ++i) {
    state.held[i] = initial.size() == 1 ? initial[0] : initial[i];
  }
}

void ZeroOrderHold::evaluate(EvalContext& context) const {
  const auto& held = context.state<HoldState>().held;
  const auto out = context.output(out_);
  std::copy_n(held.begin(), std::min(held.size(), out.size()), out.begin());
}

void ZeroOrderHold::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& held = context.state<HoldState>().held;
  const auto token = context.token(in_);
  std::copy_n(token.begin(), std::min(held.size(), token.size()), held.begin());
}

}  // namespace ctde
