#include "actors/converters/zero_order_hold.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

ZeroOrderHold::ZeroOrderHold(std::string name)
    : InitialValueActor(std::move(name), kInfo, TimeMode::kHybrid, PortKind::kContinuous) {}

namespace {
/// The value held: `initial` (broadcast), then the last token.
struct HoldState final : ActorState {
  std::vector<double> held;
};
}  // namespace

std::unique_ptr<ActorState> ZeroOrderHold::make_state() const { return std::make_unique<HoldState>(); }

void ZeroOrderHold::initialize(FireContext& context) const {
  auto& state = context.state<HoldState>();
  state.held.resize(context.width(out_));  // sized once, here: nothing allocates later
  fill_initial(state.held);
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
