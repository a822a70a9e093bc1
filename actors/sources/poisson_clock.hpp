#pragma once
/// Events at exponentially distributed intervals of mean `mean_interval`,
/// drawn from a generator seeded with `seed`: the same seed gives the same
/// times. Each event carries 1.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class PoissonClock : public Actor {
 public:
  explicit PoissonClock(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(ActorContext& context) const override;
  void fire(ActorContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;

 private:
  void schedule_next(ActorContext& context) const;
  ParamHandle mean_;
  ParamHandle seed_;
};

}  // namespace ctde
