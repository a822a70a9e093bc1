// The discrete scheduler's microstep boundaries and what it reports.
#include "domains/de/discrete_scheduler.hpp"

namespace ctde {

void DiscreteScheduler::present_always(InputId input, std::span<const double> value) {
  const TokenSlice slot = b_.input_tokens[input.index()];
  for (auto* tokens : {&b_.tokens_now, &b_.tokens_next}) {
    std::copy(value.begin(), value.end(), tokens->data() + slot.offset.index());
  }
  b_.present_now[input.index()] = kConstantValue;
  b_.present_next[input.index()] = kConstantValue;
  schedule_next(b_.input_owner[input.index()]);
  if (!b_.wakes_begin.empty()) wake(input, false);
}

void DiscreteScheduler::deliver() {
  // Tokens sent to already-fired (or not deeper) actors at n-1 become
  // visible at n; those of n-1 itself are gone.
  if (!present_now_list_.empty() || !present_next_list_.empty()) {
    for (const InputId p : present_now_list_) b_.present_now[p.index()] = kAbsent;
    present_now_list_.clear();
    std::swap(b_.present_now, b_.present_next);
    std::swap(b_.tokens_now, b_.tokens_next);
    std::swap(present_now_list_, present_next_list_);
  }
  for (const ActorId a : fire_next_) {
    std::uint8_t& scheduled = scheduled_[a.index()];
    if ((scheduled & kWokenNext) != 0)
      scheduled = static_cast<std::uint8_t>((scheduled & ~kWokenNext) | kWokenNow);
    scheduled &= static_cast<std::uint8_t>(~kScheduledNext);
    schedule_now(a);
  }
  fire_next_.clear();
}

std::vector<ActorId> DiscreteScheduler::due(Tag now) const {
  std::vector<ActorId> due(firing_.begin(), firing_.end());
  if (queued_now(now)) due.push_back(queue_.peek().depth());
  std::sort(due.begin(), due.end());
  due.erase(std::unique(due.begin(), due.end()), due.end());
  return due;
}

}  // namespace ctde
