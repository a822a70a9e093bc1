#include "actors/discrete/rate_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

RateLimiter::RateLimiter(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete) {
  rising_ = declare_parameter("rising", ParamKind::kScalar);
  falling_ = declare_parameter("falling", ParamKind::kScalar);
}

void RateLimiter::configure(const ParameterScope& /*scope*/) {
  for (const ParamHandle p : {rising_, falling_}) {
    if (!(scalar(p) >= 0)) fail(p, "must be a rate >= 0 (units per second), got " + format_double(scalar(p)));
  }
}

namespace {
/// The last output and its time (none before the first token).
struct RateLimiterState final : ActorState {
  std::vector<double> y;
  Tick last = 0;

  void save(StateWriter& out) const override {
    out.values(y);
    out.i64(last);
  }
  void restore(StateReader& in) override {
    y = in.values<double>();
    last = in.i64();
  }
};
}  // namespace

std::unique_ptr<ActorState> RateLimiter::make_state() const { return std::make_unique<RateLimiterState>(); }

void RateLimiter::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<RateLimiterState>();
  const auto u = context.token(in_);
  const Tick now = context.tag().time;
  if (state.y.empty()) {
    state.y.assign(u.begin(), u.end());
  } else {
    const double dt = context.resolution().to_seconds(now - state.last);
    // Two tokens at one time may not move the output (and an infinite rate
    // times 0 s would be NaN).
    const double up = dt == 0 ? 0.0 : scalar(rising_) * dt;
    const double down = dt == 0 ? 0.0 : scalar(falling_) * dt;
    for (std::size_t i = 0; i < u.size(); ++i) state.y[i] += std::clamp(u[i] - state.y[i], -down, up);
  }
  state.last = now;
  context.emit(out_, state.y);
}

}  // namespace ctde
