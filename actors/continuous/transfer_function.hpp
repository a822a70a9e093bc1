#pragma once
/// Y(s)/U(s) = num(s)/den(s), coefficients from the highest power down. The
/// degree of num must not exceed den's; the input feeds the output directly
/// only when the degrees are equal.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TransferFunction : public Actor {
 public:
  explicit TransferFunction(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle num_;
  ParamHandle den_;
};

}  // namespace ctde
