#pragma once
/// A sweep over MPI ranks (built when CMake finds MPI: CTDE_HAVE_MPI).
/// Rank 0 hands run indices out dynamically, runs some itself between
/// messages, receives every record and is the only rank that writes;
/// ranks 1..N-1 run what they are given. Every rank must call the same
/// functions in the same order.

#include <cstdint>
#include <string>

#include "sweep/worker_pool.hpp"

namespace ctde::sweep {

/// True when this process was started by an MPI launcher (mpirun, mpiexec,
/// srun): the launchers' environment variables (OMPI_COMM_WORLD_SIZE,
/// PMI_SIZE, PMIX_RANK) say so. Always false in a build without MPI.
[[nodiscard]] bool launched_by_mpi();

/// MPI_Init on construction, MPI_Finalize on destruction. Not copyable, not movable.
class MpiSession {
 public:
  /// @throws std::runtime_error in a build without MPI.
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  MpiSession(MpiSession&&) = delete;
  MpiSession& operator=(MpiSession&&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }

  /// Runs runs 0..count-1 over the ranks; `record` is called on rank 0 only.
  void run(std::uint64_t count, const RunFunction& run, const RecordFunction& record) const;

  /// Rank 0's `status` on every rank (each returns it, so that the launcher's
  /// exit status is rank 0's).
  [[nodiscard]] int share(int status) const;

  /// Ends every rank at once with `status` (rank 0 cannot go on: its file failed).
  [[noreturn]] void abort(int status) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace ctde::sweep
