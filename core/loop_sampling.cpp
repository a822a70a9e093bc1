#include "core/loop_sampling.hpp"

#include <cstdint>

namespace ctde {

namespace {

/// Whether input `p` of `actor` breaks a loop it closes by sampling it: a
/// discrete input without feedthrough of an actor that samples its loop.
bool sampling_input(const FlatActor& actor, std::size_t p) {
  return actor.drivers[p] && actor.input_kinds[p] == PortKind::kDiscrete && actor.actor->samples_its_loop() &&
         !actor.actor->feeds_through(p);
}

}  // namespace

bool may_sample_loops(const FlatModel& model) {
  for (const FlatActor& actor : model.actors) {
    for (std::size_t p = 0; p < actor.drivers.size(); ++p) {
      if (sampling_input(actor, p)) return true;
    }
  }
  return false;
}

void find_loop_sampling(FlatModel& model, const std::vector<int>& component) {
  model.loop_breakers.clear();
  model.loop_wakes.clear();
  const auto n = static_cast<std::uint32_t>(model.actors.size());
  std::vector<std::vector<std::uint32_t>> members;  // by component, filled at the first breaker
  for (std::uint32_t d = 0; d < n; ++d) {
    const FlatActor& breaker = model.actors[d];
    bool breaks = false;
    for (std::size_t p = 0; p < breaker.drivers.size(); ++p) {
      breaks = breaks ||
               (sampling_input(breaker, p) && component[breaker.drivers[p]->actor.index()] == component[d]);
    }
    if (!breaks) continue;
    if (members.empty()) {
      members.resize(n);
      for (std::uint32_t a = 0; a < n; ++a) members[static_cast<std::size_t>(component[a])].push_back(a);
    }
    model.loop_breakers.push_back(FlatIndex{d});
    for (const std::uint32_t m : members[static_cast<std::size_t>(component[d])]) {
      const FlatActor& member = model.actors[m];
      for (std::uint32_t q = 0; q < member.drivers.size(); ++q) {
        if (!member.drivers[q] || member.input_kinds[q] != PortKind::kDiscrete) continue;
        if (component[member.drivers[q]->actor.index()] == component[d]) continue;  // inside the loop
        model.loop_wakes.push_back({FlatIndex{m}, q, FlatIndex{d}});
      }
    }
  }
}

void lay_out_loop_sampling(const FlatModel& model, RunBuffers& b) {
  b.wakes_begin.clear();
  b.wakes.clear();
  b.sampling.clear();
  if (model.loop_breakers.empty()) return;
  b.sampling.assign(model.actors.size(), 0);
  for (const FlatIndex a : model.loop_breakers) b.sampling[model[a].depth.index()] = kBreaksLoop;
  std::vector<std::vector<ActorId>> woken(b.input_owner.size());  // per input
  for (const LoopWake& w : model.loop_wakes) {
    const InputId input = b.actors[model[w.actor].depth.index()].input(w.input);
    woken[input.index()].push_back(model[w.breaker].depth);
  }
  b.wakes_begin.assign(1, 0);
  for (const std::vector<ActorId>& list : woken) {
    b.wakes.insert(b.wakes.end(), list.begin(), list.end());
    b.wakes_begin.push_back(static_cast<std::uint32_t>(b.wakes.size()));
  }
}

}  // namespace ctde
