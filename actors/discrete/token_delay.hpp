#pragma once
/// The shared base of the actors that send each token on `in` again on
/// `out` later, after a duration that a parameter gives (or a token of
/// their own, from a second input): `TimeDelay`, `VariableDelay`, `Server`.

#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class TokenDelay : public UnaryActor {
 protected:
  /// Declares the discrete `in` and `out` (no feedthrough: a token leaves a
  /// microstep later at the earliest) and the duration parameter
  /// `parameter`, in seconds.
  /// @param default_value its default; empty: it may stay unset.
  /// @param whole_ticks the duration must be a whole number of ticks
  ///        (check_times()), else it is rounded to the nearest tick.
  TokenDelay(std::string name, const ActorInfo& info, std::string_view parameter,
             std::optional<double> default_value, bool whole_ticks);

  /// The duration, when set, must be finite and >= 0.
  /// @throws ModelError naming the parameter.
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;

  /// Sends the oldest token of `tokens` (the waiting tokens one after the
  /// other, the output's width of values each) on `out` and removes it.
  /// Precondition: one is waiting.
  void send_oldest(FireContext& context, std::deque<double>& tokens) const;

  ParamHandle duration_;

 private:
  bool whole_ticks_;
};

}  // namespace ctde
