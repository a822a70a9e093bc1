#include "actors/math/lookup1d.hpp"

namespace ctde {

Lookup1D::Lookup1D(std::string name) : Actor(std::move(name), "Lookup1D", TimeMode::kUnresolved) {
  declare_input("in", PortKind::kPolymorphic);
  declare_output("out", PortKind::kPolymorphic);
  x_ = declare_parameter("x", ParamKind::kVector);
  y_ = declare_parameter("y", ParamKind::kVector);
}

void Lookup1D::configure(const ParameterScope& scope) {
  (void)scope;
  const auto x = vector(x_);
  if (x.size() < 2) fail(x_, "needs at least two points");
  if (vector(y_).size() != x.size()) {
    fail("'x' has " + std::to_string(x.size()) + " points but 'y' has " +
         std::to_string(vector(y_).size()));
  }
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (!(x[i] > x[i - 1])) fail(x_, "must increase strictly");
  }
}

}  // namespace ctde
