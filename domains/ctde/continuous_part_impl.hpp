#pragma once
/// A part of the director's continuous side (private: not installed): one
/// integrator, one event locator and one set of evaluation programs for
/// states that share no guard and no continuous connection with any other
/// part's (docs/semantics.md, "Independent subsystems"). A joined run is
/// one part that holds every state in the run's order (`whole`); a split
/// run has two parts or more, each with its states packed in its solver's
/// vector. The continuous phase (ContinuousPhase) steps, locates, fires and
/// restarts every part through the same procedures (continuous_phase.cpp,
/// continuous_phase_events.cpp; the partition and the packing are
/// continuous_phase_parts.cpp).

#include <optional>
#include <vector>

#include "../../core/ids.hpp"
#include "../../core/time.hpp"
#include "../ct/event_locator.hpp"
#include "../ct/ode_solver.hpp"
#include "continuous_phase_impl.hpp"
#include "rhs_program.hpp"

namespace ctde {

/// One part: its states, its guards, its programs, and where it stands.
/// Movable, not copyable (its solver); its address is its solver's user
/// data, so the phase's list of parts never grows once laid out.
struct ContinuousPhase::Part {
  ContinuousPhase* phase = nullptr;  ///< for the solver's callbacks
  PartId id;
  /// Every state of the run, in the run's order (a joined run): the
  /// solver's vector is the run's state vector, nothing is packed.
  bool whole = false;
  std::vector<StateIndex> states;  ///< per packed state: the run's state (empty when whole)
  /// One of its actors with guards.
  struct Generator {
    ActorId actor;
    GuardId base;  ///< its first guard in the part's numbering
  };
  std::vector<Generator> generators;  ///< in depth order
  std::vector<GuardId> guard_ids;     ///< per local guard: the run's guard
  RhsProgram outputs;                 ///< its outputs that change with time
  RhsProgram rhs_outputs;             ///< those its derivatives read
  bool reads_outputs = false;  ///< rhs_outputs has actors (else it is skipped: a call less per evaluation)
  RhsProgram guard_outputs;    ///< those its guards read
  RhsProgram derivatives;      ///< its stateful actors' derivatives
  std::optional<OdeSolver> solver;  ///< none without states: time only advances
  /// An implicit method's: the structure of its ∂f/∂x (the solver points at it).
  std::optional<JacobianPattern> pattern;
  /// When some of its actors give Jacobian values at each point: how the
  /// pattern's values are composed again (the solver's values_at_point).
  std::optional<JacobianProgram> program;
  EventLocator locator;        ///< its guards (local numbering)
  std::vector<double> x;       ///< scratch: a state in the solver's layout
  std::vector<double> dx;      ///< scratch: derivatives in the solver's layout
  std::vector<double> slopes;  ///< per local guard: dg/dt after an event
  double time = 0;             ///< without a solver: where it stands
  double step_start = 0;       ///< without a solver: its last step's start
  /// A located crossing not fired yet: the part's frontier is its tick.
  struct Pending {
    Tick te = 0;
    LocatedCrossing found;
    double t0 = 0;           ///< the searched step's start
    double rejected_t1 = 0;  ///< and end
    Tick after = 0;          ///< the step start's tick
    int iterations = 0;
    double planned = 0;      ///< the step planned before the cut
    bool located = true;     ///< false with events "none": fires at te, no cut
    bool evaluated = false;  ///< the outputs are at te already (a step integrated to it)
  };
  std::optional<Pending> pending;
  bool touched = false;         ///< at the current event time: at now_, in the phase's parts_.touched list
  bool behind = false;          ///< its state at now_ is from its dense output: it restarts at now_
  bool current = false;         ///< its locator's end values are its guards now
  double planned = 0;           ///< the first step after its next restart (0: the solver's plan)
  double snapshot_step = 0;     ///< the first step after a snapshot's restart (restart_for_snapshot)
  bool snapshot_exact = false;  ///< a checkpoint's: its solver saves its exact state, no restart
  double restarted_at = -1;     ///< the time of its solver's last restart after events (restart_part)
  /// Its solver's counters at its last `step` trace line (trace_step).
  struct Traced {
    long rhs_evals = 0;
    long rejected = 0;
    long newton_iterations = 0;
  };
  Traced traced;

  /// Where the part stands: its pending crossing's time, else its solver's
  /// (or its own time): kept by ContinuousPhase::update_frontier whenever
  /// one of those changes (the earliest is looked for before every step).
  double frontier = 0;
  /// Its last step's start and end.
  [[nodiscard]] double last_step_start() const { return solver ? solver->last_step_start() : step_start; }
  [[nodiscard]] double last_step_end() const { return solver ? solver->last_step_end() : time; }
};

inline const double* ContinuousPhase::placed_states(const Part& p, const double* x) {
  if (p.whole) return x;
  for (std::size_t k = 0; k < p.states.size(); ++k) parts_.x[p.states[k].index()] = x[k];
  return parts_.x.data();
}

}  // namespace ctde
