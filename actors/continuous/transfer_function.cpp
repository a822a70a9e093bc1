#include "actors/continuous/transfer_function.hpp"

#include <algorithm>

#include "core/actor_context.hpp"

namespace ctde {

TransferFunction::TransferFunction(std::string name)
    : UnaryActor(std::move(name), kInfo, TimeMode::kContinuous, 1) {
  num_ = declare_parameter("num", ParamKind::kVector);
  den_ = declare_parameter("den", ParamKind::kVector);
}

void TransferFunction::configure(const ParameterScope& /*scope*/) {
  auto num = vector(num_);
  const auto den = vector(den_);
  if (den.empty() || den[0] == 0.0) fail(den_, "must have a non-zero leading coefficient");
  while (num.size() > 1 && num[0] == 0.0) num = num.subspan(1);
  if (num.size() > den.size()) {
    fail("the numerator's degree (" + std::to_string(num.size() - 1) + ") exceeds the denominator's (" +
         std::to_string(den.size() - 1) + "): not proper");
  }
  set_feedthrough(num.size() == den.size() && num[0] != 0.0);

  const std::size_t n = den.size() - 1;
  // b0..bn: the numerator padded with leading zeros to n + 1 coefficients, normalised.
  std::vector<double> b(n + 1, 0.0);
  std::copy(num.begin(), num.end(), b.begin() + static_cast<std::ptrdiff_t>(n + 1 - num.size()));
  for (double& v : b) v /= den[0];
  den_norm_.assign(n, 0.0);
  out_coef_.assign(n, 0.0);
  direct_ = b[0];
  for (std::size_t i = 1; i <= n; ++i) {
    den_norm_[i - 1] = den[i] / den[0];
    out_coef_[i - 1] = b[i] - direct_ * den_norm_[i - 1];
  }
}

void TransferFunction::initialize(FireContext& context) const {
  const auto x = context.mutable_states();
  std::fill(x.begin(), x.end(), 0.0);
}

void TransferFunction::evaluate(EvalContext& context) const {
  const auto x = context.states();
  const std::size_t n = den_norm_.size();
  double y = 0.0;
  for (std::size_t i = 1; i <= n; ++i) y += out_coef_[i - 1] * x[n - i];  // ci * x(n+1-i)
  if (direct_ != 0.0) y += direct_ * context.input(in_)[0];               // read only when it feeds through
  context.output(out_)[0] = y;
}

void TransferFunction::local_jacobian(LocalJacobian& jacobian) const {
  // The controllable canonical form: x_j' = x_(j+1), x_n' = u - sum a_i x_(n+1-i),
  // y = sum c_i x_(n+1-i) + b0 u.
  const auto n = static_cast<std::uint32_t>(den_norm_.size());
  for (std::uint32_t i = 1; i <= n; ++i) {
    if (out_coef_[i - 1] != 0.0) jacobian.output_state(out_.index, 0, n - i, out_coef_[i - 1]);
  }
  if (direct_ != 0.0) jacobian.output_input(out_.index, 0, in_.index, 0, direct_);
  if (n == 0) return;
  for (std::uint32_t j = 0; j + 1 < n; ++j) jacobian.derivative_state(j, j + 1, 1.0);
  jacobian.derivative_input(n - 1, in_.index, 0, 1.0);
  for (std::uint32_t i = 1; i <= n; ++i) {
    if (den_norm_[i - 1] != 0.0) jacobian.derivative_state(n - 1, n - i, -den_norm_[i - 1]);
  }
}

void TransferFunction::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  const auto x = context.states();
  const std::size_t n = den_norm_.size();
  if (n == 0) return;
  for (std::size_t j = 0; j + 1 < n; ++j) dxdt[j] = x[j + 1];
  double last = context.input(in_)[0];
  for (std::size_t i = 1; i <= n; ++i) last -= den_norm_[i - 1] * x[n - i];  // ai * x(n+1-i)
  dxdt[n - 1] = last;
}

}  // namespace ctde
