#include "actors/discrete/server.hpp"

#include <cmath>

#include "core/format.hpp"

#include <algorithm>
#include <deque>

#include "core/actor_context.hpp"

namespace ctde {

Server::Server(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  in_ = declare_input("in", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete);
  service_ = declare_parameter("service_time", ParamKind::kScalar);
  set_feedthrough(false);
}

void Server::configure(const ParameterScope& scope) {
  (void)scope;
  if (!(scalar(service_) >= 0) || !std::isfinite(scalar(service_))) {
    fail(service_, "must be a finite number >= 0, got " + format_double(scalar(service_)));
  }
}

namespace {
/// The customers in the system: the first is in service until `busy_until`.
struct ServerState final : ActorState {
  std::deque<double> tokens;  // width values per customer, in arrival order
  std::size_t size = 0;
  Tick busy_until = kNever;  // kNever: idle
};
}  // namespace

std::unique_ptr<ActorState> Server::make_state() const { return std::make_unique<ServerState>(); }

void Server::fire(FireContext& context) const {
  auto& state = context.state<ServerState>();
  const std::size_t width = context.width(out_);
  const Tick now = context.tag().time;
  const Tick service = context.resolution().to_ticks(scalar(service_));
  bool start_next = false;
  if (state.busy_until == now && context.time_event()) {  // a departure
    const auto token = context.scratch(width);
    std::copy_n(state.tokens.begin(), width, token.begin());
    state.tokens.erase(state.tokens.begin(), state.tokens.begin() + static_cast<std::ptrdiff_t>(width));
    --state.size;
    state.busy_until = kNever;
    context.emit(out_, token);
    start_next = state.size > 0;
  }
  if (context.has_token(in_)) {
    const auto token = context.token(in_);
    state.tokens.insert(state.tokens.end(), token.begin(), token.end());
    ++state.size;
    start_next = start_next || state.busy_until == kNever;
  }
  if (start_next && state.busy_until == kNever) {
    state.busy_until = now + service;
    context.fire_at(state.busy_until);  // service 0: the next microstep
  }
}

void Server::check_times(const TimeResolution& resolution) const {
  check_duration(service_, resolution, /*zero_allowed=*/true);
}

}  // namespace ctde
