#pragma once
/// The `Ramp` actor (what it computes: kInfo.summary). The kink is a time
/// event, so that the solver stops exactly there.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Ramp : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Ramp",
      .family = "sources",
      .summary = "0 before `start_time`, then slope * (t - start_time).",
      .sample_params = R"({"slope": 2, "start_time": 0.5})",
  };

  explicit Ramp(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;

 private:
  OutputPort out_;
  ParamHandle slope_;
  ParamHandle start_time_;
};

}  // namespace ctde
