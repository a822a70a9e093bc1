#pragma once
/// What an actor whose value is given from outside the model offers the
/// director (the `Input` actor, a model's declared input): the embedding
/// program, between two advance_to() calls, hands it a new value
/// (Director::set_input), and the director fires it at once, at the next
/// microstep, so that the value takes effect as an event of the run.

#include <span>

namespace ctde {

class ActorState;

/// An interface beside Actor: implemented by the actor types whose output
/// the embedding program sets.
class ExternalInput {
 public:
  ExternalInput() = default;
  ExternalInput(const ExternalInput&) = delete;
  ExternalInput& operator=(const ExternalInput&) = delete;
  ExternalInput(ExternalInput&&) = delete;
  ExternalInput& operator=(ExternalInput&&) = delete;

  /// Keeps `value` for the actor's next firing, which makes it its output.
  /// Returns false when `value` is the value it has (nothing to fire).
  /// @throws ModelError when `value` has not the output's width.
  virtual bool take(ActorState& state, std::span<const double> value) const = 0;
  /// Makes `value` its output at once, without an event (a continuous input
  /// that a program integrating the model changes between its steps:
  /// Director::hold_input). @throws ModelError as take().
  virtual void hold(ActorState& state, std::span<const double> value) const = 0;

 protected:
  ~ExternalInput() = default;
};

}  // namespace ctde
