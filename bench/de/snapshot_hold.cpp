// Snapshots of a large model: the hold model (N actors, each firing at
// now + Exp(1) s), run to t = 20 s, saved to a snapshot file, read back and
// resumed in a second director; then both go on to t = 40 s and must agree.
// Prints the seconds of each step as key=value pairs (docs/performance.md,
// "Snapshots"; issue 33's target: write and read a 1e5-actor snapshot in
// under 1 s each).
//
//   snapshot_hold N FILE
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/actor_context.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "run/snapshot_file.hpp"

namespace {

/// Its own stream (SplitMix64: one word of state, so that its snapshot is small).
struct HoldState final : ctde::ActorState {
  std::uint64_t x = 0;
  void save(ctde::StateWriter& out) const override { out.u64(x); }
  void restore(ctde::StateReader& in) override { x = in.u64(); }
  double exponential() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return -std::log(1.0 - double(z >> 11) * 0x1.0p-53);
  }
};

class Hold final : public ctde::Actor {
 public:
  Hold(std::string name, std::uint64_t seed)
      : Actor(std::move(name), "Hold", ctde::TimeMode::kDiscrete), seed_(seed) {}
  [[nodiscard]] std::unique_ptr<ctde::ActorState> make_state() const override {
    auto state = std::make_unique<HoldState>();
    state->x = seed_;
    return state;
  }
  void initialize(ctde::FireContext& context) const override { schedule(context); }
  void fire(ctde::FireContext& context) const override { schedule(context); }

 private:
  void schedule(ctde::FireContext& context) const {
    const double dt = context.state<HoldState>().exponential();
    context.fire_at(context.tag().time + std::max<ctde::Tick>(1, context.resolution().to_ticks(dt)));
  }
  std::uint64_t seed_;
};

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: snapshot_hold N FILE\n");
    return 2;
  }
  const auto n = static_cast<std::size_t>(std::atof(argv[1]));
  const std::string file = argv[2];
  ctde::Model model("hold");
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = "h";
    name += std::to_string(i);
    model.add<Hold>(std::move(name), 1000 + i);
  }
  const ctde::FlatModel flat = ctde::validate(model);
  ctde::RunOptions options;
  options.stop_time = 40;
  options.time_resolution = 1e-9;

  ctde::Director first(flat, options, "hold");
  if (!first.advance_to(20)) return 1;
  auto start = std::chrono::steady_clock::now();
  ctde::write_snapshot_file(file, {first.snapshot(), "hold", {}, options.stop_time, {}, {}});
  const double write_s = since(start);

  start = std::chrono::steady_clock::now();
  ctde::SnapshotFile read = ctde::read_snapshot_file(file);
  ctde::Director second(flat, options, "hold");
  second.resume_from(std::move(read.snapshot), false);
  const double read_s = since(start);

  const ctde::RunResult a = first.run();
  const ctde::RunResult b = second.run();
  const bool same = a.status == b.status && a.stats.time_events == b.stats.time_events && a.tag == b.tag;
  std::printf("n=%zu snapshot_bytes=%lld write_s=%.3f read_s=%.3f events=%llu same=%d\n", n,
              static_cast<long long>(std::filesystem::file_size(file)), write_s, read_s,
              static_cast<unsigned long long>(a.stats.time_events), same ? 1 : 0);
  return same ? 0 : 1;
}
