#pragma once
/// What the two phases of a run share (private: not installed): the model
/// and options, the clock (now_), the flat buffers, the discrete scheduler,
/// the layout, the results rows and the counters, and the services both
/// phases call on the actors (evaluate, guarded, the step watchers); and how
/// a run is laid out and its actors initialized before it starts. The
/// director (Director::Impl: the run loop and the discrete phase) is a
/// RunState; the continuous phase (continuous_phase_impl.hpp) holds one by
/// reference, as an integrator holds its context. A test builds a RunState
/// and a ContinuousPhase on their own, with services of its own.

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "../../core/actor_context.hpp"
#include "../../core/flat_model.hpp"
#include "../../core/run_buffers.hpp"
#include "../../core/run_statistics.hpp"
#include "../../core/time.hpp"
#include "../de/discrete_scheduler.hpp"
#include "director.hpp"
#include "loop_solver_impl.hpp"
#include "rhs_program.hpp"
#include "row_recorder.hpp"
#include "run_layout_impl.hpp"
#include "run_options.hpp"

namespace ctde {

class ContinuousPhase;
class TraceWriter;

struct RunState {
  /// `services`: what the actors' contexts call (the director).
  RunState(const FlatModel& model, const RunOptions& options, TraceWriter* trace, ResultsSink* results,
           DirectorServices& services);

  /// Lays the run out before it starts (run_layout.cpp): the flat buffers,
  /// layout_ (the evaluation lists, the flags), the algebraic loops'
  /// solvers, the rows' columns, and `continuous`'s guards and parts.
  /// Inside the run an actor is known by its depth (its position in the
  /// topological order), so that the queue's events name their receiver and
  /// the firing loop walks arrays in order.
  /// @throws ModelError for an algebraic loop the options refuse.
  void lay_out(ContinuousPhase& continuous);

  /// At the start tag (now_ <- (start, 0)): each actor's state and
  /// initialize() (those that initialize from their inputs last, in depth
  /// order, each after the outputs it reads), every continuous and constant
  /// output, the constant discrete inputs (run_state.cpp).
  void initialize_actors();

  /// The continuous phase's solver options at the start: the run's, with
  /// the actors' own state tolerances (Actor::state_tolerances) unless
  /// the options list them, and the step bound (run_state.cpp).
  /// @throws Failure for a tolerance that is not positive and finite.
  [[nodiscard]] OdeOptions ode_options();

  /// Per actor flags: bits below (kReadsTimed...).
  using Flags = std::uint16_t;

  /// A failure that ends the run: its message and the actor it names.
  struct Failure {
    std::string message;
    std::string actor;
  };
  /// Thrown where the stop check said yes; the run ends as interrupted.
  struct Interrupted {};
  void stop_if_asked() const {
    if (stop_check_ && stop_check_()) throw Interrupted{};
  }

  /// The actor at depth `a` in the FlatModel.
  [[nodiscard]] const FlatActor& flat(ActorId a) const {
    return model_.actors[layout_.by_depth[a.index()].index()];
  }

  /// Runs `call` for actor `a`, turning its failures into a run failure.
  template <class Call>
  void guarded(ActorId a, Call&& call) {
    try {
      call();
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{flat(a).path + ": " + e.what(), flat(a).path};
    } catch (...) {  // whatever an actor's library throws ends the run, never the process
      throw Failure{flat(a).path + ": an error that is not a std::exception", flat(a).path};
    }
  }

  /// Every output that changes with time, at time t, in schedule order.
  void evaluate_all(double t) { evaluate(layout_.outputs, t); }

  /// The outputs `program` computes, at time t (run_state.cpp).
  void evaluate(const RhsProgram& program, double t);

  /// Evaluates actor `a`'s outputs at time t: its evaluate(), or, for an
  /// algebraic loop's head, the loop solved.
  void evaluate_actor(ActorId a, double t) {
    if (!b_.loop_of.empty() && b_.loop_of[a.index()] != 0) {  // only a loop's head is in an evaluation list
      solve_loop(a, t);
      return;
    }
    evaluate_own(a, t);
  }

  /// Actor `a`'s own evaluate() at time t (a loop's solver calls it for each of the loop's actors).
  void evaluate_own(ActorId a, double t) {
    EvalContext context(b_, services_, a, now_, t);
    guarded(a, [&] { layout_.actors[a.index()]->evaluate(context); });
  }

  /// Solves the algebraic loop headed by `head` at time t (its outputs at
  /// the solution); a failure to converge is a run failure naming the loop.
  void solve_loop(ActorId head, double t);

  /// A row at (time, microstep): continuous values, and discrete ones sent at
  /// microstep - 1 of this time (absent otherwise).
  void record_values(const RowTime& time, std::uint32_t microstep) {
    rows_.write(time, now_.time, microstep, b_.signals);
  }

  /// After an accepted step ending at t1 (now_ its tick): asks the step
  /// watchers; those that want an event there are queued at (now_, 0).
  /// Returns true when one did.
  bool steps_completed(double t1);

  /// At a time with events (and at the start): the step watchers'
  /// at_events(), before the first microstep or after the last one. Inline:
  /// twice per event time, and most models have no watcher.
  void watch_events(EventSide side) {
    if (!layout_.step_watchers.empty()) tell_step_watchers(side);
  }
  void tell_step_watchers(EventSide side);

  DirectorServices* services_;
  const FlatModel& model_;
  RunOptions options_;
  TraceWriter* trace_;
  TimeResolution resolution_;
  Tick start_;
  Tick stop_;
  RunBuffers b_;
  /// The time events, the firing order, the token slots, the output refresh.
  DiscreteScheduler scheduler_{b_};
  Tag now_;
  RunStatistics stats_;
  RunLayout layout_;
  RowRecorder rows_;  ///< the results rows
  EventChanges changes_;
  Director::ProgressCallback progress_;
  Director::StopCheck stop_check_;
  /// Per algebraic loop (RunBuffers::loop_members' order): its solver.
  std::vector<std::unique_ptr<LoopSolver>> loops_;

  // Per actor flags (Flags, declared above; layout_.flags).
  static constexpr Flags kStatesChanging = 8;     ///< in changes_.reset
  static constexpr Flags kStateEvent = 16;        ///< queued for a located crossing
  static constexpr Flags kDrivesContinuous = 32;  ///< has a continuous output (fixed)
  /// Reads an output that changes with time (a driver in layout_.continuous), so
  /// it must see those outputs evaluated again before it fires (fixed).
  static constexpr Flags kReadsTimed = 2;
  /// A polymorphic actor resolved discrete: the director fires it as its
  /// function of the latest input values (fire_function; fixed).
  static constexpr Flags kFunction = 64;
  /// Its firing may move every guard: it has continuous outputs, or it
  /// sends tokens where a generator reads them (fixed). A generator that
  /// fires has its own guards checked (ContinuousPhase::Guards::fired_generators).
  static constexpr Flags kMovesGuards = 128;
  /// Has guards of its own (fixed).
  static constexpr Flags kGenerator = 256;
  /// Belongs to a part of a split run: its firing touches the part (fixed).
  static constexpr Flags kInPart = 512;
  /// The flags that describe the actor, not the current microstep.
  static constexpr Flags kFixedFlags =
      kDrivesContinuous | kReadsTimed | kFunction | kMovesGuards | kGenerator | kInPart;
  /// Any of these asks for more than fire(): one test on the common path.
  static constexpr Flags kSpecial =
      kReadsTimed | kFunction | kDrivesContinuous | kMovesGuards | kGenerator | kInPart;
};

}  // namespace ctde
