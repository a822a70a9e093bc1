#include "actors/discrete/counter.hpp"
#include "core/actor_context.hpp"

namespace ctde {

Counter::Counter(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete) {
  set_width(out_, 1);
}

void Counter::check_widths(std::span<const int> /*input_widths*/,
                           std::span<const int> /*output_widths*/) const {}  // counts any width

namespace {
struct CounterState final : ActorState {
  double count = 0;

  void save(StateWriter& out) const override { out.f64(count); }
  void restore(StateReader& in) override { count = in.f64(); }
};
}  // namespace

std::unique_ptr<ActorState> Counter::make_state() const { return std::make_unique<CounterState>(); }

void Counter::fire(FireContext& context) const {
  if (!context.has_token(in_)) return;
  auto& state = context.state<CounterState>();
  state.count += 1;
  context.emit(out_, state.count);
}

}  // namespace ctde
