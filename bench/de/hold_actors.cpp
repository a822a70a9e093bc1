// The hold model through the actor API: N actors, each, when fired,
// reschedules itself at now + Exp(1) s and counts; the run stops after E
// events. Prints events/s and peak RSS as key=value pairs.
//
//   hold_actors N E
//
// The same workload as hold_systemc.cpp and hold_bare_heap.cpp (one shared
// std::mt19937_64, std::exponential_distribution), run by bench/de/run_hold.sh.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/actor_context.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace {

/// What all hold actors share: the generator and the event budget.
struct Shared {
  std::mt19937_64 generator{12345};
  std::exponential_distribution<double> interval{1.0};
  std::uint64_t events = 0;
  std::uint64_t budget = 0;
};

/// Fires at now + Exp(1), counts, and stops the run when the budget is spent.
class Hold final : public ctde::Actor {
 public:
  Hold(std::string name, Shared& shared)
      : Actor(std::move(name), "Hold", ctde::TimeMode::kDiscrete), shared_(shared) {}

  void initialize(ctde::FireContext& context) const override { schedule(context); }

  void fire(ctde::FireContext& context) const override {
    if (++shared_.events >= shared_.budget) context.request_stop();
    schedule(context);
  }

 private:
  void schedule(ctde::FireContext& context) const {
    const double dt = shared_.interval(shared_.generator);
    context.fire_at(context.tag().time + std::max<ctde::Tick>(1, context.resolution().to_ticks(dt)));
  }
  Shared& shared_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: hold_actors N E\n");
    return 2;
  }
  const auto n = static_cast<std::size_t>(std::atof(argv[1]));
  const auto e = static_cast<std::uint64_t>(std::atof(argv[2]));
  Shared shared;
  shared.budget = e;
  ctde::Model model("hold");
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = "h";
    name += std::to_string(i);
    model.add<Hold>(std::move(name), shared);
  }
  const ctde::FlatModel flat = ctde::validate(model);
  ctde::RunOptions options;
  options.stop_time = 1e6;  // far: the event budget ends the run
  options.time_resolution = 1e-9;
  ctde::Director director(flat, options, "hold");
  const auto start = std::chrono::steady_clock::now();
  const ctde::RunResult result = director.run();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("impl=ctde n=%zu events=%llu seconds=%.3f events_per_s=%.4g peak_rss_mb=%.1f status=%s\n", n,
              static_cast<unsigned long long>(shared.events), seconds, double(shared.events) / seconds,
              double(usage.ru_maxrss) / 1024.0, ctde::to_string(result.status));
  return result.status == ctde::RunStatus::kStopped ? 0 : 1;
}
