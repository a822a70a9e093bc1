#include "actors/math/gain.hpp"

namespace ctde {

Gain::Gain(std::string name) : UnaryFunction(std::move(name), kInfo) {
  k_ = declare_parameter("k", ParamKind::kMatrix, 1.0);
}

void Gain::configure(const ParameterScope& scope) {
  (void)scope;
  const Matrix k = matrix(k_);
  scalar_ = k.rows * k.cols == 1;
  k_scalar_ = k.data[0];
  if (scalar_) return;
  set_width(in_, static_cast<int>(k.cols));
  set_width(out_, static_cast<int>(k.rows));
}

void Gain::apply(std::span<const double> u, std::span<double> y) const {
  if (scalar_) {  // k kept in the actor itself: no trip to the parameter storage
    for (std::size_t i = 0; i < u.size(); ++i) y[i] = k_scalar_ * u[i];
    return;
  }
  const auto k = vector(k_);
  const std::size_t cols = u.size();
  for (std::size_t r = 0; r < y.size(); ++r) {
    double sum = 0;
    for (std::size_t c = 0; c < cols; ++c) sum += k[r * cols + c] * u[c];
    y[r] = sum;
  }
}

Kernel Gain::kernel() const {
  if (!scalar_) return {};
  return {Kernel::Output::kScale, Kernel::Derivatives::kVirtual, k_scalar_, {}};
}

}  // namespace ctde
