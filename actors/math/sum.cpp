#include "actors/math/sum.hpp"

#include <algorithm>
#include <string>

#include "core/actor_context.hpp"

namespace ctde {

Sum::Sum(std::string name) : FanIn(std::move(name), kInfo, "signs", "+-", "++") {}

void Sum::configure(const ParameterScope& scope) {
  FanIn::configure(scope);
  weights_.clear();
  for (const char c : operators()) weights_.push_back(c == '-' ? -1.0 : 1.0);
  for (std::size_t i = 0; i < weights_.size() && i < near_weights_.size(); ++i)
    near_weights_[i] = weights_[i];
}

void Sum::evaluate(EvalContext& context) const {
  const auto acc = context.output(out_);
  const std::size_t n = weights_.size();
  if (acc.size() == 1 && n <= near_weights_.size()) {  // the common scalar case
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += near_weights_[i] * context.input(input_port(i))[0];
    acc[0] = sum;
    return;
  }
  std::fill(acc.begin(), acc.end(), 0.0);
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const auto u = context.input(input_port(i));
    const double w = weights_[i];
    for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += w * u[j];
  }
}

void Sum::local_jacobian(LocalJacobian& jacobian) const {
  const std::uint32_t width = jacobian.output_width(out_.index);
  for (std::size_t k = 0; k < weights_.size(); ++k) {
    for (std::uint32_t j = 0; j < width && j < jacobian.input_width(k); ++j) {
      jacobian.output_input(out_.index, j, k, j, weights_[k]);
    }
  }
}

Kernel Sum::kernel() const {
  return {Kernel::Output::kWeightedSum, Kernel::Derivatives::kVirtual, 1.0, weights_};
}

std::string Sum::input_mark(std::size_t input) const {
  if (input >= weights_.size()) return {};
  return weights_[input] > 0 ? "+" : "\u2212";  // a minus sign, not a hyphen
}

}  // namespace ctde
