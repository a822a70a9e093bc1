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

/// Ranks 1..N-1: runs the indices rank 0 sends and sends their records back, until the stop.
void work(const RunFunction& run) {
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
}

/// Rank 0: hands the indices out to ranks 1..size-1, receives their records, and runs one itself
/// whenever none is waiting. Not copyable, not movable (it refers to its caller's functions).
class Leader {
 public:
  Leader(int size, std::uint64_t count, const RunFunction& run, const RecordFunction& record)
      : size_(size), count_(count), run_(run), record_(record), held_(static_cast<std::size_t>(size), 0) {}
  Leader(const Leader&) = delete;
  Leader& operator=(const Leader&) = delete;
  Leader(Leader&&) = delete;
  Leader& operator=(Leader&&) = delete;
  ~Leader() = default;

  /// Runs runs 0..count-1 over the ranks; returns when every record is taken.
  void lead();

 private:
  /// Tops `worker` up to indices_to_hold() indices.
  void give(int worker);
  /// Every index is out: each worker finishes what it holds, then the stop.
  void stop_all();
  /// Receives the record `probed` announces, tops its sender up and records it.
  void receive(const MPI_Status& probed);
  /// Runs the next index on rank 0 (nothing to receive).
  void run_here();

  int size_;
  std::uint64_t count_;
  const RunFunction& run_;
  const RecordFunction& record_;
  std::uint64_t next_ = 0;
  std::uint64_t done_ = 0;
  bool stopped_ = false;
  RunTimer timer_;
  std::vector<std::size_t> held_;  ///< indices out at each rank
  std::vector<char> bytes_;        ///< the record being received
};

void Leader::lead() {
  for (int worker = 1; worker < size_; ++worker) give(worker);
  stop_all();
  while (done_ < count_) {
    int pending = 0;
    MPI_Status probed;
    MPI_Iprobe(MPI_ANY_SOURCE, kRecordTag, MPI_COMM_WORLD, &pending, &probed);
    if (pending != 0) {
      receive(probed);
    } else if (next_ < count_) {  // nothing to receive: rank 0 runs one itself
      run_here();
    } else {
      MPI_Probe(MPI_ANY_SOURCE, kRecordTag, MPI_COMM_WORLD, &probed);
      receive(probed);
    }
  }
}

void Leader::give(int worker) {
  auto& out = held_[static_cast<std::size_t>(worker)];
  const std::size_t hold = indices_to_hold(timer_.mean());
  for (; out < hold && next_ < count_; ++out, ++next_) {
    MPI_Send(&next_, 1, MPI_UINT64_T, worker, kTaskTag, MPI_COMM_WORLD);
  }
}

void Leader::stop_all() {
  if (stopped_ || next_ < count_) return;
  stopped_ = true;
  const std::uint64_t none = 0;
  for (int worker = 1; worker < size_; ++worker)
    MPI_Send(&none, 1, MPI_UINT64_T, worker, kStopTag, MPI_COMM_WORLD);
}

void Leader::receive(const MPI_Status& probed) {
  int size = 0;
  MPI_Get_count(&probed, MPI_CHAR, &size);
  bytes_.resize(static_cast<std::size_t>(size));
  MPI_Recv(bytes_.data(), size, MPI_CHAR, probed.MPI_SOURCE, kRecordTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  --held_[static_cast<std::size_t>(probed.MPI_SOURCE)];
  results::RunRecord finished = results::deserialize(bytes_);
  timer_.add(finished.wall_time);
  give(probed.MPI_SOURCE);
  stop_all();
  ++done_;
  record_(std::move(finished));
}

void Leader::run_here() {
  const std::uint64_t k = next_++;
  stop_all();
  ++done_;
  results::RunRecord finished = run_(k);
  timer_.add(finished.wall_time);
  record_(std::move(finished));
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
    work(run);
    return;
  }
  Leader leader(size_, count, run, record);
  leader.lead();
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
