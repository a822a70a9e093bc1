#pragma once
/// The `Step` actor (what it computes: kInfo.summary). The jump is a time
/// event: the solver stops exactly at `time`, and both sides are recorded. A
/// `time` before the start shows `after` from the start; a `time` equal to the
/// start is a jump at the start (`before` at microstep 0, `after` once it
/// fired).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Step : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Step",
      .family = "sources",
      .summary = "`before` until `time`, `after` from `time` on.",
      .sample_params = R"({"time": 0.5, "before": 0, "after": 1})",
  };

  explicit Step(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;

 private:
  OutputPort out_;
  ParamHandle time_;
  ParamHandle before_;
  ParamHandle after_;
};

}  // namespace ctde
