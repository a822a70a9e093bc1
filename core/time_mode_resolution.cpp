#include "core/time_mode_resolution.hpp"

#include <algorithm>
#include <deque>
#include <span>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include "core/error.hpp"
#include "core/port_offsets.hpp"
#include "core/prefetch.hpp"

namespace ctde {

namespace {

/// The kind a resolved actor gives its polymorphic ports.
PortKind kind_of(TimeMode mode) {
  switch (mode) {
    case TimeMode::kDiscrete:
      return PortKind::kDiscrete;
    case TimeMode::kConstant:
      return PortKind::kConstant;
    default:
      return PortKind::kContinuous;
  }
}

class Resolver {
 public:
  explicit Resolver(FlatModel& model)
      : model_(model),
        offsets_(model),
        modes_(model.actors.size()),
        declared_kinds_(model.ports.output_kinds.size()) {}

  void run() {
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      ahead(i);
      FlatActor& actor = model_.actors[i];
      set_mode(i, actor.actor->mode_override().value_or(actor.actor->declared_mode()));
      const std::vector<PortSpec>& outputs = actor.actor->outputs();
      for (std::size_t o = 0; o < outputs.size(); ++o) {
        declared_kinds_[offsets_.output({FlatIndex{i}, static_cast<std::uint32_t>(o)})] = outputs[o].kind;
      }
    }
    fold_constants();
    rule_one();
    while (loops_as_a_whole()) rule_one();
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      if (modes_[i] == TimeMode::kUnresolved) set_mode(i, TimeMode::kContinuous);  // rule 2
    }
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {  // one pass: the actor objects are far apart
      ahead(i);
      assign_port_kinds(model_.actors[i]);
      sample_inputs(model_.actors[i]);
    }
    check_connections();
  }

 private:
  /// In a pass in the actors' order, before actor i: asks for the actor object kPrefetchAhead places on.
  void ahead(std::size_t i) const {
    if (i + kPrefetchAhead < model_.actors.size()) prefetch_object(model_.actors[i + kPrefetchAhead].actor);
  }

  /// Actor i's mode, in its FlatActor and in the compact copy.
  void set_mode(std::uint32_t i, TimeMode mode) {
    model_.actors[i].mode = mode;
    modes_[i] = mode;
  }

  /// The kind of signal on output `ref` as far as it is known now; kPolymorphic = not yet.
  /// (Read from the compact arrays: the driver's FlatActor is a cache miss away.)
  PortKind driver_kind(const PortRef& ref) const {
    const PortKind declared = declared_kinds_[offsets_.output(ref)];
    if (declared != PortKind::kPolymorphic) return declared;
    const TimeMode mode = modes_[ref.actor.index()];
    return mode == TimeMode::kUnresolved ? PortKind::kPolymorphic : kind_of(mode);
  }

  template <class Decide>
  void propagate(Decide decide) {
    std::deque<std::uint32_t> work;
    std::vector<char> queued(model_.actors.size(), 0);
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      if (modes_[i] == TimeMode::kUnresolved) {
        work.push_back(i);
        queued[i] = 1;
      }
    }
    while (!work.empty()) {
      const std::uint32_t i = work.front();
      work.pop_front();
      queued[i] = 0;
      if (modes_[i] != TimeMode::kUnresolved) continue;
      const FlatActor& actor = model_.actors[i];
      const auto mode = decide(actor);
      if (mode == TimeMode::kUnresolved) continue;
      set_mode(i, mode);
      for (std::size_t o = 0; o < actor.receivers.size(); ++o) {
        for (const PortRef& r : actor.receivers[o]) {
          if (modes_[r.actor.index()] == TimeMode::kUnresolved && queued[r.actor.index()] == 0) {
            work.push_back(r.actor.value());
            queued[r.actor.index()] = 1;
          }
        }
      }
    }
  }

  /// A polymorphic actor whose every input is driven by a constant is constant.
  void fold_constants() {
    propagate([this](const FlatActor& actor) {
      if (actor.drivers.empty() || !actor.actor->can_be_constant()) return TimeMode::kUnresolved;
      for (const auto& driver : actor.drivers) {
        if (!driver || driver_kind(*driver) != PortKind::kConstant) return TimeMode::kUnresolved;
      }
      return TimeMode::kConstant;
    });
  }

  /// Rule 1: all non-constant upstreams discrete (and at least one) → discrete.
  void rule_one() {
    propagate([this](const FlatActor& actor) {
      bool any = false;
      for (const auto& driver : actor.drivers) {
        if (!driver) continue;
        const PortKind kind = driver_kind(*driver);
        if (kind == PortKind::kConstant) continue;
        if (kind != PortKind::kDiscrete) return TimeMode::kUnresolved;
        any = true;
      }
      return any ? TimeMode::kDiscrete : TimeMode::kUnresolved;
    });
  }

  /// Rule 1 for loops: a strong component of unresolved actors (a loop of
  /// polymorphic actors, which cannot meet rule 1 as they are upstream of
  /// themselves) whose non-constant inputs from outside are all discrete (and
  /// at least one) is discrete as a whole. Returns whether any was resolved.
  bool loops_as_a_whole() {
    bool resolved = false;
    for (const std::vector<std::uint32_t>& group : unresolved_components()) {
      if (group.size() < 2 && !feeds_itself(group.front())) continue;
      if (!only_discrete_from_outside(group)) continue;
      for (const std::uint32_t i : group) set_mode(i, TimeMode::kDiscrete);
      resolved = true;
    }
    return resolved;
  }

  bool feeds_itself(std::uint32_t i) const {
    for (const auto& driver : model_.actors[i].drivers) {
      if (driver && driver->actor.index() == i) return true;
    }
    return false;
  }

  bool only_discrete_from_outside(const std::vector<std::uint32_t>& group) const {
    std::vector<char> inside(model_.actors.size(), 0);
    for (const std::uint32_t i : group) inside[i] = 1;
    bool any = false;
    for (const std::uint32_t i : group) {
      for (const auto& driver : model_.actors[i].drivers) {
        if (!driver) continue;
        const PortKind kind = driver_kind(*driver);
        if (inside[driver->actor.index()] != 0 && kind == PortKind::kPolymorphic) continue;
        if (kind == PortKind::kConstant) continue;
        if (kind != PortKind::kDiscrete) return false;
        any = true;
      }
    }
    return any;
  }

  /// The strong components of the graph of unresolved actors (Boost.Graph's
  /// strong_components, as the model graph finds loops: core/model_graph.cpp).
  std::vector<std::vector<std::uint32_t>> unresolved_components() const {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    const std::size_t n = model_.actors.size();
    Graph graph(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (modes_[i] != TimeMode::kUnresolved) continue;
      for (const auto& driver : model_.actors[i].drivers) {
        if (driver && modes_[driver->actor.index()] == TimeMode::kUnresolved)
          boost::add_edge(driver->actor.value(), i, graph);
      }
    }
    std::vector<int> component(n);
    const int count = boost::strong_components(
        graph, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph)));
    std::vector<std::vector<std::uint32_t>> components(static_cast<std::size_t>(count));
    for (std::uint32_t i = 0; i < n; ++i) {
      if (modes_[i] == TimeMode::kUnresolved) components[static_cast<std::size_t>(component[i])].push_back(i);
    }
    std::erase_if(components, [](const auto& c) { return c.empty(); });
    return components;
  }

  static void assign_port_kinds(FlatActor& actor) {
    const auto resolve = [&actor](const std::vector<PortSpec>& ports, std::span<PortKind> kinds) {
      for (std::size_t i = 0; i < ports.size(); ++i) {
        kinds[i] = ports[i].kind == PortKind::kPolymorphic ? kind_of(actor.mode) : ports[i].kind;
      }
    };
    resolve(actor.actor->inputs(), actor.input_kinds);
    resolve(actor.actor->outputs(), actor.output_kinds);
  }

  /// A polymorphic input of an actor of a fixed mode (a co-simulation FMU's
  /// inputs, read at its firings) takes its driver's kind: a continuous
  /// signal's value or a discrete signal's latest token; continuous when
  /// unconnected.
  void sample_inputs(FlatActor& actor) const {
    if (actor.actor->declared_mode() == TimeMode::kUnresolved) return;
    const std::vector<PortSpec>& ports = actor.actor->inputs();
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (ports[i].kind != PortKind::kPolymorphic) continue;
      actor.input_kinds[i] = actor.drivers[i] ? driver_kind(*actor.drivers[i]) : PortKind::kContinuous;
    }
  }

  void check_connections() const {
    for (const auto& actor : model_.actors) {
      for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
        if (!actor.drivers[i]) continue;
        const PortRef& from = *actor.drivers[i];
        const PortKind out = model_.ports.output_kinds[offsets_.output(from)];
        const PortKind in = actor.input_kinds[i];
        if (out == PortKind::kConstant || in == PortKind::kConstant || out == in) continue;
        const FlatActor& driver = model_[from.actor];
        const std::string out_name = driver.path + "." + driver.actor->outputs()[from.port].name;
        const std::string in_name = actor.path + "." + actor.actor->inputs()[i].name;
        const bool c_to_d = out == PortKind::kContinuous;
        throw ModelError(std::string(c_to_d ? "continuous" : "discrete") + " output '" + out_name +
                         "' drives " + (c_to_d ? "discrete" : "continuous") + " input '" + in_name +
                         "': a continuous port " +
                         "never connects to a discrete port; insert a converter between them (" +
                         (c_to_d ? "PeriodicSampler or Sampler, or a LevelCrossingDetector"
                                 : "ZeroOrderHold or FirstOrderHold") +
                         ")" + override_hint(driver, actor))
            .located(std::string(actor.driver_locations[i]));
      }
    }
  }

  static std::string override_hint(const FlatActor& driver, const FlatActor& receiver) {
    for (const FlatActor* a : {&driver, &receiver}) {
      if (a->actor->declared_mode() == TimeMode::kUnresolved && !a->actor->mode_override()) {
        return "; '" + a->path + "' is polymorphic and resolved " + std::string(to_string(a->mode)) +
               ", a \"time_mode\" on it overrides that";
      }
    }
    return "";
  }

  FlatModel& model_;
  PortOffsets offsets_;
  std::vector<TimeMode> modes_;           ///< per actor: its mode so far (as its FlatActor's)
  std::vector<PortKind> declared_kinds_;  ///< per output of the port arrays: its declared kind
};

}  // namespace

void resolve_time_modes(FlatModel& model) { Resolver(model).run(); }

}  // namespace ctde
