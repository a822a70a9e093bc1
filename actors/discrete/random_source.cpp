#include "actors/discrete/random_source.hpp"

#include <cmath>

#include "core/actor_context.hpp"
#include "core/format.hpp"

namespace ctde {

RandomSource::RandomSource(std::string name, const ActorInfo& info)
    : Actor(std::move(name), info, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete, 1);
  seed_ = declare_parameter("seed", ParamKind::kScalar, 1.0);
}

void RandomSource::configure(const ParameterScope& /*scope*/) {
  const double seed = scalar(seed_);
  if (!(seed >= 0 && seed <= kMaxSeed) || seed != std::floor(seed)) {
    fail(seed_, "must be a whole number from 0 to 2^53 (9007199254740992), got " + format_double(seed));
  }
}

namespace {
struct RandomState final : ActorState {
  explicit RandomState(std::uint64_t seed) : stream(seed) {}
  RandomStream stream;

  void save(StateWriter& out) const override { stream.save(out); }
  void restore(StateReader& in) override { stream.restore(in); }
};
}  // namespace

std::unique_ptr<ActorState> RandomSource::make_state() const {
  return std::make_unique<RandomState>(static_cast<std::uint64_t>(scalar(seed_)));
}

void RandomSource::fire(FireContext& context) const {
  if (!context.has_token(trigger_)) return;
  context.emit(out_, draw(context.state<RandomState>().stream));
}

}  // namespace ctde
