#include "actors/discrete/discrete_state_space.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

DiscreteStateSpace::DiscreteStateSpace(std::string name)
    : LinearSystem(std::move(name), kInfo, TimeMode::kDiscrete, PortKind::kDiscrete) {}

namespace {
/// x[k], and room for x[k+1].
struct DiscreteStateSpaceState final : ActorState {
  std::vector<double> x;
  std::vector<double> next;

  /// x only: `next` is written by fire() before it is read. Its size is the
  /// order's (a snapshot of another order is refused).
  void save(StateWriter& out) const override { out.values(x); }
  void restore(StateReader& in) override { in.values_into(std::span<double>(x)); }
};
}  // namespace

std::unique_ptr<ActorState> DiscreteStateSpace::make_state() const {
  auto state = std::make_unique<DiscreteStateSpaceState>();
  state->x.resize(n_);
  initial_states(state->x);
  state->next.resize(n_);
  return state;
}

void DiscreteStateSpace::configure(const ParameterScope& scope) {
  LinearSystem::configure(scope);
  set_feedthrough(!zero_d_);  // D = 0: y[k] = C x[k] alone
}

std::span<double> DiscreteStateSpace::output(FireContext& context, const std::vector<double>& x,
                                             std::span<const double> u) const {
  const auto y = context.scratch(p_);
  const auto c = vector(c_);
  const auto d = vector(d_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += c[r * n_ + j] * x[j];
    if (!zero_d_) {
      for (std::size_t k = 0; k < m_; ++k) sum += d[r * m_ + k] * u[k];
    }
    y[r] = sum;
  }
  return y;
}

void DiscreteStateSpace::update(std::vector<double>& x, std::vector<double>& next,
                                std::span<const double> u) const {
  const auto a = vector(a_);
  const auto b = vector(b_);
  for (std::size_t i = 0; i < n_; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += a[i * n_ + j] * x[j];
    for (std::size_t k = 0; k < m_; ++k) sum += b[i * m_ + k] * u[k];
    next[i] = sum;
  }
  x.swap(next);
}

void DiscreteStateSpace::fire(FireContext& context) const {
  auto& state = context.state<DiscreteStateSpaceState>();
  if (context.breaks_loop()) {  // D = 0: y[k] = C x[k] is sent when a token samples the loop
    if (context.has_token(in_)) update(state.x, state.next, context.token(in_));
    if (context.loop_sample()) context.emit(out_, output(context, state.x, {}));
    return;
  }
  if (!context.has_token(in_)) return;
  const auto u = context.token(in_);
  const auto y = output(context, state.x, u);
  update(state.x, state.next, u);
  context.emit(out_, y);
}

}  // namespace ctde
