#pragma once
/// amplitude * sin(2 pi frequency t + phase) + bias, frequency in Hz, phase in
/// radians.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Sine : public Actor {
 public:
  explicit Sine(std::string name);

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle frequency_;
};

}  // namespace ctde
