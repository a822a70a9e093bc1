#include "actors/discrete/unit_delay.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

UnitDelay::UnitDelay(std::string name)
    : InitialValueActor(std::move(name), kInfo, TimeMode::kDiscrete, PortKind::kDiscrete) {
  set_feedthrough(false);  // y[k] is u[k-1]: a loop through it is no causality loop
}

namespace {
/// The token received last (or `initial`, broadcast to the width).
struct UnitDelayState final : ActorState {
  std::vector<double> previous;  ///< empty before the first token (which fixes the width)

  void save(StateWriter& out) const override { out.values(previous); }
  void restore(StateReader& in) override { previous = in.values<double>(); }
};
}  // namespace

std::unique_ptr<ActorState> UnitDelay::make_state() const { return std::make_unique<UnitDelayState>(); }

void UnitDelay::fire(FireContext& context) const {
  auto& state = context.state<UnitDelayState>();
  if (context.breaks_loop()) {  // the input kept; the one before sent when a token samples the loop
    if (context.has_token(in_)) {
      const auto token = context.token(in_);
      state.previous.assign(token.begin(), token.end());
    }
    if (context.loop_sample()) {
      if (state.previous.empty()) {  // the first sample: `initial`, broadcast
        state.previous.resize(context.width(out_));
        fill_initial(state.previous);
      }
      context.emit(out_, state.previous);
    }
    return;
  }
  if (!context.has_token(in_)) return;
  const auto token = context.token(in_);
  if (state.previous.empty()) {  // the first token: `initial`, broadcast
    state.previous.resize(token.size());
    fill_initial(state.previous);
  }
  const auto out = context.scratch(token.size());
  std::copy(state.previous.begin(), state.previous.end(), out.begin());
  std::copy(token.begin(), token.end(), state.previous.begin());
  context.emit(out_, out);
}

}  // namespace ctde
