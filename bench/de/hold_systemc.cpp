// The hold model on SystemC 2.3: N method processes, each re-notifying its
// own sc_event after Exp(1) s when it runs; sc_stop() after E firings.
//
//   hold_systemc N E
#include <sys/resource.h>
#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

std::mt19937_64 generator{12345};
std::exponential_distribution<double> interval{1.0};
std::uint64_t fired = 0;
std::uint64_t budget = 0;

/// One token: fires, counts, and schedules itself again.
struct Token : sc_core::sc_module {
  sc_core::sc_event wake;

  explicit Token(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
    SC_HAS_PROCESS(Token);
    SC_METHOD(fire);
    sensitive << wake;
    dont_initialize();
  }
  void start_of_simulation() override { wake.notify(interval(generator), sc_core::SC_SEC); }
  void fire() {
    if (++fired >= budget) sc_core::sc_stop();
    wake.notify(interval(generator), sc_core::SC_SEC);
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: hold_systemc N E\n");
    return 2;
  }
  const auto n = static_cast<std::size_t>(std::atof(argv[1]));
  budget = static_cast<std::uint64_t>(std::atof(argv[2]));
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the resolution hold_actors uses
  std::vector<Token*> tokens;
  tokens.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "t%zu", i);
    tokens.push_back(new Token(name));  // owned by the SystemC kernel's lifetime
  }
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("impl=systemc n=%zu events=%llu seconds=%.3f events_per_s=%.4g peak_rss_mb=%.1f\n", n,
              static_cast<unsigned long long>(fired), seconds, double(fired) / seconds,
              double(usage.ru_maxrss) / 1024.0);
  return 0;
}
