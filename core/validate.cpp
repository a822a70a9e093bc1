#include "core/validate.hpp"

#include <array>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"
#include "core/model_graph.hpp"
#include "core/port_offsets.hpp"
#include "core/prefetch.hpp"
#include "core/time_mode_resolution.hpp"
#include "core/width_inference.hpp"

namespace ctde {

namespace {

/// Binds the connections of every composite to leaf ports.
class Flattener {
 public:
  explicit Flattener(FlatModel& flat) : flat_(flat) {}

  void collect(const Composite& composite, const ParameterScope& scope) {
    std::vector<std::uint32_t>& index = index_[&composite];  // node-stable while children add theirs
    const auto& children = composite.children();
    index.assign(children.size(), kNotLeaf);
    for (std::size_t c = 0; c < children.size(); ++c) {
      // The children lie apart in the heap: ask for the one a few places on.
      if (c + kPrefetchAhead < children.size()) prefetch_object(children[c + kPrefetchAhead].get());
      const auto& child = children[c];
      child->resolve_parameters(scope);
      if (child->is_composite()) {
        collect(static_cast<const Composite&>(*child), scope);
        continue;
      }
      FlatActor entry;
      entry.actor = child.get();
      entry.path = child->path();
      index[c] = static_cast<std::uint32_t>(flat_.actors.size());
      flat_.actors.push_back(std::move(entry));
      // Its ports are configured now (resolve_parameters): counted here,
      // so that lay_out_ports need not visit the actor objects again.
      port_counts_.push_back({static_cast<std::uint32_t>(child->inputs().size()),
                              static_cast<std::uint32_t>(child->outputs().size())});
    }
  }

  /// Once every actor is collected (its ports configured): the port arrays,
  /// and each actor's runs of them.
  void lay_out_ports() {
    std::size_t inputs = 0;
    std::size_t outputs = 0;
    for (const PortCounts& counts : port_counts_) {
      inputs += counts.inputs;
      outputs += counts.outputs;
    }
    FlatPortArrays& ports = flat_.ports;
    ports.input_kinds.assign(inputs, PortKind::kPolymorphic);
    ports.input_widths.assign(inputs, kInferredWidth);
    ports.drivers.assign(inputs, std::nullopt);
    ports.driver_locations.assign(inputs, SourceLocation());
    ports.output_kinds.assign(outputs, PortKind::kPolymorphic);
    ports.output_widths.assign(outputs, kInferredWidth);
    ports.receivers_begin.assign(outputs + 1, 0);
    std::size_t in = 0;
    std::size_t out = 0;
    for (std::size_t a = 0; a < flat_.actors.size(); ++a) {
      FlatActor& actor = flat_.actors[a];
      const std::size_t n_in = port_counts_[a].inputs;
      const std::size_t n_out = port_counts_[a].outputs;
      actor.input_kinds = {ports.input_kinds.data() + in, n_in};
      actor.input_widths = {ports.input_widths.data() + in, n_in};
      actor.drivers = {ports.drivers.data() + in, n_in};
      actor.driver_locations = {ports.driver_locations.data() + in, n_in};
      actor.output_kinds = {ports.output_kinds.data() + out, n_out};
      actor.output_widths = {ports.output_widths.data() + out, n_out};
      actor.receivers = ReceiverLists(ports.receivers_begin.data() + out, n_out, nullptr);
      in += n_in;
      out += n_out;
    }
    std::vector<PortCounts>().swap(port_counts_);
  }

  /// Once every connection is bound: each output's receivers, in the order
  /// the connections were bound (a counting sort of the bound inputs by the
  /// output driving them).
  void lay_out_receivers() {
    FlatPortArrays& ports = flat_.ports;
    const PortOffsets offsets(flat_);  // the drivers' outputs without their FlatActors
    const auto output_of = [&offsets, &ports](const PortRef& input) {
      return offsets.output(*ports.drivers[offsets.input(input)]);
    };
    for (const PortRef& input : bound_) ++ports.receivers_begin[output_of(input) + 1];
    for (std::size_t o = 1; o < ports.receivers_begin.size(); ++o) {
      ports.receivers_begin[o] += ports.receivers_begin[o - 1];
    }
    ports.receivers.resize(bound_.size());
    std::vector<std::uint32_t> next(ports.receivers_begin.begin(), ports.receivers_begin.end() - 1);
    for (const PortRef& input : bound_) ports.receivers[next[output_of(input)]++] = input;
    std::vector<PortRef>().swap(bound_);
    std::size_t out = 0;
    for (auto& actor : flat_.actors) {
      actor.receivers =
          ReceiverLists(ports.receivers_begin.data() + out, actor.receivers.size(), ports.receivers.data());
      out += actor.receivers.size();
    }
  }

  void bind(const Composite& composite) {
    const auto& connections = composite.connections();
    Prefetcher ahead(composite, index_.at(&composite));
    for (std::size_t c = 0; c < connections.size(); ++c) {
      ahead.step(connections, c);
      const Connection& connection = connections[c];
      try {
        const PortRef from = output_endpoint(composite, connection.from);
        std::vector<PortRef> to;
        input_endpoints(composite, connection.to, to);
        for (const PortRef& input : to) connect(from, input, connection.location);
      } catch (const ModelError& e) {
        throw ModelError("connection " + quoted(composite, connection.from) + " -> " +
                         quoted(composite, connection.to) + ": " + e.message())
            .located(connection.location);
      }
    }
    for (const auto& child : composite.children()) {
      if (child->is_composite()) bind(static_cast<const Composite&>(*child));
    }
  }

  void check_unconnected() const {
    for (const auto& actor : flat_.actors) {
      const auto& inputs = actor.actor->inputs();
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!actor.drivers[i] && !inputs[i].optional) {
          throw ModelError("unconnected input '" + actor.path + "." + inputs[i].name + "' of " +
                           actor.actor->describe() + ": every input needs a driver")
              .located(actor.actor->location());
        }
      }
    }
  }

 private:
  static std::string quoted(const Composite& composite, const std::string& endpoint) {
    const std::string prefix = composite.parent() == nullptr ? "" : composite.path() + ".";
    return "'" + prefix + endpoint + "'";
  }

  /// Brings the children that the connections a few places ahead name into
  /// the cache, in three steps kAhead connections apart (a large model's
  /// lookups jump across memory: the index's slot, the child's pointer, the
  /// child itself and its flat index, each a miss that the next step needs).
  class Prefetcher {
   public:
    /// `flat_index`: the composite's children's indices in the flat model.
    Prefetcher(const Composite& composite, const std::vector<std::uint32_t>& flat_index)
        : composite_(composite), flat_index_(flat_index) {}

    /// Before binding connection c.
    void step(const std::vector<Connection>& connections, std::size_t c) {
      if (c + 3 * kAhead < connections.size()) {
        Hashes& h = ring_[(c + 3 * kAhead) % kRing];
        h.from = composite_.prefetch_slot(first_name(connections[c + 3 * kAhead].from));
        h.to = composite_.prefetch_slot(first_name(connections[c + 3 * kAhead].to));
      }
      if (c + 2 * kAhead < connections.size() && c + 2 * kAhead >= 3 * kAhead) {
        const Hashes& h = ring_[(c + 2 * kAhead) % kRing];
        for (const std::uint32_t hash : {h.from, h.to}) {
          if (const auto i = composite_.likely_child_index(hash))
            __builtin_prefetch(&composite_.children()[*i]);
        }
      }
      if (c + kAhead < connections.size() && c + kAhead >= 3 * kAhead) {
        const Hashes& h = ring_[(c + kAhead) % kRing];
        for (const std::uint32_t hash : {h.from, h.to}) {
          if (const auto i = composite_.likely_child_index(hash)) {
            prefetch_object(composite_.children()[*i].get());  // its name and port lists
            __builtin_prefetch(&flat_index_[*i]);
          }
        }
      }
    }

   private:
    static constexpr std::size_t kAhead = 4;
    static constexpr std::size_t kRing = 4 * kAhead;
    struct Hashes {
      std::uint32_t from = 0;
      std::uint32_t to = 0;
    };
    static std::string_view first_name(std::string_view endpoint) {
      return endpoint.substr(0, endpoint.find('.'));
    }

    const Composite& composite_;
    const std::vector<std::uint32_t>& flat_index_;
    std::array<Hashes, kRing> ring_{};
  };

  /// Where an endpoint leads: the actor, the composite holding it and its
  /// position there, and the port's name.
  struct Endpoint {
    const Actor* actor;
    const Composite* holder;
    std::size_t child;
    std::string_view port;
  };

  /// Walks `endpoint` ("a.b.port") from `composite` to the actor and port name.
  static Endpoint walk(const Composite& composite, std::string_view endpoint) {
    const auto dot = endpoint.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == endpoint.size()) {
      throw ModelError("'" + std::string(endpoint) + "' is not an endpoint of the form actor.port");
    }
    const std::string_view port = endpoint.substr(dot + 1);
    std::string_view rest = endpoint.substr(0, dot);
    const Actor* actor = nullptr;
    const Composite* scope = &composite;
    while (true) {
      const auto next = rest.find('.');
      const std::string_view name = rest.substr(0, next);
      if (scope == nullptr) {
        throw ModelError("'" + actor->path() + "' is not a composite, it has no actor '" + std::string(name) +
                         "'");
      }
      const auto child = scope->find_child_index(name);
      if (!child) {
        throw ModelError("there is no actor '" + std::string(name) + "' in " +
                         (scope->parent() == nullptr ? std::string("the model") : scope->describe()));
      }
      actor = scope->children()[*child].get();
      if (next == std::string_view::npos) return {actor, scope, *child, port};
      rest = rest.substr(next + 1);
      scope = actor->is_composite() ? static_cast<const Composite*>(actor) : nullptr;
    }
  }

  /// The flat index of the leaf actor an endpoint leads to.
  [[nodiscard]] std::uint32_t flat_index(const Endpoint& endpoint) const {
    if (endpoint.holder != last_holder_) {
      last_holder_ = endpoint.holder;
      last_index_ = &index_.at(endpoint.holder);
    }
    return (*last_index_)[endpoint.child];
  }

  static std::string port_list(const std::vector<PortSpec>& ports) {
    std::string out;
    for (const auto& p : ports) out += (out.empty() ? "" : ", ") + p.name;
    return out.empty() ? "none" : out;
  }

  PortRef output_endpoint(const Composite& composite, std::string_view endpoint) const {
    const Endpoint end = walk(composite, endpoint);
    const Actor* actor = end.actor;
    const std::string_view port = end.port;
    if (actor->is_composite()) {
      const auto& inner = static_cast<const Composite&>(*actor);
      for (const auto& exported : inner.exported_outputs()) {
        if (exported.name == port) return output_endpoint(inner, exported.inner.front());
      }
    } else if (const auto index = actor->find_output(port)) {
      return {FlatIndex{flat_index(end)}, static_cast<std::uint32_t>(*index)};
    }
    if (actor->find_input(port)) {
      throw ModelError("'" + actor->path() + "." + std::string(port) +
                       "' is an input; a connection goes from an output to an input");
    }
    if (const std::string why = actor->unconnectable(port); !why.empty())
      throw ModelError(actor->describe() + ": " + why);
    throw ModelError(actor->describe() + " has no output '" + std::string(port) +
                     "' (its outputs: " + port_list(actor->outputs()) + ")");
  }

  void input_endpoints(const Composite& composite, std::string_view endpoint,
                       std::vector<PortRef>& out) const {
    const Endpoint end = walk(composite, endpoint);
    const Actor* actor = end.actor;
    const std::string_view port = end.port;
    if (actor->is_composite()) {
      const auto& inner = static_cast<const Composite&>(*actor);
      for (const auto& exported : inner.exported_inputs()) {
        if (exported.name != port) continue;
        for (const auto& target : exported.inner) input_endpoints(inner, target, out);
        return;
      }
    } else if (const auto index = actor->find_input(port)) {
      out.push_back({FlatIndex{flat_index(end)}, static_cast<std::uint32_t>(*index)});
      return;
    }
    if (actor->find_output(port)) {
      throw ModelError("'" + actor->path() + "." + std::string(port) +
                       "' is an output; a connection goes from an output to an input");
    }
    if (const std::string why = actor->unconnectable(port); !why.empty())
      throw ModelError(actor->describe() + ": " + why);
    throw ModelError(actor->describe() + " has no input '" + std::string(port) +
                     "' (its inputs: " + port_list(actor->inputs()) + ")");
  }

  void connect(const PortRef& from, const PortRef& to, const SourceLocation& location) {
    FlatActor& target = flat_.actors[to.actor.index()];
    auto& driver = target.drivers[to.port];
    const auto name = [this](const PortRef& ref, bool output) {
      const FlatActor& a = flat_.actors[ref.actor.index()];
      const auto& ports = output ? a.actor->outputs() : a.actor->inputs();
      return a.path + "." + ports[ref.port].name;
    };
    if (driver) {
      throw ModelError("input '" + name(to, false) + "' has two drivers: '" + name(*driver, true) +
                       "' and '" + name(from, true) +
                       "' (merge discrete signals with Merge, add "
                       "continuous ones with Sum)");
    }
    driver = from;
    target.driver_locations[to.port] = location;
    bound_.push_back(to);
  }

  static constexpr std::uint32_t kNotLeaf = std::numeric_limits<std::uint32_t>::max();

  /// A leaf actor's numbers of inputs and outputs.
  struct PortCounts {
    std::uint32_t inputs = 0;
    std::uint32_t outputs = 0;
  };

  FlatModel& flat_;
  /// Per composite, per child: its index in the flat model (kNotLeaf for a composite).
  std::unordered_map<const Composite*, std::vector<std::uint32_t>> index_;
  mutable const Composite* last_holder_ = nullptr;  ///< the composite of the last lookup
  mutable const std::vector<std::uint32_t>* last_index_ = nullptr;
  std::vector<PortRef> bound_;           ///< the inputs bound, in the connections' order
  std::vector<PortCounts> port_counts_;  ///< per actor collected, until lay_out_ports
};

}  // namespace

FlatModel flatten(Model& model) {
  model.parameters().resolve();
  FlatModel flat;
  flat.actors.reserve(model.top().children().size());
  Flattener flattener(flat);
  flattener.collect(model.top(), model.parameters());
  flattener.lay_out_ports();
  flattener.bind(model.top());
  flattener.lay_out_receivers();
  flattener.check_unconnected();
  return flat;
}

FlatModel validate(Model& model) {
  FlatModel flat = flatten(model);
  resolve_time_modes(flat);
  infer_widths(flat);
  schedule(flat);
  return flat;
}

}  // namespace ctde
