#include "actors/discrete/server.hpp"

#include <cmath>
#include <deque>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

Server::Server(std::string name)
    : TokenDelay(std::move(name), kInfo, "service_time", std::nullopt, /*whole_ticks=*/true) {
  service_in_ = declare_input("service_time", PortKind::kDiscrete, 1, /*optional=*/true);
}

namespace {
/// The customers in the system: the first is in service until `busy_until`.
struct ServerState final : ActorState {
  std::deque<double> tokens;  // width values per customer, in arrival order
  std::deque<Tick> services;  // each customer's service time, fixed at its arrival
  std::size_t size = 0;
  Tick busy_until = kNever;  // kNever: idle
  Tick service = -1;         // the latest service time from the input (-1: none yet)

  void save(StateWriter& out) const override {
    out.values(std::vector<double>(tokens.begin(), tokens.end()));
    out.values(std::vector<Tick>(services.begin(), services.end()));
    out.u64(size);
    out.i64(busy_until);
    out.i64(service);
  }
  void restore(StateReader& in) override {
    const std::vector<double> saved_tokens = in.values<double>();
    tokens.assign(saved_tokens.begin(), saved_tokens.end());
    const std::vector<Tick> saved_services = in.values<Tick>();
    services.assign(saved_services.begin(), saved_services.end());
    size = in.u64();
    busy_until = in.i64();
    service = in.i64();
    if (services.size() != size) in.fail("a server with a service time for each of its customers");
  }
};
}  // namespace

std::unique_ptr<ActorState> Server::make_state() const { return std::make_unique<ServerState>(); }

void Server::fire(FireContext& context) const {
  auto& state = context.state<ServerState>();
  const Tick now = context.tag().time;
  if (context.has_token(service_in_)) {
    const double seconds = context.token(service_in_)[0];
    if (!(seconds >= 0) || !std::isfinite(seconds)) {
      throw RunError(describe() + ": input 'service_time' must be a finite duration >= 0, got " +
                     format_double(seconds));
    }
    state.service = context.resolution().to_ticks(seconds);  // the nearest tick
  }
  bool start_next = false;
  if (state.busy_until == now && context.time_event()) {  // a departure
    state.services.pop_front();
    --state.size;
    state.busy_until = kNever;
    send_oldest(context, state.tokens);
    start_next = state.size > 0;
  }
  if (context.has_token(in_)) {
    const auto token = context.token(in_);
    state.tokens.insert(state.tokens.end(), token.begin(), token.end());
    if (state.service < 0 && !is_set(duration_)) {
      throw RunError(describe() +
                     ": a customer arrived before any service time: set the parameter "
                     "'service_time' or send a token on the input 'service_time' first");
    }
    state.services.push_back(state.service >= 0 ? state.service
                                                : context.resolution().to_ticks(scalar(duration_)));
    ++state.size;
    start_next = start_next || state.busy_until == kNever;
  }
  if (start_next && state.busy_until == kNever) {
    const Tick service = state.services.front();
    state.busy_until = now + service;
    context.fire_at(state.busy_until);  // service 0: the next microstep
  }
}

}  // namespace ctde
