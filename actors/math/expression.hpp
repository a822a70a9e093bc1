#pragma once
/// y = expr, a muparser expression over in0..in{inputs-1}, t and the model's
/// parameters ("in0 * sin(t) + k"). Inputs and output have width 1.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Expression : public Actor {
 public:
  explicit Expression(std::string name);
  [[nodiscard]] bool can_be_constant() const override { return !uses_time_; }

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle expr_;
  ParamHandle inputs_;
  bool uses_time_ = false;
};

}  // namespace ctde
