#pragma once
/// The `SingleEvent` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class SingleEvent : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "SingleEvent",
      .family = "sources",
      .summary = "One event at `time` carrying `value` (scalar or vector).",
      .sample_params = R"({"time": 0.5, "value": [1, 2]})",
  };

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
