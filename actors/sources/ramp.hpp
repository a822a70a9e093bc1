#pragma once
/// The `Ramp` actor (what it computes: kInfo.summary). The kink is a time
/// event (SwitchedSource), so that the solver stops exactly there.

#include "switched_source.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Ramp : public SwitchedSource {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Ramp",
      .family = "sources",
      .summary = "0 before `start_time`, then slope * (t - start_time).",
      .sample_params = R"({"slope": 2, "start_time": 0.5})",
  };

  explicit Ramp(std::string name);
  void evaluate(EvalContext& context) const override;

 private:
  ParamHandle slope_;
};

}  // namespace ctde
