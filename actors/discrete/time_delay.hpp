#pragma once
/// Each token received at (t, n) is sent again at (t + delay, 0); a delay of 0
/// sends it at (t, n + 1), the next microstep. It breaks causality loops.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TimeDelay : public Actor {
 public:
  explicit TimeDelay(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;

 private:
  InputPort in_;
  OutputPort out_;
  ParamHandle delay_;
};

}  // namespace ctde
