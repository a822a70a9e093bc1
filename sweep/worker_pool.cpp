#include "sweep/worker_pool.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace ctde::sweep {

namespace {

/// Tells a worker to finish.
constexpr std::uint64_t kNoMore = UINT64_MAX;
/// Work a worker should have queued, s (indices_to_hold).
constexpr double kQueuedSeconds = 0.005;
constexpr std::size_t kMinHeld = 2;
constexpr std::size_t kMaxHeld = 32;

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd, bytes, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t size) {
  auto* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

/// The worker's loop: an index in, its record out, until kNoMore, the end,
/// or `stop` (a signal, which the parent forwards): the indices it holds
/// then are not started, and it ends with status 0.
[[noreturn]] void work(int fd, const RunFunction& run, const StopFunction& stop) {
  std::uint64_t k = 0;
  while (read_all(fd, &k, sizeof k) && k != kNoMore && !stop()) {
    const std::vector<char> bytes = results::serialize(run(k));
    const std::uint64_t size = bytes.size();
    if (!write_all(fd, &size, sizeof size) || !write_all(fd, bytes.data(), bytes.size())) break;
  }
  ::_exit(0);  // no destructors, no atexit: the parent's objects are the parent's
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::deque<std::uint64_t> held;
  bool alive = true;
};

/// A failed record for run k, lost with its worker.
results::RunRecord lost(std::uint64_t k, const std::string& why) {
  results::RunRecord record;
  record.index = k;
  record.status = "error";
  record.message = "the worker process ended: " + why;
  return record;
}

std::string how_it_ended(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "unknown";
}

/// This process's side of the local workers: it hands the indices out, takes the records, and runs
/// the next index itself whenever no record is waiting. Not copyable, not movable (it refers to its
/// caller's functions).
class LocalPool {
 public:
  LocalPool(std::uint64_t count, const RunFunction& run, const RecordFunction& record,
            const StopFunction& stop)
      : count_(count), run_(run), record_(record), stop_(stop) {}
  LocalPool(const LocalPool&) = delete;
  LocalPool& operator=(const LocalPool&) = delete;
  LocalPool(LocalPool&&) = delete;
  LocalPool& operator=(LocalPool&&) = delete;
  ~LocalPool() = default;

  /// Forks `n` workers, each talking to this process over a socket pair.
  /// @throws std::runtime_error when a socket pair or a process cannot be made.
  void start(std::size_t n);
  /// Hands out the indices and takes the records until every run is done or `stop` says so.
  /// @throws std::runtime_error when poll() fails.
  void serve();
  /// Tells the workers to finish and waits for them.
  void finish();

 private:
  /// Tops worker `w` up to indices_to_hold() indices.
  void hand_out(Worker& w);
  /// True when a live worker holds indices.
  [[nodiscard]] bool busy() const;
  /// Runs the next index in this process.
  void run_here();
  /// Takes the record worker `w` sent, or, when its end of the socket closed, buries it.
  void take(Worker& w);
  /// Worker `w` died: its held runs are recorded as lost, its share goes to the others.
  void bury(Worker& w);
  /// `stop` said so: the workers are told (SIGTERM) to end their runs and start no more.
  void stop_workers();

  std::uint64_t count_;
  const RunFunction& run_;
  const RecordFunction& record_;
  const StopFunction& stop_;
  std::vector<Worker> workers_;
  std::uint64_t next_ = 0;  ///< the next index to hand out
  bool stopping_ = false;   ///< stop_workers() was called
  RunTimer timer_;
  std::vector<pollfd> polls_;
  std::vector<char> bytes_;  ///< the record being read
};

void LocalPool::start(std::size_t n) {
  workers_.resize(n);
  for (Worker& w : workers_) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
      throw std::runtime_error(std::string("cannot create a worker's socket: ") + std::strerror(errno));
    }
    const pid_t pid = ::fork();
    if (pid < 0)
      throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
    if (pid == 0) {
      ::close(pair[0]);
      for (const Worker& other : workers_) {
        if (other.fd >= 0) ::close(other.fd);
      }
      work(pair[1], run_, stop_);
    }
    ::close(pair[1]);
    w.pid = pid;
    w.fd = pair[0];
  }
}

void LocalPool::hand_out(Worker& w) {
  const std::size_t hold = indices_to_hold(timer_.mean());
  while (w.alive && w.held.size() < hold && next_ < count_ && !stop_()) {
    if (!write_all(w.fd, &next_, sizeof next_)) break;  // it died: its reading end says so
    w.held.push_back(next_++);
  }
}

bool LocalPool::busy() const {
  for (const Worker& w : workers_) {
    if (w.alive && !w.held.empty()) return true;
  }
  return false;
}

void LocalPool::serve() {
  for (Worker& w : workers_) hand_out(w);
  while (true) {
    if (!stopping_ && stop_()) stop_workers();
    const bool own_work = next_ < count_ && !stop_();
    if (!own_work && !busy()) break;
    polls_.clear();
    for (const Worker& w : workers_) polls_.push_back({w.alive ? w.fd : -1, POLLIN, 0});
    const int ready = ::poll(polls_.data(), polls_.size(), own_work ? 0 : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("cannot wait for the workers: ") + std::strerror(errno));
    }
    if (ready == 0) {  // no record waiting: run the next index here
      run_here();
      continue;
    }
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      Worker& w = workers_[i];
      if (!w.alive || polls_[i].revents == 0) continue;
      take(w);
    }
  }
}

void LocalPool::run_here() {
  results::RunRecord done = run_(next_++);
  timer_.add(done.wall_time);
  record_(std::move(done));
}

void LocalPool::take(Worker& w) {
  std::uint64_t size = 0;
  bool ok = read_all(w.fd, &size, sizeof size);
  if (ok) {
    bytes_.resize(size);
    ok = read_all(w.fd, bytes_.data(), bytes_.size());
  }
  if (!ok) {
    bury(w);
    return;
  }
  w.held.pop_front();
  results::RunRecord done = results::deserialize(bytes_);
  timer_.add(done.wall_time);
  record_(std::move(done));
  hand_out(w);
}

void LocalPool::stop_workers() {
  // A signal to this process only (kill, a batch system) reaches the workers
  // too: each ends its run at its safe point, sends it, and starts no other.
  stopping_ = true;
  for (const Worker& w : workers_) {
    if (w.alive) (void)::kill(w.pid, SIGTERM);
  }
}

void LocalPool::bury(Worker& w) {
  w.alive = false;  // its end of the socket closed: it died, or stopped as asked
  ::close(w.fd);
  w.fd = -1;
  const std::string why = how_it_ended(w.pid);
  w.pid = -1;
  // A worker that stopped as asked did not start the runs it still held.
  if (stopping_ && why == "exit status 0") w.held.clear();
  for (const std::uint64_t k : w.held) record_(lost(k, why));
  w.held.clear();
  for (Worker& other : workers_) hand_out(other);  // its share goes to the others (or to this process)
}

void LocalPool::finish() {
  for (Worker& w : workers_) {
    if (w.fd >= 0) {
      (void)write_all(w.fd, &kNoMore, sizeof kNoMore);
      ::close(w.fd);
    }
    if (w.pid > 0) (void)how_it_ended(w.pid);
  }
}

}  // namespace

std::size_t indices_to_hold(double mean_run_seconds) {
  if (!(mean_run_seconds > 0)) return kMinHeld;
  const double wanted = std::ceil(kQueuedSeconds / mean_run_seconds);
  if (wanted >= static_cast<double>(kMaxHeld)) return kMaxHeld;
  return std::max(kMinHeld, static_cast<std::size_t>(wanted));
}

void run_local(std::uint64_t count, unsigned jobs, const RunFunction& run, const RecordFunction& record,
               const StopFunction& stop) {
  if (jobs <= 1 || count <= 1) {
    for (std::uint64_t k = 0; k < count && !stop(); ++k) record(run(k));
    return;
  }
  // This process is one of the jobs: it runs runs itself whenever no record is waiting, so
  // `--jobs 2` is two processes on two cores (this one and one worker), not three.
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(jobs, count)) - 1;
  LocalPool pool(count, run, record, stop);
  pool.start(n);
  pool.serve();
  pool.finish();
}

}  // namespace ctde::sweep
