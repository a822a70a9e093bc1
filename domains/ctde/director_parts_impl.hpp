#pragma once
/// The director's independent parts (private: not installed): one
/// integrator, one event locator and one right-hand-side program per part
/// of the continuous side that shares no state, guard or continuous
/// connection with another (director_parts.cpp; docs/semantics.md,
/// "Independent subsystems").

#include <cstdint>
#include <optional>
#include <vector>

#include "../../core/time.hpp"
#include "../ct/event_locator.hpp"
#include "../ct/ode_solver.hpp"
#include "director_impl.hpp"
#include "rhs_program.hpp"

namespace ctde {

/// One part: its states (packed in its solver's vector), its guards, its
/// programs, and where it stands. Movable, not copyable (its solver).
struct Director::Impl::SolverPart {
  Impl* impl = nullptr;
  std::uint32_t id = 0;
  std::vector<std::uint32_t> states;      ///< per packed state: its index in the run's state vector
  std::vector<ActorId> generators;        ///< its actors with guards
  std::vector<GuardId> guard_ids;         ///< per local guard: the run's guard
  std::vector<std::uint32_t> guard_base;  ///< per generator: its first local guard
  RhsProgram outputs;                     ///< its outputs that change with time
  RhsProgram rhs_outputs;                 ///< those its derivatives read
  RhsProgram guard_outputs;               ///< those its guards read
  RhsProgram derivatives;                 ///< its stateful actors' derivatives
  std::optional<OdeSolver> solver;
  EventLocator locator;
  std::vector<double> x;       ///< packed scratch: a state
  std::vector<double> dx;      ///< packed scratch: derivatives
  std::vector<double> slopes;  ///< per local guard: dg/dt after an event
  /// A located crossing not fired yet: the part's frontier is its tick.
  struct Pending {
    Tick te = 0;
    LocatedCrossing found;
    double t0 = 0;           ///< the searched step's start
    double rejected_t1 = 0;  ///< and end
    Tick after = 0;          ///< the step start's tick
    int iterations = 0;
    double planned = 0;  ///< the step planned before the cut
  };
  std::optional<Pending> pending;
  bool touched = false;  ///< at the current event time: synced, its locator at now
  bool current = false;  ///< its locator's end values are its guards now
  double planned = 0;    ///< the first step after its next restart (0: the solver's plan)

  /// Where the part stands: its pending crossing's time, else its solver's.
  [[nodiscard]] double frontier(const TimeResolution& r) const {
    return pending ? r.to_seconds(pending->te) : solver->current_time();
  }
};

/// Every part, and which part each actor belongs to.
struct Director::Impl::Parts {
  std::vector<SolverPart> list;
  std::vector<std::uint32_t> part_of;  ///< per depth: its part, or ContinuousParts::kNoPart
  std::vector<double> x;               ///< full-size scratch states for a part's evaluations
  std::vector<double> dx;              ///< full-size scratch derivatives
  std::vector<std::uint32_t> touched;  ///< parts touched at the current event time
};

}  // namespace ctde
