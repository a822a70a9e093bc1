#include "actors/math/abs.hpp"

#include <algorithm>
#include <cmath>

#include "core/actor_context.hpp"

namespace ctde {

Abs::Abs(std::string name) : Actor(std::move(name), kInfo, TimeMode::kUnresolved) {
  in_ = declare_input("in", PortKind::kPolymorphic);
  out_ = declare_output("out", PortKind::kPolymorphic);
}

void Abs::apply(std::span<const double> u, std::span<double> y) const {
  for (std::size_t i = 0; i < u.size(); ++i) y[i] = std::fabs(u[i]);
}

void Abs::evaluate(EvalContext& context) const { apply(context.input(in_), context.output(out_)); }

}  // namespace ctde
