#include "actors/base/linear_system.hpp"

#include <algorithm>

namespace ctde {

LinearSystem::LinearSystem(std::string name, const ActorInfo& info, TimeMode mode, PortKind kind)
    : UnaryActor(std::move(name), info, mode, kind, kind) {
  a_ = declare_parameter("A", ParamKind::kMatrix);
  b_ = declare_parameter("B", ParamKind::kMatrix);
  c_ = declare_parameter("C", ParamKind::kMatrix);
  d_ = declare_parameter("D", ParamKind::kMatrix, 0.0);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void LinearSystem::configure(const ParameterScope& /*scope*/) {
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

void LinearSystem::initial_states(std::span<double> x) const { broadcast(vector(initial_), x); }

}  // namespace ctde
