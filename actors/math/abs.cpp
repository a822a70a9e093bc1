#include "actors/math/abs.hpp"

namespace ctde {

Abs::Abs(std::string name) : Actor(std::move(name), "Abs", TimeMode::kUnresolved) {
  declare_input("in", PortKind::kPolymorphic);
  declare_output("out", PortKind::kPolymorphic);
}

}  // namespace ctde
