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
  /// The run state SelfTimed keeps; a derived actor's own run state extends
  /// it. Not copyable, not movable (see ActorState).
  struct State : ActorState {
    std::uint64_t sent = 0;  ///< the events sent so far: the next is event `sent`

    /// `sent`; a derived state writes its own after it.
    void save(StateWriter& out) const override;
    void restore(StateReader& in) override;
  };

  /// A State.
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  /// Asks for event 0 at time_of(0), when it is due at all.
  void initialize(FireContext& context) const final;
  /// At its own time events only: event k's token (send()), then the
  /// request for event k + 1 at time_of(k + 1), when it is due at all.
  void fire(FireContext& context) const final;

 protected:
  /// Declares the discrete output `out` of `width`.
  SelfTimed(std::string name, const ActorInfo& info, TimeMode mode, int width);

  /// The tick of event k (kNever: none), asked for k = 0, 1, ... in order,
  /// once each (at the start, then after event k - 1 was sent).
  [[nodiscard]] virtual Tick time_of(FireContext& context, std::uint64_t k) const = 0;
  /// Sends event k's token on `out`.
  virtual void send(FireContext& context, std::uint64_t k) const = 0;
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
