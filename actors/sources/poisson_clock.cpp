#include "actors/sources/poisson_clock.hpp"

#include <cmath>

#include "core/format.hpp"

#include <algorithm>

#include "actors/base/random_stream.hpp"
#include "core/actor_context.hpp"

namespace ctde {

PoissonClock::PoissonClock(std::string name) : SelfTimed(std::move(name), kInfo, TimeMode::kDiscrete, 1) {
  mean_ = declare_parameter("mean_interval", ParamKind::kScalar);
  seed_ = declare_optional_parameter("seed", ParamKind::kScalar);
}

void PoissonClock::configure(const ParameterScope& /*scope*/) {
  if (!(scalar(mean_) > 0) || !std::isfinite(scalar(mean_))) {
    fail(mean_, "must be a finite number > 0, got " + format_double(scalar(mean_)));
  }
  if (!is_set(seed_)) {
    seed_value_ = seed_from_path(path());
    return;
  }
  if (const std::string problem = seed_problem(scalar(seed_)); !problem.empty()) fail(seed_, problem);
  seed_value_ = static_cast<std::uint64_t>(scalar(seed_));
}

namespace {
struct PoissonState final : SelfTimed::State {
  explicit PoissonState(std::uint64_t seed) : stream(seed) {}
  RandomStream stream;  ///< the random actors' stream: the same draws on every platform

  void save(StateWriter& out) const override {
    SelfTimed::State::save(out);
    stream.save(out);
  }
  void restore(StateReader& in) override {
    SelfTimed::State::restore(in);
    stream.restore(in);
  }
};
}  // namespace

std::unique_ptr<ActorState> PoissonClock::make_state() const {
  return std::make_unique<PoissonState>(seed_value_);
}

Tick PoissonClock::time_of(FireContext& context, std::uint64_t /*k*/) const {
  auto& state = context.state<PoissonState>();
  const double interval = state.stream.exponential(scalar(mean_));
  const Tick dt = std::max<Tick>(1, context.resolution().to_ticks(interval));
  const Tick now = context.tag().time;
  if (now > context.stop_tick() - dt) return kNever;  // beyond the stop time (and no overflow)
  return now + dt;
}

void PoissonClock::send(FireContext& context, std::uint64_t /*k*/) const { context.emit(out_, 1.0); }

void PoissonClock::check_times(const TimeResolution& resolution) const {
  // Intervals are drawn, then rounded to ticks: a mean below 100 ticks
  // would make most of them 0 or 1 tick (a different distribution).
  const double ticks = scalar(mean_) / resolution.seconds_per_tick();
  if (ticks < 100) {
    fail(mean_, format_double(scalar(mean_)) + " s is only " + format_double(ticks) +
                    " ticks of the time resolution; intervals drawn from it would be rounded to a few "
                    "ticks: use a mean of at least 100 ticks, or refine the director's time_resolution");
  }
}

}  // namespace ctde
