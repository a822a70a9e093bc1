#pragma once
/// What a run counted: solver steps, right-hand-side evaluations, events.
/// In the director's RunResult and progress callback, and in the trace's
/// `run_end` line (docs/trace-format.md); here, in core, because the trace
/// writer reports it.

#include <array>
#include <cstdint>

namespace ctde {

/// Counters of one run, from its start. Copyable value type.
struct RunStatistics {
  std::uint64_t steps = 0;            ///< accepted solver steps
  std::uint64_t rejected_steps = 0;   ///< solver steps rejected by the error test
  std::uint64_t rhs_evals = 0;        ///< right-hand-side evaluations
  std::uint64_t events = 0;           ///< discrete tokens sent
  std::uint64_t time_events = 0;      ///< firings requested in advance
  std::uint64_t state_events = 0;     ///< located crossings fired
  std::uint64_t loop_solves = 0;      ///< algebraic loops solved (one per loop per evaluation)
  std::uint64_t loop_iterations = 0;  ///< Newton iterations of those solves
};

/// One counter of RunStatistics with the name it is reported under.
struct RunCounter {
  const char* name;                      ///< "steps", "rejected_steps"...
  std::uint64_t RunStatistics::*member;  ///< where a RunStatistics keeps it
};

/// Every counter, in the order of RunStatistics: what the trace's `run_end`
/// line, the HDF5 and MAT results and Python's `stats` report, one list for
/// all of them.
inline constexpr std::array<RunCounter, 8> kRunCounters{{
    {"steps", &RunStatistics::steps},
    {"rejected_steps", &RunStatistics::rejected_steps},
    {"rhs_evals", &RunStatistics::rhs_evals},
    {"events", &RunStatistics::events},
    {"time_events", &RunStatistics::time_events},
    {"state_events", &RunStatistics::state_events},
    {"loop_solves", &RunStatistics::loop_solves},
    {"loop_iterations", &RunStatistics::loop_iterations},
}};

}  // namespace ctde
