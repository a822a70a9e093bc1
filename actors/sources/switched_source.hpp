#pragma once
/// The shared base of the continuous sources whose output changes law once,
/// at a time event of their own: `Step` (its jump) and `Ramp` (its kink).
/// The event makes the solver stop exactly at the switch; until it has
/// fired, the solver's evaluations at that time still see the first law.

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class SwitchedSource : public Actor {
 public:
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const final;
  /// Takes the switch's tick (time_ at its nearest tick): switched from the
  /// start when it is before the start (or at it, see the constructor),
  /// else asks for a time event there when it falls within the run.
  void initialize(FireContext& context) const final;
  /// At its time event: switched from then on.
  void fire(FireContext& context) const final;

 protected:
  /// Declares the continuous output `out` of width 1, fed by no input.
  /// @param switched_at_start a switch at the start tick counts as done at
  /// the start, with no event (for laws that agree there: a ramp's 0);
  /// otherwise it is an event at the start (a step: `before` at microstep 0).
  SwitchedSource(std::string name, const ActorInfo& info, bool switched_at_start);

  /// Whether the switch has happened (the second law holds).
  [[nodiscard]] bool switched(const ReadContext& context) const;
  /// The switch time in seconds, at its tick (time_'s value when it has no
  /// finite tick).
  [[nodiscard]] double switch_seconds(const ReadContext& context) const;

  OutputPort out_;
  ParamHandle time_;  ///< the switch time in seconds: the derived constructor declares it

 private:
  bool switched_at_start_;
};

}  // namespace ctde
