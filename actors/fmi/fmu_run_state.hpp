#pragma once
/// FMU::RunState, the FMU actor's run state (internal to actors/fmi/): the
/// instance and its buffers for one run, shared by fmu_run.cpp (the run's
/// calls) and fmu_snapshot.cpp (saving and restoring it for a snapshot,
/// docs/fmi.md "Snapshots").

#include <array>
#include <memory>
#include <vector>

#include "../../core/run_buffers.hpp"
#include "fmi2_instance.hpp"
#include "fmu.hpp"

namespace ctde {

/// The largest number of fmi2NewDiscreteStates calls in one event iteration.
inline constexpr int kMaxFmuEventIterations = 1000;

/// The instance and its buffers, for one run. Not copyable (ActorState).
struct FMU::RunState final : ActorState {
  const FMU* actor = nullptr;  ///< the actor that made it (make_state): save() and restore() are its
  std::unique_ptr<Fmi2Instance> fmu;
  /// The inputs of continuous_inputs_ and event_inputs_ that are connected
  /// (an unconnected input keeps its start value: it is never set).
  Ports continuous_in, event_in;
  bool any_continuous_in = false;  ///< continuous_in is not empty (the hot path's test)
  std::vector<char> connected;  ///< per input port: it has a driver (initialize(); what the two above keep)
  std::vector<char> seen;       ///< per input port: a token arrived (co-simulation: set from then on)
  std::vector<unsigned int> refs;  ///< the value references of one Set call
  std::vector<double> values;      ///< ... and their elements
  FmiValues converted;             ///< conversion to the families' C types
  /// Per family: the outputs' elements as read last (outputs_ order).
  std::array<std::vector<double>, kValueTypes> out;
  std::vector<double> x;
  double start_time = 0;  ///< the experiment's start and stop times given to the FMU (s)
  double stop_time = 0;
  Tick pending_tick = kNever;  ///< the time event asked for (nextEventTime), or kNever
  double pending_time = 0;     ///< ... at exactly this time in seconds
  bool terminate = false;      ///< fmi2CompletedIntegratorStep asked to terminate
  double cs_time = 0;          ///< co-simulation: the last communication point, in seconds
  Tick cs_tick = kNever;       ///< ... in ticks (kNever before the first)
  Tick cs_next = kNever;       ///< the next communication point (kNever: none before the stop time)
  Fmi3ClockRun clocks;         ///< FMI 3 clocks (fmi3_clocks.hpp)
  /// Directional derivatives (fmu_partials.cpp): per known value reference (a
  /// state or an input), the unknowns one call asks for and the entries
  /// their values go to; made at the first evaluation of the Jacobian.
  struct Partials {
    struct Column {
      unsigned int known = 0;
      std::size_t first = 0;  ///< its unknowns: unknowns[first, first + count)
      std::size_t count = 0;
    };
    std::vector<Column> columns;
    std::vector<unsigned int> unknowns;
    std::vector<std::size_t> places;  ///< per unknown: its entry (jacobian_values' index)
    std::vector<double> sensitivity;  ///< one call's values
    bool made = false;
  };
  Partials partials;

  /// FMU::save_run: the FMU's state through fmi2GetFMUstate and
  /// fmi2SerializeFMUstate, then this bookkeeping.
  /// @throws SnapshotError when the FMU cannot save its state, naming the actor and why.
  void save(StateWriter& writer) const override;
  /// FMU::restore_run: a new instance brought to the saved mode, the saved
  /// FMU state set in it, then this bookkeeping.
  /// @throws SnapshotError when the bytes do not fit; RunError when the FMU refuses.
  void restore(StateReader& reader) override;
};

}  // namespace ctde
