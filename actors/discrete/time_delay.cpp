#include "actors/discrete/time_delay.hpp"

#include <deque>

#include "core/actor_context.hpp"

namespace ctde {

TimeDelay::TimeDelay(std::string name)
    : TokenDelay(std::move(name), kInfo, "delay", 0.0, /*whole_ticks=*/true) {}

namespace {
/// Tokens waiting for their time, oldest first (times never decrease).
struct DelayState final : ActorState {
  std::deque<Tick> due;
  std::deque<double> values;  // width values per token

  void save(StateWriter& out) const override {
    out.values(std::vector<Tick>(due.begin(), due.end()));
    out.values(std::vector<double>(values.begin(), values.end()));
  }
  void restore(StateReader& in) override {
    const std::vector<Tick> saved_due = in.values<Tick>();
    due.assign(saved_due.begin(), saved_due.end());
    const std::vector<double> saved_values = in.values<double>();
    values.assign(saved_values.begin(), saved_values.end());
    if (due.empty() != values.empty()) in.fail("a delay whose due times do not match its tokens");
  }
};
}  // namespace

std::unique_ptr<ActorState> TimeDelay::make_state() const { return std::make_unique<DelayState>(); }

void TimeDelay::fire(FireContext& context) const {
  // Tokens wait in the state until their time event: delay 0 means the
  // microstep after the token's (fire_at(now), or at once for a token sent
  // at the previous microstep), a positive delay that much later at microstep 0.
  auto& state = context.state<DelayState>();
  const Tick now = context.tag().time;
  if (context.time_event() && !state.due.empty() && state.due.front() <= now) {
    send_oldest(context, state.values);
    state.due.pop_front();
    if (!state.due.empty() && state.due.front() <= now) context.fire_at(now);  // one per microstep
  }
  if (!context.has_token(in_)) return;
  const Tick delay = context.resolution().to_ticks(scalar(duration_));
  if (now > context.stop_tick() - delay) return;  // due after the stop time
  const auto token = context.token(in_);
  // Delay 0 sends at the microstep after the one the token was sent at: a
  // token that waited for this microstep (its sender fired after this actor
  // in depth order) is due now, whatever the path that brought it.
  if (delay == 0 && context.token_sent_before(in_) && state.due.empty()) {
    context.emit(out_, token);
    return;
  }
  const bool idle = state.due.empty() || state.due.back() != now + delay;
  state.due.push_back(now + delay);
  state.values.insert(state.values.end(), token.begin(), token.end());
  if (idle) context.fire_at(now + delay);
}

}  // namespace ctde
