#pragma once
/// The shared base of the actors that fire on time events they schedule
/// themselves, one after the other, each sending a token on `out`:
/// `DiscreteClock`, `PoissonClock`, `PeriodicSampler` (the first and the
/// last at periodic times, periodic_tick()).

#include <cstdint>

#include "../../core/actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class SelfTimed : public Actor {
 public:
  /// Asks for the first event (first()), when it is due at all.
  void initialize(FireContext& context) const final;
  /// At its own time events only: the event's token (at_event()), then the
  /// request for the next event, when it is due at all.
  void fire(FireContext& context) const final;

 protected:
  /// Declares the discrete output `out` of `width`.
  SelfTimed(std::string name, const ActorInfo& info, TimeMode mode, int width);

  /// At the start: resets the run state; the first event's tick (kNever: none).
  [[nodiscard]] virtual Tick first(FireContext& context) const = 0;
  /// At each of its events: sends the token on `out`, advances the run
  /// state; the next event's tick (kNever: none).
  [[nodiscard]] virtual Tick at_event(FireContext& context) const = 0;
  /// The last tick an event may have (default: the run's stop tick).
  [[nodiscard]] virtual Tick last_tick(const ReadContext& context) const;
  /// start + offset + k * period in ticks (`period` in seconds, at its
  /// nearest tick), in exact integer arithmetic; kNever when it overflows.
  /// @throws RunError when `period` is shorter than one tick (check_times()
  /// rejects such a period before a run).
  [[nodiscard]] static Tick periodic_tick(const ReadContext& context, double period, Tick offset,
                                          std::uint64_t k);

  OutputPort out_;

 private:
  void request(FireContext& context, Tick tick) const;
};

}  // namespace ctde
