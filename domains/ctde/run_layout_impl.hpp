#pragma once
/// What RunState::lay_out() (run_layout.cpp) computes once before a run and
/// the run only reads: per depth, the actor, its flags and its
/// firing word; the evaluation lists in schedule order; and the facts about
/// the model that choose the run loop's paths. Beside it, the director's
/// results rows and what the events at the current time changed (private:
/// not installed).

#include <cstdint>
#include <utility>
#include <vector>

#include "../../core/actor.hpp"
#include "../../core/ids.hpp"
#include "../../core/run_buffers.hpp"
#include "../../core/time.hpp"
#include "firing_table.hpp"
#include "rhs_program.hpp"

namespace ctde {

/// Fixed for the run once laid out. Per depth (ActorId): an actor's position
/// in the topological order.
struct RunLayout {
  std::vector<FlatIndex> by_depth;   ///< per depth: the actor's index in the FlatModel
  std::vector<const Actor*> actors;  ///< by depth
  /// Per depth: the run's flags (RunState::kReadsTimed ...);
  /// the fixed ones describe the actor, the others the current microstep.
  std::vector<std::uint16_t> flags;
  /// Per depth: the actor and whether its firing is plain, in one word
  /// (what the discrete phase reads first; built from the fixed flags).
  FiringTable firing_table;

  // The evaluation lists, each in schedule order (run_layout.cpp).
  std::vector<ActorId> at_start;       ///< every continuous and constant actor
  std::vector<ActorId> continuous;     ///< outputs that change with time
  std::vector<std::uint8_t> timed;     ///< per depth: 1 when in `continuous`
  std::vector<ActorId> guard_inputs;   ///< what the guards read
  std::vector<ActorId> rhs_inputs;     ///< what the derivatives read
  RhsProgram outputs;                  ///< `continuous`, compiled
  std::vector<ActorId> stateful;       ///< actors with continuous states
  std::vector<ActorId> step_watchers;  ///< actors with watches_steps()
  /// Discrete inputs driven by constant outputs: a value present at every
  /// tag (input port, the driver's value slice).
  std::vector<std::pair<InputId, SignalSlice>> constant_inputs;

  /// The longest step between two points where the guards and the recorded
  /// signals are looked at: the least max_step() of the actors that vary in
  /// time without states and drive them (infinity: none).
  double step_bound = 0;
  /// Many actors: the discrete phase looks ahead in the queue (Director::Impl::prefetch_ahead).
  bool prefetch_ahead = false;
  /// Nothing continuous: no states, no outputs that change with time, no
  /// guards, no rows; time jumps from event to event.
  bool pure_de = false;
  /// Pure DE without step watchers: the run loop takes the lone_event()
  /// shortcut (a split run is never pure DE: it has continuous parts).
  bool lone_events = false;
};

/// What the firings at the current time changed.
struct EventChanges {
  std::vector<std::pair<ActorId, std::vector<double>>> reset;  ///< states reset at this time
  bool states = false;                                         ///< a state was reset
  bool continuous = false;                                     ///< an actor with continuous outputs fired
};

}  // namespace ctde
