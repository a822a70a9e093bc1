#include "core/acyclic_schedule.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string_view>
#include <utility>

#include "core/prefetch.hpp"

namespace ctde {

namespace {

/// Each actor's drivers along the edges of a graph, in the order the edges
/// were added (compressed rows: 4 bytes an actor and 4 an edge).
class Drivers {
 public:
  /// `edges`: at most that many edges will be added (reserved: no copy as they grow).
  Drivers(std::size_t actors, std::size_t edges) {
    first_.reserve(actors + 1);
    from_.reserve(edges);
  }

  /// Starts the next actor's row.
  void next_actor() { first_.push_back(static_cast<std::uint32_t>(from_.size())); }
  /// An edge from `from` to the actor of the current row.
  void add(std::uint32_t from) { from_.push_back(from); }
  /// Closes the last row.
  void finish() { first_.push_back(static_cast<std::uint32_t>(from_.size())); }

  [[nodiscard]] std::size_t size() const { return first_.size() - 1; }
  [[nodiscard]] std::uint32_t begin(std::uint32_t actor) const { return first_[actor]; }
  [[nodiscard]] std::uint32_t end(std::uint32_t actor) const { return first_[actor + 1]; }
  [[nodiscard]] std::uint32_t at(std::uint32_t edge) const { return from_[edge]; }
  [[nodiscard]] std::span<const std::uint32_t> of(std::uint32_t actor) const {
    return {from_.data() + first_[actor], from_.data() + first_[actor + 1]};
  }

 private:
  std::vector<std::uint32_t> first_;
  std::vector<std::uint32_t> from_;
};

/// The order boost::topological_sort gives on the graph reversed (each
/// actor after its drivers): a depth-first search from each actor in index
/// order that follows each actor's drivers in their order and appends an
/// actor when it is finished. False, with `order` incomplete, on a cycle.
bool finish_order(const Drivers& drivers, std::vector<std::uint32_t>& order) {
  const std::size_t n = drivers.size();
  enum : std::uint8_t { kWhite, kGray, kBlack };
  std::vector<std::uint8_t> color(n, kWhite);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // actor, its next edge
  order.clear();
  order.reserve(n);
  for (std::uint32_t root = 0; root < n; ++root) {
    if (color[root] != kWhite) continue;
    color[root] = kGray;
    stack.emplace_back(root, drivers.begin(root));
    while (!stack.empty()) {
      auto& [actor, edge] = stack.back();
      if (edge == drivers.end(actor)) {
        color[actor] = kBlack;
        order.push_back(actor);
        stack.pop_back();
        continue;
      }
      const std::uint32_t driver = drivers.at(edge++);
      if (color[driver] == kWhite) {
        color[driver] = kGray;
        stack.emplace_back(driver, drivers.begin(driver));  // `actor`, `edge` dangle from here
      } else if (color[driver] == kGray) {
        return false;
      }
    }
  }
  return true;
}

/// The strong components of a graph (Tarjan's, without recursion): one
/// number per actor, equal for actors of one component.
std::vector<std::uint32_t> strong_components(const Drivers& graph) {
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = graph.size();
  std::vector<std::uint32_t> index(n, kNone);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint32_t> component(n, kNone);
  std::vector<std::uint32_t> open;                             // visited, no component yet
  std::vector<std::pair<std::uint32_t, std::uint32_t>> calls;  // actor, its next edge
  std::uint32_t visited = 0;
  std::uint32_t count = 0;
  const auto visit = [&](std::uint32_t actor) {
    index[actor] = low[actor] = visited++;
    open.push_back(actor);
    calls.emplace_back(actor, graph.begin(actor));
  };
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    visit(root);
    while (!calls.empty()) {
      const auto [actor, edge] = calls.back();
      if (edge != graph.end(actor)) {
        ++calls.back().second;
        const std::uint32_t next = graph.at(edge);
        if (index[next] == kNone) {
          visit(next);
        } else if (component[next] == kNone) {
          low[actor] = std::min(low[actor], index[next]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[actor]);
      if (low[actor] != index[actor]) continue;
      std::uint32_t member = kNone;
      do {
        member = open.back();
        open.pop_back();
        component[member] = count;
      } while (member != actor);
      ++count;
    }
  }
  return component;
}

/// True when input `p` of `target` is discrete, driven and not fed through:
/// its sender goes before it unless the connection closes a loop.
bool orders_discrete(const FlatActor& target, std::uint32_t p) {
  return target.drivers[p] && !target.actor->feeds_through(p) && target.input_kinds[p] == PortKind::kDiscrete;
}

/// The zero-delay graph of `model` (its connections into feedthrough
/// inputs) as drivers; `discrete_orders` tells whether a discrete input
/// without feedthrough is driven.
Drivers zero_delay_drivers(const FlatModel& model, bool& discrete_orders) {
  const std::size_t n = model.actors.size();
  Drivers zero_delay(n, model.ports.drivers.size());  // at most one edge an input
  discrete_orders = false;
  for (std::uint32_t to = 0; to < n; ++to) {
    if (to + kPrefetchAhead < n) prefetch_object(model.actors[to + kPrefetchAhead].actor);
    const FlatActor& target = model.actors[to];
    zero_delay.next_actor();
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (!target.drivers[p]) continue;
      if (target.actor->feeds_through(p)) {
        zero_delay.add(target.drivers[p]->actor.value());
      } else {
        discrete_orders = discrete_orders || orders_discrete(target, p);
      }
    }
  }
  zero_delay.finish();
  return zero_delay;
}

/// As schedule(): `zero_delay` with the receiver of a discrete input
/// without feedthrough after its sender, unless the connection closes a
/// loop of the whole graph.
Drivers ordering_drivers(const FlatModel& model, const Drivers& zero_delay) {
  const std::size_t n = model.actors.size();
  const std::size_t inputs = model.ports.drivers.size();
  Drivers all(n, inputs);
  for (std::uint32_t to = 0; to < n; ++to) {
    all.next_actor();
    for (const auto& driver : model.actors[to].drivers) {
      if (driver) all.add(driver->actor.value());
    }
  }
  all.finish();
  const std::vector<std::uint32_t> loop = strong_components(all);
  Drivers ordering(n, inputs);
  for (std::uint32_t to = 0; to < n; ++to) {
    const FlatActor& target = model.actors[to];
    ordering.next_actor();
    for (const std::uint32_t from : zero_delay.of(to)) ordering.add(from);
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (orders_discrete(target, p) && loop[target.drivers[p]->actor.index()] != loop[to])
        ordering.add(target.drivers[p]->actor.value());
    }
  }
  ordering.finish();
  return ordering;
}

/// An actor's place in the schedule: sorted by level, then type, then position.
struct Key {
  std::uint32_t level;
  std::uint32_t type;
  std::uint32_t position;  ///< in `order`
};

/// Levels (the longest path from a source), then each level by type name,
/// ties in the order above: schedule()'s order, sorted on numbers. The
/// keys are made per actor, in the actors' order (the type's rank read
/// where the actor objects come one after the other), then sorted.
std::vector<Key> sorted_keys(const FlatModel& model, const Drivers& ordering,
                             const std::vector<std::uint32_t>& order) {
  const std::size_t n = model.actors.size();
  std::vector<Key> keys(n, Key{0, 0, 0});
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t actor = order[i];
    keys[actor].position = i;
    for (const std::uint32_t driver : ordering.of(actor))
      keys[actor].level = std::max(keys[actor].level, keys[driver].level + 1);
  }
  // Each type name numbered as first met (actors of one type share its
  // name's copy: most actors are the type before), then by rank of name.
  std::map<std::string_view, std::uint32_t> seen;
  const std::string* last_type = nullptr;
  std::uint32_t last_id = 0;
  for (std::uint32_t a = 0; a < n; ++a) {
    if (a + kPrefetchAhead < n) prefetch_object(model.actors[a + kPrefetchAhead].actor);
    const std::string& type = model.actors[a].actor->type();
    if (&type != last_type) {
      last_type = &type;
      last_id = seen.emplace(type, static_cast<std::uint32_t>(seen.size())).first->second;
    }
    keys[a].type = last_id;
  }
  std::vector<std::uint32_t> rank_of(seen.size());
  std::uint32_t rank = 0;
  for (const auto& [type, id] : seen) rank_of[id] = rank++;
  for (Key& key : keys) key.type = rank_of[key.type];
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    if (a.level != b.level) return a.level < b.level;
    if (a.type != b.type) return a.type < b.type;
    return a.position < b.position;
  });
  return keys;
}

}  // namespace

bool in_continuous_schedule(const FlatActor& actor) {
  const auto has = [](std::span<const PortKind> kinds, PortKind kind) {
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
  };
  return actor.mode != TimeMode::kDiscrete &&
         (has(actor.output_kinds, PortKind::kContinuous) || has(actor.input_kinds, PortKind::kContinuous) ||
          actor.mode == TimeMode::kConstant || actor.mode == TimeMode::kContinuous);
}

bool in_discrete_schedule(const FlatActor& actor) {
  const auto has = [](std::span<const PortKind> kinds, PortKind kind) {
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
  };
  return has(actor.output_kinds, PortKind::kDiscrete) || has(actor.input_kinds, PortKind::kDiscrete);
}

bool schedule_acyclic(FlatModel& model) {
  const std::size_t n = model.actors.size();
  bool discrete_orders = false;  // a discrete input without feedthrough is driven
  Drivers zero_delay = zero_delay_drivers(model, discrete_orders);
  std::vector<std::uint32_t> order;
  if (!finish_order(zero_delay, order)) return false;  // a loop: the general path
  if (discrete_orders) {
    zero_delay = ordering_drivers(model, zero_delay);
    [[maybe_unused]] const bool acyclic = finish_order(zero_delay, order);
    assert(acyclic);  // a cycle of these edges would be one of the whole graph
  }
  const std::vector<Key> keys = sorted_keys(model, zero_delay, order);

  model.continuous_schedule.clear();
  model.discrete_schedule.clear();
  for (std::uint32_t depth = 0; depth < n; ++depth) {
    if (depth + kPrefetchAhead < n)
      prefetch_object(&model.actors[order[keys[depth + kPrefetchAhead].position]]);
    const std::uint32_t a = order[keys[depth].position];
    FlatActor& actor = model.actors[a];
    actor.depth = ActorId{depth};
    if (in_continuous_schedule(actor)) model.continuous_schedule.push_back(FlatIndex{a});
    if (in_discrete_schedule(actor)) model.discrete_schedule.push_back(FlatIndex{a});
  }
  return true;
}

}  // namespace ctde
