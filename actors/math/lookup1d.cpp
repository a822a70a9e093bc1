#include "actors/math/lookup1d.hpp"

#include <algorithm>

namespace ctde {

Lookup1D::Lookup1D(std::string name) : UnaryFunction(std::move(name), kInfo) {
  x_ = declare_parameter("x", ParamKind::kVector);
  y_ = declare_parameter("y", ParamKind::kVector);
}

void Lookup1D::configure(const ParameterScope& /*scope*/) {
  const auto x = vector(x_);
  if (x.size() < 2) fail(x_, "needs at least two points");
  if (vector(y_).size() != x.size()) {
    fail("'x' has " + std::to_string(x.size()) + " points but 'y' has " + std::to_string(vector(y_).size()));
  }
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (!(x[i] > x[i - 1])) fail(x_, "must increase strictly");
  }
}

double Lookup1D::interpolate(double u) const {
  const auto x = vector(x_);
  const auto y = vector(y_);
  if (u <= x.front()) return y.front();
  if (u >= x.back()) return y.back();
  const auto upper = std::upper_bound(x.begin(), x.end(), u);
  const auto i = static_cast<std::size_t>(upper - x.begin());
  const double w = (u - x[i - 1]) / (x[i] - x[i - 1]);
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

void Lookup1D::apply(std::span<const double> u, std::span<double> y) const {
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = interpolate(u[i]);
}

}  // namespace ctde
