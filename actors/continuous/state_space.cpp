#include "actors/continuous/state_space.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

StateSpace::StateSpace(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  in_ = declare_input("in", PortKind::kContinuous);
  out_ = declare_output("out", PortKind::kContinuous);
  a_ = declare_parameter("A", ParamKind::kMatrix);
  b_ = declare_parameter("B", ParamKind::kMatrix);
  c_ = declare_parameter("C", ParamKind::kMatrix);
  d_ = declare_parameter("D", ParamKind::kMatrix, 0.0);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void StateSpace::configure(const ParameterScope& scope) {
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
  set_feedthrough(!zero_d);
  n_ = n;
  m_ = m;
  p_ = p;
  zero_d_ = zero_d;
}

void StateSpace::initialize(FireContext& context) const {
  const auto initial = vector(initial_);
  const auto x = context.mutable_states();
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = initial.size() == 1 ? initial[0] : initial[i];
}

void StateSpace::evaluate(EvalContext& context) const {
  const auto x = context.states();
  const auto y = context.output(out_);
  const auto c = vector(c_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += c[r * n_ + j] * x[j];
    y[r] = sum;
  }
  if (zero_d_) return;  // no feedthrough: the input may not be computed yet
  const auto d = vector(d_);
  const auto u = context.input(in_);
  for (std::size_t r = 0; r < p_; ++r) {
    double sum = 0.0;
    for (std::size_t k = 0; k < m_; ++k) sum += d[r * m_ + k] * u[k];
    y[r] += sum;
  }
}

void StateSpace::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  const auto x = context.states();
  const auto u = context.input(in_);
  const auto a = vector(a_);
  const auto b = vector(b_);
  for (std::size_t r = 0; r < n_; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < n_; ++j) sum += a[r * n_ + j] * x[j];
    for (std::size_t k = 0; k < m_; ++k) sum += b[r * m_ + k] * u[k];
    dxdt[r] = sum;
  }
}

}  // namespace ctde
