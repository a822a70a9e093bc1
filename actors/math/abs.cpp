#include "actors/math/abs.hpp"

#include <algorithm>
#include <cmath>

namespace ctde {

Abs::Abs(std::string name) : UnaryFunction(std::move(name), kInfo) {}

void Abs::apply(std::span<const double> u, std::span<double> y) const {
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = std::fabs(u[i]);
}

}  // namespace ctde
