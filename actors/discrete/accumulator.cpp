#include "actors/discrete/accumulator.hpp"

#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

Accumulator::Accumulator(std::string name)
    : InitialValueActor(std::move(name), kInfo, TimeMode::kDiscrete, PortKind::kDiscrete) {}

namespace {
struct AccumulatorState final : ActorState {
  std::vector<double> sum;  ///< empty before the first token (which fixes the width)

  void save(StateWriter& out) const override { out.values(sum); }
  void restore(StateReader& in) override { sum = in.values<double>(); }
};
}  // namespace

std::unique_ptr<ActorState> Accumulator::make_state() const { return std::make_unique<AccumulatorState>(); }

void Accumulator::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<AccumulatorState>();
  const auto u = context.token(in_);
  if (state.sum.empty()) {  // the first token fixes the width; initial broadcasts
    state.sum.resize(u.size());
    fill_initial(state.sum);
  }
  for (std::size_t i = 0; i < u.size(); ++i) state.sum[i] += u[i];
  context.emit(out_, state.sum);
}

}  // namespace ctde
