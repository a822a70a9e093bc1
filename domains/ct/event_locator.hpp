#pragma once
/// The state-event locator: which guards crossed in a step, the search for
/// the earliest crossing inside it, and each guard's bookkeeping between
/// events (docs/semantics.md, "State events").
///
/// It knows nothing of models: it reads the guards through a StepTrajectory
/// (the director implements one over its model and solver; the tests over
/// closed-form functions of t). A step [t0, t1] is checked in this order:
///
///     g(t1) -> end_values()           the caller evaluates the guards at t1
///     crossed()?  no: accept()        every guard takes its side at t1
///                 yes: locate(...)    the bracket [ta, tb] and the event's tick te
///     (the caller ends the step at te, writes g(te) to end_values())
///     fire(guard, te) for each event(guard) != kNone
///     (the events' firings; g after them -> end_values())
///     settle(slopes)                  fired guards take their side again
///
/// locate() searches in two passes: the Illinois search (GuardSet::locate)
/// on the cubic Hermite interpolant of the step built from the states and
/// derivatives at its two ends (two derivative evaluations, none per
/// trial), then a check of the bracket found on the trajectory's dense
/// output, searching again there from the side that failed (polish). Guards
/// armed at a shifted level after an event (GuardSet::after_event) are armed
/// at zero again when the cubic shows them beyond zero halfway to their first
/// crossing (a bounce inside one long step). Without continuous states the
/// guards are functions of t alone: one exact pass on the dense output.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../../core/crossing.hpp"
#include "../../core/ids.hpp"
#include "../../core/time.hpp"
#include "guard_set.hpp"

namespace ctde {

/// One step of the solution, as the locator reads it: its ends, and the
/// guards anywhere inside. An interface; not copyable.
class StepTrajectory {
 public:
  StepTrajectory() = default;
  StepTrajectory(const StepTrajectory&) = delete;
  StepTrajectory& operator=(const StepTrajectory&) = delete;
  virtual ~StepTrajectory() = default;

  /// The step's ends [start(), end()], seconds (read with continuous states only).
  [[nodiscard]] virtual double start() const = 0;
  [[nodiscard]] virtual double end() const = 0;
  /// The continuous states at start() and end(), n values each. Empty
  /// when there are none: the guards are then functions of t alone.
  [[nodiscard]] virtual std::span<const double> start_state() const = 0;
  [[nodiscard]] virtual std::span<const double> end_state() const = 0;
  /// dx/dt at (t, x), for the cubic's slopes at the step's ends.
  virtual void derivatives(double t, std::span<const double> x, std::span<double> dxdt) = 0;
  /// Every guard at time t for the states x (n values), into g.
  virtual void guards(double t, std::span<const double> x, std::span<double> g) = 0;
  /// Every guard at time t in [start(), end()] on the solver's dense output
  /// (exact without continuous states), into g.
  virtual void guards_on_dense_output(double t, std::span<double> g) = 0;
};

/// The outcome of EventLocator::locate. Copyable value type.
struct LocatedEvent {
  LocatedCrossing bracket;  ///< [ta, tb] (no crossing at ta, one at tb) and the evaluations made
  Tick tick = 0;            ///< the event's time: the first tick at which the guards have crossed
};

/// How a guard's event stands against its previous ones (EventLocator::fire).
struct EventRhythm {
  enum class Kind : std::uint8_t {
    kNormal,      ///< nothing wrong
    kChattering,  ///< crossed again within one tick of its last event
    kZeno,        ///< EventLocator::kZenoEvents events in a row, each within kZenoTicks of the last
  };
  Kind kind = Kind::kNormal;
  Tick previous = kNever;  ///< the guard's event before this one (kNever: none)
};

/// The guards' crossing state and the search for the earliest crossing in a
/// step. Owns every per-guard buffer; allocates only when constructed.
/// Copyable value type (it keeps nothing of a trajectory between two calls).
class EventLocator {
 public:
  /// Zeno behaviour: this many events of one guard in a row, each within
  /// kZenoTicks of the one before.
  static constexpr int kZenoEvents = 8;
  static constexpr Tick kZenoTicks = 64;

  // ---- The rules of the locator's users (the director's continuous phase,
  // SecondOrderSolver), kept here so that both follow one

  /// A step cut to less than this fraction of itself at an event is
  /// integrated again to the event rather than cut on the dense output
  /// (whose roundoff is a few ulps of the states over the whole step).
  static constexpr double kShortCut = 1e-6;
  /// Most redone steps for one event before giving up.
  static constexpr int kMaxLocationRounds = 50;
  /// The step h of the forward difference dg/dt ~ (g(t + h) - g(t)) / h along
  /// the flow after an event (the slopes settle() takes): long enough to see
  /// the guards move, short enough to stay near t.
  [[nodiscard]] static double slope_step(double t) { return 1e-7 * std::max(1.0, std::abs(t)); }

  /// The error for an event that time cannot resolve (fire()'s rhythm not
  /// kNormal) of the guard `who` names, at tick te: chattering, or Zeno
  /// behaviour, whose message ends with `zeno_advice` (what the model or
  /// problem leaves unsaid, and what to do).
  [[nodiscard]] static std::string unresolved_message(const EventRhythm& rhythm, std::string_view who,
                                                      const TimeResolution& resolution, Tick te,
                                                      std::string_view zeno_advice);

  EventLocator() = default;
  /// @param directions one per guard: which crossings are events.
  /// @param resolution the run's ticks: a search narrows to one tick.
  /// @param tolerance |g| at which a search may stop before one tick (0: never).
  /// @param state_size the number of continuous states (the cubic's size).
  /// @param zero_sides one per guard, or empty: every guard ZeroSide::kOwn.
  EventLocator(std::vector<Crossing> directions, TimeResolution resolution, double tolerance,
               std::size_t state_size, const std::vector<ZeroSide>& zero_sides = {});

  [[nodiscard]] std::size_t size() const { return guards_.size(); }
  [[nodiscard]] const GuardSet& guards() const { return guards_; }
  [[nodiscard]] double tolerance() const { return tolerance_; }

  // ---- At points of the solution

  /// The guards at the current point of the solution (the end of the
  /// tentative step, or after a microstep), size() values: the caller
  /// writes them here before the calls below read them.
  [[nodiscard]] std::span<double> end_values() { return g_end_; }
  [[nodiscard]] std::span<const double> end_values() const { return g_end_; }

  /// At the start time (end_values() written): each guard's side there.
  void start();

  /// A snapshot's part (docs/snapshots.md), between two tags: the guards'
  /// sides and levels, the values at the last point of the solution and
  /// each guard's recent events (for the Zeno and chattering checks). What
  /// a search holds is not saved: no search is under way between two tags.
  void save(StateWriter& out) const;
  /// Reads what save() wrote, into a locator made for the same guards.
  void restore(StateReader& in);
  /// True when some guard has an event crossing at end_values().
  [[nodiscard]] bool crossed() const { return guards_.any_event(g_end_); }
  /// The step's end is accepted: every guard takes its side there, and the
  /// next step starts from those values.
  void accept();

  // ---- The search

  /// The earliest event crossing in [t0, t1] (values at t0: the last
  /// accepted ones; at t1: end_values(), with a crossing). `after` is the
  /// step start's tick: the event's tick is later. A guard crossing again
  /// in a step that starts at its own last event is searched to one tick,
  /// whatever the tolerance. Calls the trajectory's derivatives twice (with
  /// states) and its guards per trial; no allocation.
  LocatedEvent locate(StepTrajectory& trajectory, double t0, double t1, Tick after);
  /// The first guard with an event at the last search's tb (the first guard
  /// when none has).
  [[nodiscard]] GuardId first_located() const;
  /// The event fires as the last search found it: end_values() <- the
  /// guards at its tb.
  void take_located();

  // ---- Events

  /// The event crossing of guard `i` at end_values() (kNone: none).
  [[nodiscard]] Crossing event(GuardId i) const { return guards_.event(i.index(), g_end_[i.index()]); }
  /// g_i - its level at end_values(): the residual a trace reports.
  [[nodiscard]] double residual(GuardId i) const { return g_end_[i.index()] - guards_.level(i.index()); }
  /// Guard `i` fires at tick te its crossing at end_values(): remembered for
  /// settle(). Returns its rhythm: chattering and Zeno behaviour are the
  /// caller's errors to raise.
  EventRhythm fire(GuardId i, Tick te);
  /// Guard `i` fired at a located crossing since the last settle().
  [[nodiscard]] bool fired(GuardId i) const { return fired_[i.index()] != Crossing::kNone; }

  /// After a microstep at tick `now` (end_values() written): the crossing
  /// guard `i` made (kNone for none, and for a guard that fired: it waits
  /// for settle()); the guard takes its new side at once.
  Crossing microstep_crossing(GuardId i, Tick now);

  /// True when settle() needs the guards' slopes (a guard that fired is on
  /// or past zero after its event).
  [[nodiscard]] bool needs_slopes() const;
  /// After the events' firings at one time (end_values() written; `slopes`:
  /// dg/dt along the new flow when needs_slopes(), else empty): the guards
  /// that fired settle (GuardSet::after_event); the others take their side,
  /// except those that the firings made cross: returns true then (they fire
  /// at the next microstep; the caller fires them as located at end_values()).
  /// Otherwise the next step starts from end_values().
  bool settle(std::span<const double> slopes);

 private:
  /// What the GuardSet's evaluator callbacks see.
  struct Reader {
    EventLocator* self;
    StepTrajectory* trajectory;
  };
  static void on_cubic(void* user, double t, std::span<double> g);
  static void on_dense(void* user, double t, std::span<double> g);

  /// The step's ends from the trajectory (read once per locate(): the
  /// step does not change during a search).
  void read_step(const StepTrajectory& trajectory);
  /// The guards at t on the cubic Hermite of the step (read_step() and
  /// prepare_cubic() first).
  void guards_on_cubic(StepTrajectory& trajectory, double t, std::span<double> g);
  /// The derivatives at both ends of the trajectory's step.
  void prepare_cubic(StepTrajectory& trajectory);

  /// The first pass over [t0, t1] from values g0 at t0 (on the cubic; on
  /// the dense output without states). Leaves g_a_, g_b_ at the bracket's ends.
  LocatedCrossing search(StepTrajectory& trajectory, double t0, double t1, std::span<const double> g0,
                         double tolerance);
  /// The second pass: the bracket checked, and searched again, on the dense output.
  LocatedCrossing polish(StepTrajectory& trajectory, LocatedCrossing found, double t0, double t1,
                         std::span<const double> g0, double tolerance);
  /// Guards with a shifted level crossing it at found.tb, beyond zero on
  /// their side at the midpoint of [t0, found.tb] (values left in g_mid_),
  /// take level 0 again. Returns true when one did.
  bool rearm_shifted_guards(StepTrajectory& trajectory, double t0, const LocatedCrossing& found);
  /// The first tick at which the guards have crossed, after `after`: the
  /// tick inside the bracket (ta, tb) when the dense output shows a crossing
  /// there, else the first tick from tb on.
  Tick event_tick(StepTrajectory& trajectory, const LocatedCrossing& found, Tick after);

  GuardSet guards_;
  TimeResolution resolution_;
  double tolerance_ = 0;
  std::vector<double> g_start_;                ///< at the last accepted point
  std::vector<double> g_end_;                  ///< at the current point (end_values())
  std::vector<double> g_a_, g_b_;              ///< at the ends of the search bracket
  std::vector<double> g_trial_;                ///< at a trial time
  std::vector<double> g_mid_;                  ///< at the midpoint probed for shifted levels
  std::vector<double> g_before_;               ///< per fired guard: its value at the event
  std::vector<Crossing> fired_;                ///< per guard: fired at the current time
  std::vector<Tick> last_fired_;               ///< per guard: its last event, or kNever
  std::vector<int> close_events_;              ///< per guard: events in a row within kZenoTicks
  double step_t0_ = 0;                         ///< the searched step's start (read_step)
  double step_h_ = 0;                          ///< and length
  std::span<const double> step_x0_, step_x1_;  ///< its states at both ends
  std::vector<double> cubic_x_;                ///< the cubic's states at a trial time
  std::vector<double> cubic_f0_, cubic_f1_;    ///< derivatives at the step's ends
};

}  // namespace ctde
