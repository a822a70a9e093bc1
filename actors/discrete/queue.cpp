#include "actors/discrete/queue.hpp"

#include <cmath>

#include "core/format.hpp"

#include <algorithm>
#include <deque>

#include "core/actor_context.hpp"

namespace ctde {

Queue::Queue(std::string name) : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete) {
  trigger_ = declare_input("trigger", PortKind::kDiscrete, kInferredWidth, /*optional=*/true);
  capacity_ = declare_parameter("capacity", ParamKind::kScalar, HUGE_VAL);
  set_feedthrough({{trigger_, out_}});
}

void Queue::configure(const ParameterScope& /*scope*/) {
  const double capacity = scalar(capacity_);
  if (!(capacity >= 1) || (std::isfinite(capacity) && capacity != std::floor(capacity))) {
    fail(capacity_, "must be a whole number >= 1 or \"inf\", got " + format_double(capacity));
  }
}

int Queue::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  return input_widths[in_.index];
}

void Queue::check_widths(std::span<const int> /*input_widths*/,
                         std::span<const int> /*output_widths*/) const {}  // any trigger width

namespace {
struct QueueState final : ActorState {
  std::deque<double> tokens;  // width values per token
  std::size_t size = 0;

  void save(StateWriter& out) const override {
    out.values(std::vector<double>(tokens.begin(), tokens.end()));
    out.u64(size);
  }
  void restore(StateReader& in) override {
    const std::vector<double> saved = in.values<double>();
    tokens.assign(saved.begin(), saved.end());
    size = in.u64();
    if ((size == 0) != tokens.empty()) in.fail("a queue whose count does not match its tokens");
  }
};
}  // namespace

std::unique_ptr<ActorState> Queue::make_state() const { return std::make_unique<QueueState>(); }

void Queue::fire(FireContext& context) const {
  auto& state = context.state<QueueState>();
  const std::size_t width = context.width(out_);
  if (context.has_token(in_) && static_cast<double>(state.size) < scalar(capacity_)) {
    const auto token = context.token(in_);
    state.tokens.insert(state.tokens.end(), token.begin(), token.end());
    ++state.size;
  }
  if (context.has_token(trigger_) && state.size > 0) {
    const auto token = context.scratch(width);
    std::copy_n(state.tokens.begin(), width, token.begin());
    state.tokens.erase(state.tokens.begin(), state.tokens.begin() + static_cast<std::ptrdiff_t>(width));
    --state.size;
    context.emit(out_, token);
  }
}

}  // namespace ctde
