#include "core/model_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>

#include "core/acyclic_schedule.hpp"
#include "core/error.hpp"
#include "core/fast_paths.hpp"
#include "core/loop_sampling.hpp"

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

/// Names a cycle of actors, "a -> b -> a", and tells whether every edge of it is continuous.
template <class ActorOf>
std::pair<std::string, bool> describe_cycle(const FlatModel& model, const FeedthroughGraph& graph,
                                            const std::vector<Vertex>& cycle, ActorOf actor_of) {
  bool continuous = true;
  std::string names;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const Vertex from = cycle[i];
    const Vertex to = cycle[(i + 1) % cycle.size()];
    names += model.actors[actor_of(from)].path + " -> ";
    for (auto [e, end] = boost::out_edges(from, graph); e != end; ++e) {
      if (boost::target(*e, graph) == to && boost::get(boost::edge_weight, graph, *e) != 0)
        continuous = false;
    }
  }
  names += model.actors[actor_of(cycle.front())].path;
  return {names, continuous};
}

[[noreturn]] void throw_loop(const FlatModel& model, std::uint32_t first, const std::string& names,
                             bool continuous) {
  // Located at the loop's first actor, where the model file wrote it.
  const SourceLocation& where = model.actors[first].actor->location();
  const auto located = [&where](const ModelError& e) { return where.empty() ? e : e.located(where); };
  if (continuous) {
    throw located(ModelError("algebraic loop among direct-feedthrough continuous actors: " + names +
                             " (break it with a state, e.g. an Integrator, or a delay)"));
  }
  throw located(ModelError("causality loop: a zero-delay cycle among discrete actors: " + names +
                           " (break it with a TimeDelay, whose delay 0 means the next microstep)"));
}

/// A strong component of the actor graph that is no loop at the level of
/// ports: each output depends on inputs (Actor::feeds_through(in, out)) that
/// do not close the cycle. Its actors are evaluated in `sequence`, an actor
/// more than once where one of its outputs is needed before the inputs of
/// another are known; `chain` orders them by their last evaluation.
struct PortOrderedLoop {
  std::vector<std::uint32_t> sequence;
  std::vector<std::uint32_t> chain;
  /// An algebraic loop, solved: its cycle's names and first actor (its
  /// order is `sequence`, its tears the last `tears` of it).
  std::uint32_t tears = 0;
  std::string cycle;
  std::uint32_t first = 0;
};

/// Whether vertex v of `graph` lies on a cycle: in a strong component of
/// two or more (`size` per component), or on an edge to itself.
bool on_cycle(const FeedthroughGraph& graph, Vertex v, const std::vector<int>& component,
              const std::vector<int>& size) {
  if (size[static_cast<std::size_t>(component[v])] >= 2) return true;
  for (auto [e, end] = boost::out_edges(v, graph); e != end; ++e) {
    if (boost::target(*e, graph) == v) return true;
  }
  return false;
}

/// The tears of the algebraic loop `members` (strong component c): a small
/// set of actors whose outputs, once guessed, leave the rest without a
/// cycle. Greedy: while a cycle is left, the actor on one with the most
/// in-edges times out-edges among the actors left (ties: the first in
/// `members`) becomes a tear. Returns the loop, named by `cycle` from its
/// actor `first`: its sequence and chain the others in a topological
/// order, then the tears.
PortOrderedLoop tear(const FlatModel& model, const std::vector<std::uint32_t>& members,
                     const std::vector<int>& component, int c, const std::string& cycle,
                     std::uint32_t first) {
  PortOrderedLoop loop;
  loop.cycle = cycle;
  loop.first = first;
  const std::size_t m = members.size();
  const auto local = [&](std::uint32_t actor) {
    return static_cast<Vertex>(std::lower_bound(members.begin(), members.end(), actor) - members.begin());
  };
  std::vector<std::pair<Vertex, Vertex>> edges;
  for (const std::uint32_t to : members) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      const auto& driver = target.drivers[p];
      if (driver && component[driver->actor.index()] == c && target.actor->feeds_through(p))
        edges.emplace_back(local(driver->actor.value()), local(to));
    }
  }
  std::vector<std::uint8_t> torn(m, 0);
  std::vector<Vertex> tears;
  for (;;) {
    FeedthroughGraph rest(m);
    for (const auto& [from, to] : edges) {
      if (torn[from] == 0 && torn[to] == 0) boost::add_edge(from, to, 0, rest);
    }
    std::vector<int> in_component(m);
    const int count = boost::strong_components(
        rest, boost::make_iterator_property_map(in_component.begin(), boost::get(boost::vertex_index, rest)));
    std::vector<int> size(static_cast<std::size_t>(count), 0);
    for (const int k : in_component) ++size[static_cast<std::size_t>(k)];
    std::optional<Vertex> best;
    std::size_t best_degree = 0;
    for (Vertex v = 0; v < m; ++v) {
      if (torn[v] != 0 || !on_cycle(rest, v, in_component, size)) continue;
      const std::size_t degree = boost::in_degree(v, rest) * boost::out_degree(v, rest);
      if (!best || degree > best_degree) {
        best = v;
        best_degree = degree;
      }
    }
    if (!best) {
      std::vector<Vertex> order;
      const auto reversed = boost::make_reverse_graph(rest);
      boost::topological_sort(reversed, std::back_inserter(order),
                              boost::vertex_index_map(boost::get(boost::vertex_index, rest)));
      for (const Vertex v : order) {
        if (torn[v] == 0) loop.sequence.push_back(members[v]);
      }
      break;
    }
    torn[*best] = 1;
    tears.push_back(*best);
  }
  for (const Vertex v : tears) loop.sequence.push_back(members[v]);
  loop.chain = loop.sequence;
  loop.tears = static_cast<std::uint32_t>(tears.size());
  return loop;
}

/// Whether the loop `members` can be solved at every evaluation: each of
/// its actors is evaluated with the continuous (or constant) outputs, not
/// fired as a discrete one.
bool solvable(const FlatModel& model, const std::vector<std::uint32_t>& members) {
  return std::all_of(members.begin(), members.end(), [&](std::uint32_t a) {
    const FlatActor& actor = model.actors[a];
    return (actor.mode == TimeMode::kContinuous || actor.mode == TimeMode::kConstant) &&
           in_continuous_schedule(actor);
  });
}

/// The outputs of the actors of strong component `c` (`members`) as the
/// vertices of a graph: an edge from A.o to B.o' when A.o drives an input of
/// B that feeds o' directly; weight 1 when discrete. Throws the loop when
/// that graph has a cycle too, or when the component has a discrete edge
/// (a discrete actor fires once per microstep: it is not evaluated twice).
PortOrderedLoop order_by_ports(const FlatModel& model, const std::vector<std::uint32_t>& members,
                               const std::vector<int>& component, int c) {
  std::vector<std::uint32_t> first_node;  // per member: the vertex of its output 0
  std::vector<std::uint32_t> node_actor;
  for (const std::uint32_t a : members) {
    first_node.push_back(static_cast<std::uint32_t>(node_actor.size()));
    node_actor.insert(node_actor.end(), model.actors[a].output_kinds.size(), a);
  }
  const auto node_of = [&](std::uint32_t actor, std::uint32_t port) {
    const auto at = std::lower_bound(members.begin(), members.end(), actor) - members.begin();
    return first_node[static_cast<std::size_t>(at)] + port;
  };
  FeedthroughGraph ports(node_actor.size());
  bool discrete = false;
  for (const std::uint32_t to : members) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      const auto& driver = target.drivers[p];
      if (!driver || component[driver->actor.index()] != c || !target.actor->feeds_through(p)) continue;
      const bool continuous = model[driver->actor].output_kinds[driver->port] != PortKind::kDiscrete &&
                              target.input_kinds[p] != PortKind::kDiscrete;
      discrete = discrete || !continuous;
      for (std::uint32_t o = 0; o < target.output_kinds.size(); ++o) {
        if (target.actor->feeds_through(p, o)) {
          boost::add_edge(node_of(driver->actor.value(), driver->port), node_of(to, o), continuous ? 0 : 1,
                          ports);
        }
      }
    }
  }
  std::vector<int> port_component(node_actor.size());
  const int count = boost::strong_components(
      ports,
      boost::make_iterator_property_map(port_component.begin(), boost::get(boost::vertex_index, ports)));
  std::vector<int> size(static_cast<std::size_t>(count), 0);
  for (const int pc : port_component) ++size[static_cast<std::size_t>(pc)];
  for (Vertex v = 0; v < node_actor.size(); ++v) {
    bool self_loop = false;
    for (auto [e, end] = boost::out_edges(v, ports); e != end; ++e) {
      self_loop = self_loop || boost::target(*e, ports) == v;
    }
    if (size[static_cast<std::size_t>(port_component[v])] < 2 && !self_loop) continue;
    const std::vector<Vertex> cycle = cycle_through(ports, v, port_component);
    const auto [names, continuous] =
        describe_cycle(model, ports, cycle, [&](Vertex node) { return node_actor[node]; });
    if (!continuous || discrete || !solvable(model, members))
      throw_loop(model, node_actor[cycle.front()], names, continuous);
    return tear(model, members, component, c, names, node_actor[cycle.front()]);
  }
  if (discrete) return {};  // the caller reports the actors' cycle
  std::vector<Vertex> order;
  const auto reversed = boost::make_reverse_graph(ports);
  boost::topological_sort(reversed, std::back_inserter(order),
                          boost::vertex_index_map(boost::get(boost::vertex_index, ports)));
  // One evaluation per run of consecutive outputs of one actor, unless an
  // output of the run drives (through an input of the actor) a later one.
  PortOrderedLoop loop;
  std::vector<std::uint8_t> in_run(node_actor.size(), 0);
  std::vector<Vertex> run;
  for (const Vertex v : order) {
    bool same = !loop.sequence.empty() && loop.sequence.back() == node_actor[v];
    for (auto [e, end] = boost::in_edges(v, ports); same && e != end; ++e) {
      same = in_run[boost::source(*e, ports)] == 0;
    }
    if (!same) {
      for (const Vertex r : run) in_run[r] = 0;
      run.clear();
      loop.sequence.push_back(node_actor[v]);
    }
    in_run[v] = 1;
    run.push_back(v);
  }
  for (std::size_t i = loop.sequence.size(); i-- > 0;) {
    const std::uint32_t a = loop.sequence[i];
    if (std::find(loop.chain.begin(), loop.chain.end(), a) == loop.chain.end()) loop.chain.push_back(a);
  }
  std::reverse(loop.chain.begin(), loop.chain.end());
  return loop;
}

/// The zero-delay graph of `model`: its connections into feedthrough
/// inputs; an edge's weight is 1 when it is discrete.
FeedthroughGraph zero_delay_graph(const FlatModel& model) {
  const std::size_t n = model.actors.size();
  FeedthroughGraph zero_delay(n);
  for (std::uint32_t to = 0; to < n; ++to) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (!target.drivers[p] || !target.actor->feeds_through(p)) continue;
      const PortRef& from = *target.drivers[p];
      const bool continuous = model[from.actor].output_kinds[from.port] != PortKind::kDiscrete &&
                              target.input_kinds[p] != PortKind::kDiscrete;
      boost::add_edge(from.actor.value(), to, continuous ? 0 : 1, zero_delay);
    }
  }
  return zero_delay;
}

/// The loops of the zero-delay graph that their ports order, and which
/// actors belong to each.
struct PortOrderedLoops {
  std::vector<PortOrderedLoop> loops;
  std::vector<int> loop_of_actor;  ///< per actor: its entry in loops, or -1 (empty: no such loop)

  /// The entry in `loops` of actor `a`'s loop, or -1 when it is in none.
  [[nodiscard]] int of(std::uint32_t a) const { return loops.empty() ? -1 : loop_of_actor[a]; }
};

/// The strong components of `zero_delay` that their actors' own (input,
/// output) pairs break (order_by_ports), to be evaluated in their ports'
/// order. Throws the first loop in the model (components are taken in the
/// order of their first actor) that is not broken so.
PortOrderedLoops order_loops(const FlatModel& model, const FeedthroughGraph& zero_delay) {
  const std::size_t n = model.actors.size();
  std::vector<int> component(n);
  const int count = boost::strong_components(
      zero_delay,
      boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, zero_delay)));
  std::vector<int> size(static_cast<std::size_t>(count), 0);
  for (const int c : component) ++size[static_cast<std::size_t>(c)];
  std::vector<std::uint32_t> looped;  // actors in a strong component of two or more, or on a self-loop
  for (Vertex v = 0; v < n; ++v) {
    bool self_loop = false;
    for (auto [e, end] = boost::out_edges(v, zero_delay); e != end; ++e) {
      self_loop = self_loop || boost::target(*e, zero_delay) == v;
    }
    if (size[static_cast<std::size_t>(component[v])] >= 2 || self_loop)
      looped.push_back(static_cast<std::uint32_t>(v));
  }
  PortOrderedLoops ordered;
  if (looped.empty()) return ordered;
  std::vector<std::vector<std::uint32_t>> members(static_cast<std::size_t>(count));
  for (const std::uint32_t a : looped) members[static_cast<std::size_t>(component[a])].push_back(a);
  ordered.loop_of_actor.assign(n, -1);
  for (const std::uint32_t first : looped) {
    const int c = component[first];
    std::vector<std::uint32_t>& in_loop = members[static_cast<std::size_t>(c)];
    if (in_loop.empty()) continue;  // done
    PortOrderedLoop loop = order_by_ports(model, in_loop, component, c);
    if (loop.chain.empty()) {  // discrete: the actors' cycle is the loop
      const std::vector<Vertex> cycle = cycle_through(zero_delay, first, component);
      const auto [names, continuous] = describe_cycle(
          model, zero_delay, cycle, [](Vertex actor) { return static_cast<std::uint32_t>(actor); });
      throw_loop(model, static_cast<std::uint32_t>(cycle.front()), names, continuous);
    }
    for (const std::uint32_t a : in_loop) ordered.loop_of_actor[a] = static_cast<int>(ordered.loops.size());
    ordered.loops.push_back(std::move(loop));
    in_loop.clear();
  }
  return ordered;
}

/// The graph whose topological order is the schedule: `zero_delay`, with
/// each loop ordered by ports replaced by its chain (its actors in the
/// order of their last evaluation, after every actor that drives one of
/// them), and an edge to the receiver of a discrete input without
/// feedthrough (an Integrator's reset, a TimeDelay's input) from its
/// sender, unless the connection closes a loop.
FeedthroughGraph ordering_graph(const FlatModel& model, const FeedthroughGraph& zero_delay,
                                const PortOrderedLoops& loops, const std::vector<int>& loop) {
  const std::size_t n = model.actors.size();
  // A reset sent at (t, n) then happens at (t, n), where every later reader
  // sees it, instead of waiting for the next microstep. The connections that
  // close loops (`loop`: the strong components of the whole graph) stay
  // out, so the order exists.
  FeedthroughGraph ordering = loops.loops.empty() ? zero_delay : FeedthroughGraph(n);
  if (!loops.loops.empty()) {
    for (auto [e, end] = boost::edges(zero_delay); e != end; ++e) {
      const Vertex from = boost::source(*e, zero_delay);
      const Vertex to = boost::target(*e, zero_delay);
      const int loop_to = loops.of(static_cast<std::uint32_t>(to));
      if (loop_to >= 0 && loops.of(static_cast<std::uint32_t>(from)) == loop_to)
        continue;  // inside the loop: the chain orders it
      const Vertex head = loop_to >= 0 ? loops.loops[static_cast<std::size_t>(loop_to)].chain.front() : to;
      boost::add_edge(from, head, boost::get(boost::edge_weight, zero_delay, *e), ordering);
      if (head != to) boost::add_edge(from, to, boost::get(boost::edge_weight, zero_delay, *e), ordering);
    }
    for (const PortOrderedLoop& ordered : loops.loops) {
      for (std::size_t i = 1; i < ordered.chain.size(); ++i)
        boost::add_edge(ordered.chain[i - 1], ordered.chain[i], 0, ordering);
    }
  }
  for (std::uint32_t to = 0; to < n; ++to) {
    const FlatActor& target = model.actors[to];
    for (std::uint32_t p = 0; p < target.drivers.size(); ++p) {
      if (!target.drivers[p] || target.actor->feeds_through(p) ||
          target.input_kinds[p] != PortKind::kDiscrete) {
        continue;
      }
      const std::uint32_t from = target.drivers[p]->actor.value();
      if (loop[from] != loop[to]) boost::add_edge(from, to, 1, ordering);
    }
  }
  // A discrete loop's breaker fires after every sender into its loop: it
  // sends when their tokens sample the loop, before the loop's actors fire.
  for (const LoopWake& w : model.loop_wakes) {
    boost::add_edge(model[w.actor].drivers[w.input]->actor.value(), w.breaker.value(), 1, ordering);
  }
  return ordering;
}

/// Each actor's strong component of the graph of all connections.
std::vector<int> connection_components(const FlatModel& model) {
  const std::size_t n = model.actors.size();
  FeedthroughGraph all(n);
  for (std::uint32_t to = 0; to < n; ++to) {
    for (const auto& driver : model.actors[to].drivers) {
      if (driver) boost::add_edge(driver->actor.value(), to, 0, all);
    }
  }
  std::vector<int> component(n);
  boost::strong_components(
      all, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, all)));
  return component;
}

/// The actors of `model` in the schedule's order: a topological order of
/// `ordering`, then by level and, within a level, by actor type.
std::vector<Vertex> level_order(const FlatModel& model, const FeedthroughGraph& ordering) {
  const std::size_t n = model.actors.size();
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
  return order;
}

}  // namespace

void throw_algebraic_loop(const FlatModel& model, const AlgebraicLoop& loop) {
  throw_loop(model, loop.first.value(), loop.cycle, /*continuous=*/true);
}

void schedule(FlatModel& model) {
  // No loops: the same order on flat arrays (a fast path: core/fast_paths.hpp).
  // A discrete loop a delay may break by sampling it is ordered on the
  // graphs, which put its breaker after the senders into its loop.
  model.loop_breakers.clear();
  model.loop_wakes.clear();
  if (!fast_paths_enabled() || may_sample_loops(model) || !schedule_acyclic(model)) schedule_on_graphs(model);
}

void schedule_on_graphs(FlatModel& model) {
  const FeedthroughGraph zero_delay = zero_delay_graph(model);
  // A strong component is a loop unless its actors' own (input, output)
  // pairs break it; those they break are evaluated in their ports' order.
  const PortOrderedLoops loops = order_loops(model, zero_delay);
  // The order also puts the receiver of a discrete input without
  // feedthrough after its sender, unless the connection closes a loop.
  const std::vector<int> component = connection_components(model);
  find_loop_sampling(model, component);  // discrete loops a delay breaks by sampling them
  const std::vector<Vertex> order = level_order(model, ordering_graph(model, zero_delay, loops, component));
  model.continuous_schedule.clear();
  model.discrete_schedule.clear();
  model.algebraic_loops.clear();
  for (const PortOrderedLoop& loop : loops.loops) {
    if (loop.cycle.empty()) continue;
    AlgebraicLoop& solved = model.algebraic_loops.emplace_back();
    for (const std::uint32_t a : loop.sequence) solved.order.push_back(FlatIndex{a});
    solved.tears = loop.tears;
    solved.cycle = loop.cycle;
    solved.first = FlatIndex{loop.first};
  }
  for (std::uint32_t depth = 0; depth < order.size(); ++depth) {
    const auto a = static_cast<std::uint32_t>(order[depth]);
    FlatActor& actor = model.actors[a];
    actor.depth = ActorId{depth};
    const int in_loop = loops.of(a);
    if (in_loop < 0) {
      if (in_continuous_schedule(actor)) model.continuous_schedule.push_back(FlatIndex{a});
    } else if (const PortOrderedLoop& ordered = loops.loops[static_cast<std::size_t>(in_loop)];
               ordered.chain.front() == a) {
      // A loop ordered by ports: its whole evaluation sequence, at its first actor.
      for (const std::uint32_t b : ordered.sequence) {
        if (in_continuous_schedule(model.actors[b])) model.continuous_schedule.push_back(FlatIndex{b});
      }
    }
    if (in_discrete_schedule(actor)) model.discrete_schedule.push_back(FlatIndex{a});
  }
}

}  // namespace ctde
