#pragma once
/// The `Constant` actor (what it computes: kInfo.summary). Its output fits
/// continuous and discrete inputs alike: continuous readers see the value at
/// all times, discrete readers find it present at every tag (docs/semantics.md,
/// "Constants"); it never fires and never sends an event.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Constant : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Constant",
      .family = "sources",
      .summary = "A constant value (scalar or vector).",
      .sample_params = R"({"value": 1})",
  };

  explicit Constant(std::string name);
  void evaluate(EvalContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle value_;
};

}  // namespace ctde
