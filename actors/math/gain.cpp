#include "actors/math/gain.hpp"

namespace ctde {

Gain::Gain(std::string name) : Actor(std::move(name), "Gain", TimeMode::kUnresolved) {
  in_ = declare_input("in", PortKind::kPolymorphic);
  out_ = declare_output("out", PortKind::kPolymorphic);
  k_ = declare_parameter("k", ParamKind::kMatrix, 1.0);
}

void Gain::configure(const ParameterScope& scope) {
  (void)scope;
  const Matrix k = matrix(k_);
  if (k.rows * k.cols == 1) return;
  set_width(in_, static_cast<int>(k.cols));
  set_width(out_, static_cast<int>(k.rows));
}

}  // namespace ctde
