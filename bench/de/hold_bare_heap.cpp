// The hold model on a bare std::priority_queue: the floor for any DE kernel.
// N pending (time, id) pairs; each pop reinserts its id at now + Exp(1).
//
//   hold_bare_heap N E
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: hold_bare_heap N E\n");
    return 2;
  }
  const auto n = static_cast<std::uint32_t>(std::atof(argv[1]));
  const auto e = static_cast<std::uint64_t>(std::atof(argv[2]));
  std::mt19937_64 generator{12345};
  std::exponential_distribution<double> interval{1.0};
  const double ticks_per_second = 1e9;  // the resolution hold_actors uses
  const auto draw = [&] {
    return std::max<std::int64_t>(1, std::llround(interval(generator) * ticks_per_second));
  };
  using Entry = std::pair<std::int64_t, std::uint32_t>;
  std::vector<Entry> storage;
  storage.reserve(n);
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue(std::greater<>{}, std::move(storage));
  for (std::uint32_t i = 0; i < n; ++i) queue.emplace(draw(), i);

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t count = 0;
  std::uint64_t checksum = 0;
  while (count < e) {
    const Entry top = queue.top();
    queue.pop();
    ++count;
    checksum += top.second;
    queue.emplace(top.first + draw(), top.second);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "impl=bare_heap n=%u events=%llu seconds=%.3f events_per_s=%.4g peak_rss_mb=%.1f checksum=%llu\n", n,
      static_cast<unsigned long long>(count), seconds, double(count) / seconds,
      double(usage.ru_maxrss) / 1024.0, static_cast<unsigned long long>(checksum));
  return 0;
}
