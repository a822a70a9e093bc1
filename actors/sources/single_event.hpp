#pragma once
/// One event at `time` carrying `value` (scalar or vector).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class SingleEvent : public Actor {
 public:
  explicit SingleEvent(std::string name);
  void initialize(FireContext& context) const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle time_;
  ParamHandle value_;
};

}  // namespace ctde
