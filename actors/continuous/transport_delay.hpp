#pragma once
/// The `TransportDelay` actor (what it computes: kInfo.summary): a
/// continuous delay, out(t) = in(t - delay) for t >= start + delay,
/// `initial` before.
///
/// It keeps the history of its input in its run state: a point at every
/// accepted step end (step_completed) and, at each time with events, the
/// values before and after them (at_events): a jump of the input is two
/// points at one time, its left and right limits. Between stored points the
/// output is the cubic through the four points around (t - delay) (three or
/// two next to a jump or an end of the history): an error of about
/// h^4 |in''''| / 40 for points h apart. A jump comes out as a time event at
/// its tick + the delay (rounded to a tick): the output switches from the
/// jump's left limit to its right one exactly there. Every step is bounded
/// by `max_step` (at most the delay: the output at a trial stage of a step
/// is read from the stored past, never from the step being taken; by
/// default a tenth of it, for the history's accuracy).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TransportDelay : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "TransportDelay",
      .family = "continuous",
      .summary =
          "out(t) = in(t - delay), `initial` before start + delay, element by element: a continuous "
          "delay with a history of its input; its jumps come out as events after the delay.",
      .sample_params = R"({"delay": 0.5})",
  };

  explicit TransportDelay(std::string name);

  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void initialize(FireContext& context) const override;
  void evaluate(EvalContext& context) const override;
  void fire(FireContext& context) const override;
  [[nodiscard]] bool watches_steps() const override { return true; }
  [[nodiscard]] bool step_completed(StepContext& context) const override;
  void at_events(FireContext& context, EventSide side) const override;
  [[nodiscard]] bool bounds_every_step() const override { return true; }
  /// `max_step` (at most the delay), or the delay / kStepsPerDelay when it is not set.
  [[nodiscard]] double max_step() const override;
  /// The default number of steps per delay: the history's points at most
  /// delay / 10 apart (a sine of period 10 delays then errs by 4e-7 of its
  /// amplitude, one of period 1 delay by 4e-3).
  static constexpr double kStepsPerDelay = 10;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;

 private:
  ParamHandle delay_;
  ParamHandle initial_;
  ParamHandle max_step_;
};

}  // namespace ctde
