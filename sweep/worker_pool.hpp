#pragma once
/// Running a sweep's runs: in this process, in local worker processes
/// (fork; `--jobs N`), or over MPI ranks (sweep/mpi_pool.hpp). Every way
/// hands each run index out exactly once and gives every record back to the
/// one process that writes the file, in the order they finish.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "results/run_record.hpp"

namespace ctde::sweep {

/// Runs run k and returns its record (sweep::run_one). Must not throw.
using RunFunction = std::function<results::RunRecord(std::uint64_t)>;
/// Takes a finished run's record (writes it, counts progress).
using RecordFunction = std::function<void(results::RunRecord&&)>;
/// True when no more runs should be started (an interrupt).
using StopFunction = std::function<bool()>;

/// Runs runs 0..count-1 in `jobs` processes: this one and jobs-1 workers forked
/// from it (each talks to this process over a socket pair; every worker holds a
/// few indices, indices_to_hold(), so that it never waits for the next). This
/// process takes the records and runs the next index itself whenever no record
/// is waiting; with `jobs` 1 it runs them all. A worker that dies takes its runs
/// with it: they are recorded as failed ("the worker process ended: ..."), the
/// others go on (a run that crashes this process ends the sweep, as with `jobs`
/// 1). Runs not started because `stop` said so are not recorded.
void run_local(std::uint64_t count, unsigned jobs, const RunFunction& run, const RecordFunction& record,
               const StopFunction& stop);

}  // namespace ctde::sweep

namespace ctde::sweep {

/// How many run indices a worker should hold at once so that it always has
/// about 5 ms of work queued (the scheduler may leave the writing process
/// off a core for that long): 2 for runs of 2.5 ms or more, up to 32 for
/// very short ones. `mean_run_seconds` <= 0 (nothing measured yet): 2.
[[nodiscard]] std::size_t indices_to_hold(double mean_run_seconds);

/// The mean wall time of the runs recorded so far. Copyable value type.
class RunTimer {
 public:
  void add(double seconds) {
    total_ += seconds;
    ++count_;
  }
  [[nodiscard]] double mean() const { return count_ == 0 ? 0.0 : total_ / static_cast<double>(count_); }

 private:
  double total_ = 0;
  std::uint64_t count_ = 0;
};

}  // namespace ctde::sweep
