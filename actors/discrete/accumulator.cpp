#include "actors/discrete/accumulator.hpp"

#include <vector>

#include "core/actor_context.hpp"

namespace ctde {

Accumulator::Accumulator(std::string name) : Actor(std::move(name), kInfo, TimeMode::kDiscrete) {
  in_ = declare_input("in", PortKind::kDiscrete);
  out_ = declare_output("out", PortKind::kDiscrete);
  initial_ = declare_parameter("initial", ParamKind::kVector, 0.0);
}

void Accumulator::check_widths(std::span<const int> input_widths,
                               std::span<const int> /*output_widths*/) const {
  const auto initial = vector(initial_).size();
  if (initial != 1 && static_cast<int>(initial) != input_widths[in_.index]) {
    fail(initial_, "has " + std::to_string(initial) + " entries but the input has width " +
                       std::to_string(input_widths[in_.index]));
  }
}

namespace {
struct AccumulatorState final : ActorState {
  std::vector<double> sum;
};
}  // namespace

std::unique_ptr<ActorState> Accumulator::make_state() const { return std::make_unique<AccumulatorState>(); }

void Accumulator::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<AccumulatorState>();
  const auto u = context.token(in_);
  if (state.sum.empty()) {  // the first token fixes the width; initial broadcasts
    const auto initial = vector(initial_);
    state.sum.resize(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) state.sum[i] = initial.size() == 1 ? initial[0] : initial[i];
  }
  for (std::size_t i = 0; i < u.size(); ++i) state.sum[i] += u[i];
  context.emit(out_, state.sum);
}

}  // namespace ctde
