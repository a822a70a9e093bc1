#include "sweep/mpi_pool.hpp"

#include <climits>
#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

#ifdef CTDE_HAVE_MPI
#include <mpi.h>
#endif

namespace ctde::sweep {

bool launched_by_mpi() {
#ifdef CTDE_HAVE_MPI
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(name) != nullptr) return true;  // NOLINT(concurrency-mt-unsafe): before any thread
  }
#endif
  return false;
}

#ifdef CTDE_HAVE_MPI

namespace {

constexpr int kTaskTag = 1;
constexpr int kStopTag = 2;
constexpr int kRecordTag = 3;

results::RunRecord too_large(std::uint64_t k) {
  results::RunRecord record;
  record.index = k;
  record.status = "error";
  record.message = "the run's results are larger than one MPI message (2 GiB)";
  return record;
}

}  // namespace

MpiSession::MpiSession() {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::run(std::uint64_t count, const RunFunction& run, const RecordFunction& record) const {
  if (rank_ != 0) {
    // Records are sent without waiting (rank 0 may be busy with a run of its own; this rank goes
    // on with its next): each buffer lives until its send completes. There are at most as many
    // as the indices this rank holds.
    std::deque<std::pair<MPI_Request, std::vector<char>>> sending;
    const auto drop_sent = [&sending] {
      while (!sending.empty()) {
        int sent = 0;
        MPI_Test(&sending.front().first, &sent, MPI_STATUS_IGNORE);
        if (sent == 0) return;
        sending.pop_front();
      }
    };
    for (;;) {
      std::uint64_t k = 0;
      MPI_Status status;
      MPI_Recv(&k, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      if (status.MPI_TAG == kStopTag) break;
      std::vector<char> bytes = results::serialize(run(k));
      if (bytes.size() > static_cast<std::size_t>(INT_MAX)) bytes = results::serialize(too_large(k));
      auto& [request, buffer] = sending.emplace_back(MPI_REQUEST_NULL, std::move(bytes));
      MPI_Isend(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, 0, kRecordTag, MPI_COMM_WORLD,
                &request);
      drop_sent();
    }
    for (auto& [request, buffer] : sending) MPI_Wait(&request, MPI_STATUS_IGNORE);
    return;
  }
  std::uint64_t next = 0;
  std::uint64_t done = 0;
  bool stopped = false;
  RunTimer timer;
  std::vector<std::size_t> held(static_cast<std::size_t>(size_), 0);  // indices out at each rank
  // Tops `worker` up to indices_to_hold() indices.
  const auto give = [&](int worker) {
    auto& out = held[static_cast<std::size_t>(worker)];
    const std::size_t hold = indices_to_hold(timer.mean());
    for (; out < hold && next < count; ++out, ++next) {
      MPI_Send(&next, 1, MPI_UINT64_T, worker, kTaskTag, MPI_COMM_WORLD);
    }
  };
  // Every index is out: each worker finishes what it holds, then the stop.
  const auto stop_all = [&] {
    if (stopped || next < count) return;
    stopped = true;
    const std::uint64_t none = 0;
    for (int worker = 1; worker < size_; ++worker)
      MPI_Send(&none, 1, MPI_UINT64_T, worker, kStopTag, MPI_COMM_WORLD);
  };
  for (int worker = 1; worker < size_; ++worker) give(worker);
  stop_all();
  std::vector<char> bytes;
  const auto receive = [&](const MPI_Status& probed) {
    int size = 0;
    MPI_Get_count(&probed, MPI_CHAR, &size);
    bytes.resize(static_cast<std::size_t>(size));
    MPI_Recv(bytes.data(), size, MPI_CHAR, probed.MPI_SOURCE, kRecordTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    --held[static_cast<std::size_t>(probed.MPI_SOURCE)];
    results::RunRecord finished = results::deserialize(bytes);
    timer.add(finished.wall_time);
    give(probed.MPI_SOURCE);
    stop_all();
    ++done;
    record(std::move(finished));
  };
  while (done < count) {
    int pending = 0;
    MPI_Status probed;
    MPI_Iprobe(MPI_ANY_SOURCE, kRecordTag, MPI_COMM_WORLD, &pending, &probed);
    if (pending != 0) {
      receive(probed);
    } else if (next < count) {  // nothing to receive: rank 0 runs one itself
      const std::uint64_t k = next++;
      stop_all();
      ++done;
      results::RunRecord finished = run(k);
      timer.add(finished.wall_time);
      record(std::move(finished));
    } else {
      MPI_Probe(MPI_ANY_SOURCE, kRecordTag, MPI_COMM_WORLD, &probed);
      receive(probed);
    }
  }
}

int MpiSession::share(int status) const {
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status;
}

void MpiSession::abort(int status) const {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return
}

#else

MpiSession::MpiSession() { throw std::runtime_error("this ctde was built without MPI"); }
MpiSession::~MpiSession() = default;
void MpiSession::run(std::uint64_t, const RunFunction&, const RecordFunction&) const {}
int MpiSession::share(int status) const { return status; }
void MpiSession::abort(int /*status*/) const { std::abort(); }

#endif

}  // namespace ctde::sweep
