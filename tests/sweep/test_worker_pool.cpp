// Local worker processes: every run index handed out once, records back
// whatever the order, a worker that dies taking only its runs with it.
#include <doctest/doctest.h>

#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <map>
#include <string>

#include "sweep/worker_pool.hpp"

using ctde::results::RunRecord;

namespace {

/// A record whose content tells which run made it.
RunRecord fake_run(std::uint64_t k) {
  RunRecord record;
  record.index = k;
  record.time = {0.0, static_cast<double>(k)};
  record.microstep = {0, 1};
  record.signals.push_back({"x.out", 1, {static_cast<double>(k) * 2, static_cast<double>(k) * 3}, false});
  return record;
}

std::map<std::uint64_t, RunRecord> run_all(std::uint64_t count, unsigned jobs,
                                           const ctde::sweep::RunFunction& run) {
  std::map<std::uint64_t, RunRecord> records;
  ctde::sweep::run_local(
      count, jobs, run,
      [&](RunRecord&& r) {
        CHECK_MESSAGE(records.count(r.index) == 0, "run " << r.index << " recorded twice");
        records.emplace(r.index, std::move(r));
      },
      [] { return false; });
  return records;
}

}  // namespace

TEST_CASE("local workers run every index once and give back each run's own record") {
  for (const unsigned jobs : {1U, 2U, 3U, 8U}) {
    const auto records = run_all(20, jobs, fake_run);
    REQUIRE(records.size() == 20);
    for (const auto& [k, r] : records) {
      CHECK(r.status == "ok");
      CHECK(r.time[1] == static_cast<double>(k));
      CHECK(r.signals.at(0).values[1] == static_cast<double>(k) * 3);
    }
  }
}

TEST_CASE("a worker that dies fails only the runs it held; the others finish") {
  // The worker is handed runs 0 and 1 before anything runs; it says on a pipe when it starts
  // run 1 (run 0's record is sent by then) and dies at any later run. This process waits for
  // that word before its own first run, so it takes run 0's record before it runs out of
  // indices and hands the worker one more: the worker dies, by construction, holding the first
  // index handed out after 0 and 1, and at most one beside it.
  int started[2];
  REQUIRE(::pipe(started) == 0);
  const pid_t parent = ::getpid();
  bool waited = false;
  const auto records = run_all(12, 2, [&](std::uint64_t k) {
    if (::getpid() != parent) {
      if (k == 1) {
        const char word = 1;
        REQUIRE(::write(started[1], &word, 1) == 1);
      } else if (k >= 2) {
        std::raise(SIGKILL);
      }
    } else if (!waited) {
      pollfd wait_for{started[0], POLLIN, 0};
      REQUIRE_MESSAGE(::poll(&wait_for, 1, 60'000) == 1, "the worker never started run 1");  // hang guard
      waited = true;
    }
    return fake_run(k);
  });
  ::close(started[0]);
  ::close(started[1]);
  REQUIRE(records.size() == 12);
  int lost = 0;
  for (const auto& [k, r] : records) {
    if (r.status == "ok") {
      CHECK(r.time[1] == static_cast<double>(k));
    } else {
      CHECK(k >= 2);
      CHECK(r.status == "error");
      CHECK(r.message == "the worker process ended: killed by signal 9");
      ++lost;
    }
  }
  CHECK(records.at(0).status == "ok");  // the worker's own runs before it died
  CHECK(records.at(1).status == "ok");
  CHECK(lost >= 1);
  CHECK(lost <= 2);  // the run it died in and at most the one index it held beside it
}

TEST_CASE("when every worker has died, this process runs the rest") {
  const pid_t parent = ::getpid();
  const auto records = run_all(40, 3, [parent](std::uint64_t k) {
    if (::getpid() != parent) std::raise(SIGKILL);  // every worker dies at its first run
    return fake_run(k);
  });
  REQUIRE(records.size() == 40);
  int lost = 0;
  for (const auto& [k, r] : records) {
    if (r.status == "ok") {
      CHECK(r.time[1] == static_cast<double>(k));
    } else {
      CHECK(r.message == "the worker process ended: killed by signal 9");
      ++lost;
    }
  }
  // Each of the two workers dies with the index it was running and whatever
  // else it held then: at least one each. How much it held depends on when
  // the parent noticed (a live worker is handed more as runs are measured),
  // so only the bounds are fixed; every index is recorded once either way.
  CHECK(lost >= 2);
  CHECK(lost < 40);
}

TEST_CASE("a worker holds about 5 ms of runs: 2 at least, 32 at most") {
  using ctde::sweep::indices_to_hold;
  CHECK(indices_to_hold(0) == 2);  // nothing measured yet
  CHECK(indices_to_hold(-1) == 2);
  CHECK(indices_to_hold(1.0) == 2);  // long runs: the one running and the next
  CHECK(indices_to_hold(0.001) == 5);
  CHECK(indices_to_hold(0.0002) == 25);
  CHECK(indices_to_hold(1e-6) == 32);
}
