#include "actors/discrete/variable_delay.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

VariableDelay::VariableDelay(std::string name)
    : TokenDelay(std::move(name), kInfo, "initial_delay", 0.0, /*whole_ticks=*/false) {
  delay_in_ = declare_input("delay", PortKind::kDiscrete, 1, /*optional=*/true);
}

namespace {
/// Tokens waiting, by due time (equal times in arrival order), and the delay now.
struct VariableDelayState final : ActorState {
  std::multimap<Tick, std::vector<double>> waiting;
  double delay = 0.0;
  bool delay_set = false;

  void save(StateWriter& out) const override {
    out.u64(waiting.size());
    for (const auto& [due, token] : waiting) {
      out.i64(due);
      out.values(token);
    }
    out.f64(delay);
    out.boolean(delay_set);
  }
  void restore(StateReader& in) override {
    waiting.clear();
    const std::uint64_t n = in.u64();
    for (std::uint64_t i = 0; i < n; ++i) {
      const Tick due = in.i64();
      waiting.emplace_hint(waiting.end(), due, in.values<double>());  // after equal times: their order
    }
    delay = in.f64();
    delay_set = in.boolean();
  }
};
}  // namespace

std::unique_ptr<ActorState> VariableDelay::make_state() const {
  return std::make_unique<VariableDelayState>();
}

void VariableDelay::fire(FireContext& context) const {
  auto& state = context.state<VariableDelayState>();
  const Tick now = context.tag().time;
  if (context.time_event() && !state.waiting.empty() && state.waiting.begin()->first <= now) {
    const auto first = state.waiting.begin();
    context.emit(out_, first->second);
    state.waiting.erase(first);
    if (!state.waiting.empty() && state.waiting.begin()->first <= now)
      context.fire_at(now);  // one per microstep
  }
  if (context.has_token(delay_in_)) {
    const double d = context.token(delay_in_)[0];
    if (!(d >= 0) || !std::isfinite(d)) {
      throw RunError(describe() + ": input 'delay' must be a finite number >= 0, got " + format_double(d));
    }
    state.delay = d;
    state.delay_set = true;
  }
  if (!context.has_token(in_)) return;
  const double seconds = state.delay_set ? state.delay : scalar(duration_);
  const Tick delay = context.resolution().to_ticks(seconds);  // the nearest tick
  if (now > context.stop_tick() - delay) return;              // due after the stop time
  const auto token = context.token(in_);
  state.waiting.emplace(now + delay, std::vector<double>(token.begin(), token.end()));
  context.fire_at(now + delay);  // delay 0: the next microstep
}

}  // namespace ctde
