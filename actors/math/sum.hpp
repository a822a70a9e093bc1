#pragma once
/// y = sum of +in_i or -in_i, one input per character of `signs` ("+-+").
/// All inputs have the same width.

#include "core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Sum : public Actor {
 public:
  explicit Sum(std::string name);
  void evaluate(ActorContext& context) const override;
  void fire(ActorContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  ParamHandle signs_;
};

}  // namespace ctde
