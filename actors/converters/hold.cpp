#include "actors/converters/hold.hpp"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

Hold::Hold(std::string name, const ActorInfo& info, int order)
    : InitialValueActor(std::move(name), info, TimeMode::kHybrid, PortKind::kContinuous), order_(order) {
  assert(order == 0 || order == 1);
}

namespace {
/// The last token (`initial` before the first) and, for order 1, the one
/// before it and both times.
struct HoldState final : ActorState {
  std::vector<double> last;
  std::vector<double> previous;
  double last_time = 0.0;
  double previous_time = 0.0;
  int count = 0;  ///< tokens received, up to 2 (order 1 only)

  /// Both buffers as saved: initialize() sizes them, and is not called on restore.
  void save(StateWriter& out) const override {
    out.values(last);
    out.values(previous);
    out.f64(last_time);
    out.f64(previous_time);
    out.u8(static_cast<std::uint8_t>(count));
  }
  void restore(StateReader& in) override {
    last = in.values<double>();
    previous = in.values<double>();
    last_time = in.f64();
    previous_time = in.f64();
    count = in.u8();
    if (count > 2 || (!previous.empty() && previous.size() != last.size())) {
      in.fail("a hold's two tokens of different widths, or more than two counted");
    }
  }
};
}  // namespace

std::unique_ptr<ActorState> Hold::make_state() const { return std::make_unique<HoldState>(); }

void Hold::initialize(FireContext& context) const {
  auto& state = context.state<HoldState>();
  const std::size_t width = context.width(out_);
  state.last.resize(width);  // sized once, here: nothing allocates later
  fill_initial(state.last);
  if (order_ == 1) state.previous.assign(width, 0.0);
  state.count = 0;
}

void Hold::evaluate(EvalContext& context) const {
  const auto& state = context.state<HoldState>();
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

void Hold::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<HoldState>();
  const auto token = context.token(in_);
  if (order_ == 1) {
    std::swap(state.previous, state.last);  // no allocation: both have the width
    state.previous_time = state.last_time;
    state.last_time = context.resolution().to_seconds(context.tag().time);
    state.count = std::min(state.count + 1, 2);
  }
  std::copy_n(token.begin(), std::min(token.size(), state.last.size()), state.last.begin());
}

}  // namespace ctde
