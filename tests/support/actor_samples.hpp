#pragma once
// Registered actor types made from their sample parameters
// (ActorInfo::sample_params): the reference test reads their ports, the
// conformance tests run every polymorphic type, and
// tests/actors/test_builtin_actors.cpp checks that every sample works.

#include <string>
#include <vector>

#include "support/model_helpers.hpp"

namespace ctde::test {

/// The JSON text of an actor of `entry`'s type named `name` with its sample
/// parameters, plus `extra` keys (", \"time_mode\": \"continuous\"").
/// "@CTDE_TEST_FMUS@" in the parameters (the FMU type's sample) becomes the
/// folder where the tests' FMUs are built (tests/fmi/).
inline std::string sample_actor_json(const ActorRegistry::Entry& entry, const std::string& name,
                                     const std::string& extra = "") {
  std::string params = entry.sample_params;
#ifdef CTDE_TEST_FMUS
  const std::string placeholder = "@CTDE_TEST_FMUS@";
  if (const auto at = params.find(placeholder); at != std::string::npos) {
    params.replace(at, placeholder.size(), CTDE_TEST_FMUS);
  }
#endif
  return R"({"name": ")" + name + R"(", "type": ")" + entry.type + R"(", "params": )" + params + extra + "}";
}

/// A one-actor model holding the sample of `entry` as "a", its parameters
/// resolved (configure() has run: ports that depend on parameters are there).
/// Movable: `actor` stays valid.
struct ConfiguredSample {
  Model model;
  Actor* actor = nullptr;
};

/// @throws ModelError when the sample does not load or configure.
inline ConfiguredSample configured_sample(const ActorRegistry::Entry& entry) {
  ConfiguredSample sample{load(R"({"ctde": 1, "actors": [)" + sample_actor_json(entry, "a") + "]}"), nullptr};
  sample.model.parameters().resolve();
  sample.actor = sample.model.top().find_child("a");
  sample.actor->resolve_parameters(sample.model.parameters());
  return sample;
}

/// The required inputs of a configured actor.
inline std::vector<PortSpec> required_inputs(const Actor& actor) {
  std::vector<PortSpec> inputs;
  for (const auto& port : actor.inputs()) {
    if (!port.optional) inputs.push_back(port);
  }
  return inputs;
}

/// A model of the sample "a" of `entry` with a source on each required
/// input: a DiscreteClock of period 0.25 on a discrete input of width 1 or
/// inferred, else a Constant of value 1 (of the input's width; 1 where it
/// is inferred). Run to `stop_time`, recording a's outputs.
inline std::string sample_model(const ActorRegistry::Entry& entry, double stop_time = 1.0) {
  const ConfiguredSample sample = configured_sample(entry);
  std::string actors = sample_actor_json(entry, "a");
  std::string connections;
  for (const auto& port : required_inputs(*sample.actor)) {
    const int width = port.width == kInferredWidth ? 1 : port.width;
    const std::string source = "u_" + port.name;
    if (port.kind == PortKind::kDiscrete && width == 1) {
      actors += R"(, {"name": ")" + source + R"(", "type": "DiscreteClock", "params": {"period": 0.25}})";
    } else {
      std::string value = "[1";
      for (int i = 1; i < width; ++i) value += ", 1";
      value += "]";
      actors += R"(, {"name": ")" + source + R"(", "type": "Constant", "params": {"value": )" + value + "}}";
    }
    connections += std::string(connections.empty() ? "" : ", ") + R"([")" + source + R"(.out", "a.)" +
                   port.name + R"("])";
  }
  std::string record;
  for (const auto& port : sample.actor->outputs()) {
    record += std::string(record.empty() ? "" : ", ") + R"("a.)" + port.name + R"(")";
  }
  return R"({"ctde": 1, "director": {"stop_time": )" + std::to_string(stop_time) + R"(}, "actors": [)" +
         actors + R"(], "connections": [)" + connections + R"(], "record": [)" + record + "]}";
}

}  // namespace ctde::test
