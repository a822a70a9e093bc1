#include "actors/converters/first_order_hold.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

FirstOrderHold::FirstOrderHold(std::string name)
    : InitialValueActor(std::move(name), kInfo, TimeMode::kHybrid, PortKind::kContinuous) {}

namespace {
/// The last two tokens (`last` is `initial` before the first) and their times.
struct FirstOrderHoldState final : ActorState {
  std::vector<double> previous;
  std::vector<double> last;
  double previous_time = 0.0;
  double last_time = 0.0;
  int count = 0;  ///< tokens received, up to 2
};
}  // namespace

std::unique_ptr<ActorState> FirstOrderHold::make_state() const {
  return std::make_unique<FirstOrderHoldState>();
}

void FirstOrderHold::initialize(FireContext& context) const {
  auto& state = context.state<FirstOrderHoldState>();
  const std::size_t width = context.width(out_);
  state.previous.assign(width, 0.0);  // sized once, here: nothing allocates later
  state.last.resize(width);
  fill_initial(state.last);
  state.count = 0;
}

void FirstOrderHold::evaluate(EvalContext& context) const {
  const auto& state = context.state<FirstOrderHoldState>();
  const auto out = context.output(out_);
  const std::size_t width = std::min(out.size(), state.last.size());
  const double dt = state.last_time - state.previous_time;
  if (state.count < 2 || !(dt > 0)) {
    std::copy_n(state.last.begin(), width, out.begin());
    return;
  }
  const double f = (context.time() - state.last_time) / dt;
  for (std::size_t i = 0; i < width; ++i) {
    out[i] = state.last[i] + (state.last[i] - state.previous[i]) * f;
  }
}

void FirstOrderHold::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<FirstOrderHoldState>();
  const auto token = context.token(in_);
  std::swap(state.previous, state.last);  // no allocation: both have the width
  state.previous_time = state.last_time;
  std::copy_n(token.begin(), std::min(token.size(), state.last.size()), state.last.begin());
  state.last_time = context.resolution().to_seconds(context.tag().time);
  state.count = std::min(state.count + 1, 2);
}

}  // namespace ctde
