#include "core/validate.hpp"

#include <limits>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"
#include "core/model_graph.hpp"
#include "core/time_mode_resolution.hpp"
#include "core/width_inference.hpp"

namespace ctde {

std::optional<FlatIndex> FlatModel::find(const std::string& path) const {
  for (FlatIndex i{0}; i.index() < actors.size(); ++i) {
    if (actors[i.index()].path == path) return i;
  }
  return std::nullopt;
}

namespace {

/// Binds the connections of every composite to leaf ports.
class Flattener {
 public:
  explicit Flattener(FlatModel& flat) : flat_(flat) {}

  void collect(const Composite& composite, const ParameterScope& scope) {
    std::vector<std::uint32_t>& index = index_[&composite];  // node-stable while children add theirs
    index.assign(composite.children().size(), kNotLeaf);
    for (std::size_t c = 0; c < composite.children().size(); ++c) {
      const auto& child = composite.children()[c];
      child->resolve_parameters(scope);
      if (child->is_composite()) {
        collect(static_cast<const Composite&>(*child), scope);
        continue;
      }
      FlatActor entry;
      entry.actor = child.get();
      entry.path = child->path();
      entry.drivers.resize(child->inputs().size());
      entry.driver_locations.resize(child->inputs().size());
      entry.receivers.resize(child->outputs().size());
      index[c] = static_cast<std::uint32_t>(flat_.actors.size());
      flat_.actors.push_back(std::move(entry));
    }
  }

  void bind(const Composite& composite) {
    for (const auto& connection : composite.connections()) {
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
    throw ModelError(actor->describe() + " has no input '" + std::string(port) +
                     "' (its inputs: " + port_list(actor->inputs()) + ")");
  }

  void connect(const PortRef& from, const PortRef& to, const std::string& location) {
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
    flat_.actors[from.actor.index()].receivers[from.port].push_back(to);
  }

  static constexpr std::uint32_t kNotLeaf = std::numeric_limits<std::uint32_t>::max();

  FlatModel& flat_;
  /// Per composite, per child: its index in the flat model (kNotLeaf for a composite).
  std::unordered_map<const Composite*, std::vector<std::uint32_t>> index_;
  mutable const Composite* last_holder_ = nullptr;  ///< the composite of the last lookup
  mutable const std::vector<std::uint32_t>* last_index_ = nullptr;
};

}  // namespace

FlatModel flatten(Model& model) {
  model.parameters().resolve();
  FlatModel flat;
  flat.actors.reserve(model.top().children().size());
  Flattener flattener(flat);
  flattener.collect(model.top(), model.parameters());
  flattener.bind(model.top());
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
