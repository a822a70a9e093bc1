#include "core/model_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>

#include "core/error.hpp"

namespace ctde {

namespace {

/// The zero-delay part of the model graph: only edges into feedthrough
/// inputs; an edge's weight is 1 when it is discrete.
using FeedthroughGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property,
                          boost::property<boost::edge_weight_t, int>>;
using Vertex = boost::graph_traits<FeedthroughGraph>::vertex_descriptor;

/// A shortest cycle through `start` inside its strong component, as actor indices.
std::vector<Vertex> cycle_through(const FeedthroughGraph& graph, Vertex start,
                                  const std::vector<int>& component) {
  std::vector<Vertex> parent(boost::num_vertices(graph),
                             boost::graph_traits<FeedthroughGraph>::null_vertex());
  std::deque<Vertex> work{start};
  while (!work.empty()) {
    const Vertex v = work.front();
    work.pop_front();
    for (auto [e, end] = boost::out_edges(v, graph); e != end; ++e) {
      const Vertex w = boost::target(*e, graph);
      if (component[w] != component[start]) continue;
      if (w == start) {
        std::vector<Vertex> cycle{v};
        while (cycle.back() != start) cycle.push_back(parent[cycle.back()]);
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (parent[w] != boost::graph_traits<FeedthroughGraph>::null_vertex()) continue;
      parent[w] = v;
      work.push_back(w);
    }
  }
  return {start};
}

}  // namespace

void schedule(FlatModel& model) {
  const std::size_t n = model.actors.size();

  // The zero-delay graph: connections into feedthrough inputs; an edge's
  // weight is 1 when it is discrete.
  FeedthroughGraph zero_delay(n);
  for (std::uint32_t to = 0; to < n; ++to) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (!target.drivers[p] || !target.actor->feeds_through(p)) continue;
      const PortRef& from = *target.drivers[p];
      const bool continuous = model.actors[from.actor].output_kinds[from.port] != PortKind::kDiscrete &&
                              target.input_kinds[p] != PortKind::kDiscrete;
      boost::add_edge(from.actor, to, continuous ? 0 : 1, zero_delay);
    }
  }

  std::vector<int> component(n);
  const int count = boost::strong_components(
      zero_delay,
      boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, zero_delay)));
  std::vector<int> size(static_cast<std::size_t>(count), 0);
  for (const int c : component) ++size[static_cast<std::size_t>(c)];
  for (Vertex v = 0; v < n; ++v) {
    bool self_loop = false;
    for (auto [e, end] = boost::out_edges(v, zero_delay); e != end; ++e) {
      self_loop = self_loop || boost::target(*e, zero_delay) == v;
    }
    if (size[static_cast<std::size_t>(component[v])] < 2 && !self_loop) continue;
    const std::vector<Vertex> cycle = cycle_through(zero_delay, v, component);
    bool continuous = true;
    std::string names;
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      const Vertex from = cycle[i];
      const Vertex to = cycle[(i + 1) % cycle.size()];
      names += model.actors[from].path + " -> ";
      for (auto [e, end] = boost::out_edges(from, zero_delay); e != end; ++e) {
        if (boost::target(*e, zero_delay) == to && boost::get(boost::edge_weight, zero_delay, *e) != 0) {
          continuous = false;
        }
      }
    }
    names += model.actors[cycle.front()].path;
    // Located at the loop's first actor, where the model file wrote it.
    const std::string& where = model.actors[cycle.front()].actor->location();
    const auto located = [&where](const ModelError& e) { return where.empty() ? e : e.located(where); };
    if (continuous) {
      throw located(ModelError("algebraic loop among direct-feedthrough continuous actors: " + names +
                               " (break it with a state, e.g. an Integrator, or a delay)"));
    }
    throw located(ModelError("causality loop: a zero-delay cycle among discrete actors: " + names +
                             " (break it with a TimeDelay, whose delay 0 means the next microstep)"));
  }

  // The order also puts the receiver of a discrete input without
  // feedthrough (an Integrator's reset, a TimeDelay's input) after its
  // sender, unless the connection closes a loop: a reset sent at (t, n)
  // then happens at (t, n), where every later reader sees it, instead of
  // waiting for the next microstep. The connections that close loops (the
  // strong components of the whole graph) stay out, so the order exists.
  FeedthroughGraph all(n);
  for (std::uint32_t to = 0; to < n; ++to) {
    for (const auto& driver : model.actors[to].drivers) {
      if (driver) boost::add_edge(driver->actor, to, 0, all);
    }
  }
  std::vector<int> loop(n);
  boost::strong_components(
      all, boost::make_iterator_property_map(loop.begin(), boost::get(boost::vertex_index, all)));
  FeedthroughGraph ordering = zero_delay;
  for (std::uint32_t to = 0; to < n; ++to) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (!target.drivers[p] || target.actor->feeds_through(p) ||
          target.input_kinds[p] != PortKind::kDiscrete) {
        continue;
      }
      const std::uint32_t from = target.drivers[p]->actor;
      if (loop[from] != loop[to]) boost::add_edge(from, to, 1, ordering);
    }
  }

  // Topological order of that graph. Sorting the reversed graph
  // yields the order directly (each actor after its drivers) and keeps
  // unrelated actors in definition order, which reads better than the
  // reversed postorder of the graph itself.
  std::vector<Vertex> order;
  order.reserve(n);
  const auto reversed = boost::make_reverse_graph(ordering);
  boost::topological_sort(reversed, std::back_inserter(order),
                          boost::vertex_index_map(boost::get(boost::vertex_index, ordering)));

  // Level = the longest path from a source in that graph. Actors of one level
  // do not depend on each other, so ordering each level by actor type is
  // still a topological order; on the RHS path it turns thousands of
  // alternating virtual calls into long runs of the same one (the branch
  // predictor's friend). Ties keep the order above.
  std::vector<std::uint32_t> level(n, 0);
  std::vector<std::uint32_t> position(n, 0);
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const Vertex v = order[i];
    position[v] = i;
    for (auto [e, end] = boost::out_edges(v, ordering); e != end; ++e) {
      const Vertex w = boost::target(*e, ordering);
      level[w] = std::max(level[w], level[v] + 1);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](Vertex a, Vertex b) {
    if (level[a] != level[b]) return level[a] < level[b];
    const std::string& ta = model.actors[a].actor->type();
    const std::string& tb = model.actors[b].actor->type();
    if (ta != tb) return ta < tb;
    return position[a] < position[b];
  });
  model.continuous_schedule.clear();
  model.discrete_schedule.clear();
  for (std::uint32_t depth = 0; depth < order.size(); ++depth) {
    FlatActor& actor = model.actors[order[depth]];
    actor.depth = depth;
    const auto has = [](const std::vector<PortKind>& kinds, PortKind kind) {
      return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
    };
    const bool continuous =
        actor.mode != TimeMode::kDiscrete &&
        (has(actor.output_kinds, PortKind::kContinuous) || has(actor.input_kinds, PortKind::kContinuous) ||
         actor.mode == TimeMode::kConstant || actor.mode == TimeMode::kContinuous);
    const bool discrete =
        has(actor.output_kinds, PortKind::kDiscrete) || has(actor.input_kinds, PortKind::kDiscrete);
    if (continuous) model.continuous_schedule.push_back(static_cast<std::uint32_t>(order[depth]));
    if (discrete) model.discrete_schedule.push_back(static_cast<std::uint32_t>(order[depth]));
  }
}

}  // namespace ctde
