#include "actors/math/gain.hpp"

namespace ctde {

Gain::Gain(std::string name) : UnaryFunction(std::move(name), kInfo) {
  k_ = declare_parameter("k", ParamKind::kMatrix, 1.0);
}

void Gain::configure(const ParameterScope& /*scope*/) {
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

void Gain::local_jacobian(LocalJacobian& jacobian) const {
  const std::uint32_t rows = jacobian.output_width(out_.index);
  const std::uint32_t cols = jacobian.input_width(in_.index);
  if (scalar_) {
    for (std::uint32_t i = 0; i < rows && i < cols; ++i)
      jacobian.output_input(out_.index, i, in_.index, i, k_scalar_);
    return;
  }
  const auto k = vector(k_);
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < cols; ++c) {
      const double v = k[r * cols + c];
      if (v != 0.0) jacobian.output_input(out_.index, r, in_.index, c, v);
    }
  }
}

Kernel Gain::kernel() const {
  if (!scalar_) return {};
  return {Kernel::Output::kScale, Kernel::Derivatives::kVirtual, k_scalar_, {}};
}

}  // namespace ctde
