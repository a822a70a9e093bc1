#pragma once
/// The `Step` actor (what it computes: kInfo.summary). The jump is a time
/// event (SwitchedSource): the solver stops exactly at `time`, and both sides
/// are recorded. A `time` before the start shows `after` from the start; a
/// `time` equal to the start is a jump at the start (`before` at microstep 0,
/// `after` once it fired).

#include "switched_source.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Step : public SwitchedSource {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Step",
      .family = "sources",
      .summary = "`before` until `time`, `after` from `time` on.",
      .sample_params = R"({"time": 0.5})",
  };

  explicit Step(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  ParamHandle before_;
  ParamHandle after_;
};

}  // namespace ctde
