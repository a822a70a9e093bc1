#pragma once
/// The `Sine` actor (what it computes: kInfo.summary).

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Sine : public Actor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Sine",
      .family = "sources",
      .summary = "amplitude * sin(2 pi frequency t + phase) + bias, frequency in Hz, phase in radians.",
      .sample_params = R"({"amplitude": 2, "frequency": 0.5})",
  };

  explicit Sine(std::string name);
  void evaluate(EvalContext& context) const override;
  /// A sixteenth of the period: a level crossed and crossed back is seen when
  /// the sine stays beyond it that long (levels up to cos(pi/16) = 98 % of
  /// the amplitude from the bias).
  [[nodiscard]] double max_step() const override;

 protected:
  void configure(const ParameterScope& scope) override;

 private:
  OutputPort out_;
  ParamHandle amplitude_;
  ParamHandle frequency_;
  ParamHandle phase_;
  ParamHandle bias_;
};

}  // namespace ctde
