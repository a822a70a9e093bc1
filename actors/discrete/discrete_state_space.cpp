#include "actors/discrete/discrete_state_space.hpp"

#include <algorithm>
#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

DiscreteStateSpace::DiscreteStateSpace(std::string name)
    : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  in_ = declare_input("in", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete);
  a_ = declare_parameter("A", ParamKind::kMatrix);
  b_ = declare_parameter("B", ParamKind::kMatrix);
  c_ = declare_parameter("C", ParamKind::kMatrix);
  d_ = declare_parameter("D", ParamKind::kMatrix, 0.0);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void DiscreteStateSpace::configure(const ParameterScope& scope) {
  (void)scope;
  const Matrix a = matrix(a_);
  const Matrix b = matrix(b_);
  const Matrix c = matrix(c_);
  const Matrix d = matrix(d_);
  const auto dims = [](const Matrix& m) { return std::to_string(m.rows) + " x " + std::to_string(m.cols); };
  const std::size_t n = a.rows;
  if (a.cols != n) fail(a_, "must be square, got " + dims(a));
  if (b.rows != n) fail(b_, "must have " + std::to_string(n) + " rows like A, got " + dims(b));
  if (c.cols != n) fail(c_, "must have " + std::to_string(n) + " columns like A, got " + dims(c));
  const std::size_t m = b.cols;
  const std::size_t p = c.rows;
  const bool zero_d = std::all_of(d.data.begin(), d.data.end(), [](double v) { return v == 0.0; });
  if (!(d.rows * d.cols == 1 && zero_d) && (d.rows != p || d.cols != m)) {
    fail(d_, "must be " + std::to_string(p) + " x " + std::to_string(m) + " (C's rows x B's columns), got " +
                 dims(d));
  }
  const std::size_t initial = vector(initial_).size();
  if (initial != 1 && initial != n) {
    fail(initial_,
         "must have " + std::to_string(n) + " entries (one per state) or 1, got " + std::to_string(initial));
  }
  set_width(in_, static_cast<int>(m));
  set_width(out_, static_cast<int>(p));
  n_ = n;
  m_ = m;
  p_ = p;
  zero_d_ = zero_d;
}

namespace {
/// x[k], and room for x[k+1].
struct DiscreteStateSpaceState final : ActorState {
  std::vector<double> x;
  std::vector<double> next;
};
}  // namespace

std::unique_ptr<ActorState> DiscreteStateSpace::make_state() const {
  auto state = std::make_unique<DiscreteStateSpaceState>();
  const auto initial = vector(initial_);
  state->x.resize(n_);
  for (std::size_t i = 0; i < n_; ++i) state->x[i] = initial.size() == 1 ? initial[0] : initial[i];
  state->next.resize(n_);
  return state;
}

void DiscreteStateSpace::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<DiscreteStateSpaceState>();
  const auto u = context.token(in_);
  const auto y = context.scratch(p_);
  const auto a = vector(a_);
  const auto b = vector(b_);
  const auto c = vector(c_);
  const auto d = vector(d_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += c[r * n_ + j] * state.x[j];
    if (!zero_d_) {
      for (std::size_t k = 0; k < m_; ++k) sum += d[r * m_ + k] * u[k];
    }
    y[r] = sum;
  }
  for (std::size_t i = 0; i < n_; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += a[i * n_ + j] * state.x[j];
    for (std::size_t k = 0; k < m_; ++k) sum += b[i * m_ + k] * u[k];
    state.next[i] = sum;
  }
  state.x.swap(state.next);
  context.emit(out_, y);
}

}  // namespace ctde
