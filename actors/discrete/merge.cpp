#include "actors/discrete/merge.hpp"

#include <algorithm>
#include <deque>

#include "core/actor_context.hpp"

namespace ctde {

Merge::Merge(std::string name) : FanIn(std::move(name), kInfo, TimeMode::kDiscrete) {}

namespace {
/// Tokens that arrived together and wait for their microstep.
struct MergeState final : ActorState {
  std::deque<double> waiting;  // width values per token

  void save(StateWriter& out) const override {
    out.values(std::vector<double>(waiting.begin(), waiting.end()));
  }
  void restore(StateReader& in) override {
    const std::vector<double> saved = in.values<double>();
    waiting.assign(saved.begin(), saved.end());
  }
};
}  // namespace

std::unique_ptr<ActorState> Merge::make_state() const { return std::make_unique<MergeState>(); }

void Merge::fire(FireContext& context) const {
  auto& state = context.state<MergeState>();
  const std::size_t width = context.width(out_);
  for (std::size_t i = 0; i < inputs().size(); ++i) {
    if (!context.has_token(input_port(i))) continue;
    const auto token = context.token(input_port(i));
    state.waiting.insert(state.waiting.end(), token.begin(), token.end());
  }
  if (state.waiting.empty()) return;
  const auto token = context.scratch(width);
  std::copy_n(state.waiting.begin(), width, token.begin());
  state.waiting.erase(state.waiting.begin(), state.waiting.begin() + static_cast<std::ptrdiff_t>(width));
  context.emit(out_, token);
  if (!state.waiting.empty()) context.fire_at(context.tag().time);  // the rest, one per microstep
}

}  // namespace ctde
