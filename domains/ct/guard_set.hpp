#pragma once
/// The guards of a run's state-event generators: on which side of zero each
/// one is, which crossings are events, and the search for the earliest one.
///
/// Each guard g_i has a direction (core/crossing.hpp), a committed side (the
/// sign of g_i - level_i at the last accepted point: -1, +1, or 0 while it
/// sits exactly on its level) and a level, normally 0. A rising crossing is
/// side -1 then g - level >= 0; a falling one, side +1 then g - level <= 0.
/// A guard whose zero is below (ZeroSide::kBelow) has two sides only, +1
/// where g - level > 0 and -1 elsewhere: its rising crossing is side -1
/// then g - level > 0.
///
/// The search (locate()) is the Illinois variant of regula falsi on a bracket
/// [ta, tb] (no event crossing at ta, one at tb), driven by the earliest
/// secant estimate among the guards that crossed, with a bisection step
/// whenever four iterations did not halve the bracket, and trial points kept
/// half a `min_width` inside the ends (so that a root found next to one end
/// closes the bracket with one more evaluation). It ends when the
/// bracket is at most `min_width` (one tick) or every crossed guard is
/// within `tolerance` of its level at tb. The caller evaluates the guards at
/// the trial times (from the solver's dense output).
///
/// After an event (after_event()): a guard whose event left it on the far
/// side of its level, still within the location tolerance, but moving back
/// (a bouncing ball at rest within 1e-12 of the floor) is armed again with
/// its level at its post-event value, so its next return fires even if it
/// never gets back above zero: the ball cannot fall through the floor.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "../../core/crossing.hpp"
#include "../../core/state_stream.hpp"

namespace ctde {

/// Writes the guard values at time t to g (all guards). Plain pointer: the
/// location path allocates nothing.
using GuardEvaluator = void (*)(void* user, double t, std::span<double> g);

/// The outcome of GuardSet::locate. Copyable value type.
struct LocatedCrossing {
  double ta = 0;       ///< latest time known before every crossing
  double tb = 0;       ///< earliest time known after one (the event side)
  int iterations = 0;  ///< guard evaluations made
};

/// Per-guard crossing state of one run. Copyable value type.
class GuardSet {
 public:
  GuardSet() = default;
  /// @param directions one per guard: which crossings are events.
  /// @param zero_sides one per guard, or empty: every guard ZeroSide::kOwn.
  explicit GuardSet(std::vector<Crossing> directions, const std::vector<ZeroSide>& zero_sides = {});

  [[nodiscard]] std::size_t size() const { return direction_.size(); }
  [[nodiscard]] Crossing direction(std::size_t i) const { return direction_[i]; }
  [[nodiscard]] double level(std::size_t i) const { return level_[i]; }
  [[nodiscard]] ZeroSide zero_side(std::size_t i) const {
    return below_[i] != 0 ? ZeroSide::kBelow : ZeroSide::kOwn;
  }

  /// At the start of a run: sides from the values, levels 0.
  void start(std::span<const double> g);

  /// The crossing of guard `i` at a point where its value is `g`, relative
  /// to its committed side: kRising, kFalling or kNone (whatever its direction).
  [[nodiscard]] Crossing crossing(std::size_t i, double g) const;
  /// As crossing(), but kNone unless the crossing is in the guard's direction.
  [[nodiscard]] Crossing event(std::size_t i, double g) const;
  /// True when some guard has an event crossing at the values `g`.
  [[nodiscard]] bool any_event(std::span<const double> g) const;

  /// Accepts a point: guard `i` takes the side of `g`; a shifted level goes
  /// back to 0 once the guard is beyond zero on that side.
  void commit(std::size_t i, double g);
  /// Guard `i` is `g` at a point before any crossing in the current step:
  /// if its level is shifted (see after_event) and g is beyond zero on its
  /// side, the level goes back to 0 (the guard left its resting value the
  /// normal way, as commit() would see at a step end). Returns true then.
  bool rearm(std::size_t i, double g);
  void commit(std::span<const double> g);

  /// Guard `i` fired `fired` (kRising or kFalling); `before` and `after` are
  /// its values at the event time before and after the event's firings,
  /// `slope` its time derivative afterwards, `tolerance` the value tolerance
  /// of the location. Sets its side and level (see the file comment).
  void after_event(std::size_t i, Crossing fired, double before, double after, double slope,
                   double tolerance);
  /// True when after_event() needs the slope of guard `i` (its value after
  /// the event is on the far side of zero or on it).
  [[nodiscard]] bool needs_slope(std::size_t i, Crossing fired, double after) const;

  /// Searches [ta, tb] for the earliest event crossing. Pre: no event
  /// crossing at ga (values at ta), one at gb (values at tb). `ga`, `gb`
  /// are updated to the values at the final bracket's ends; `scratch` holds
  /// trial values (all three of size()). No allocation.
  LocatedCrossing locate(double ta, double tb, std::span<double> ga, std::span<double> gb,
                         std::span<double> scratch, double min_width, double tolerance,
                         GuardEvaluator evaluate, void* user) const;

  /// A snapshot's part (docs/snapshots.md): each guard's side and level.
  void save(StateWriter& out) const;
  /// Reads what save() wrote for as many guards.
  void restore(StateReader& in);

 private:
  /// The side of value `v` (g - level, or g) for guard `i`: -1, +1, or 0 (kOwn only).
  [[nodiscard]] std::int8_t side_of(std::size_t i, double v) const;

  std::vector<Crossing> direction_;
  std::vector<std::uint8_t> below_;  ///< per guard: 1 for ZeroSide::kBelow
  std::vector<std::int8_t> side_;
  std::vector<double> level_;
};

}  // namespace ctde
