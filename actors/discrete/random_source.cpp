#include "actors/discrete/random_source.hpp"

#include <string>

#include "core/actor_context.hpp"

namespace ctde {

RandomSource::RandomSource(std::string name, const ActorInfo& info)
    : Actor(std::move(name), info, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete, 1);
  seed_ = declare_optional_parameter("seed", ParamKind::kScalar);
}

void RandomSource::configure(const ParameterScope& /*scope*/) {
  if (!is_set(seed_)) {
    seed_value_ = seed_from_path(path());
    return;
  }
  if (const std::string problem = seed_problem(scalar(seed_)); !problem.empty()) fail(seed_, problem);
  seed_value_ = static_cast<std::uint64_t>(scalar(seed_));
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
  return std::make_unique<RandomState>(seed_value_);
}

void RandomSource::fire(FireContext& context) const {
  if (!context.has_token(trigger_)) return;
  context.emit(out_, draw(context.state<RandomState>().stream));
}

}  // namespace ctde
