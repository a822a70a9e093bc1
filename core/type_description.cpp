#include "core/type_description.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/model_file.hpp"

namespace ctde {

namespace {

using nlohmann::json;

std::string_view mode_name(TimeMode mode) {
  return mode == TimeMode::kUnresolved ? std::string_view("polymorphic") : to_string(mode);
}

json to_json(const ParamValue& value) {
  switch (value.kind()) {
    case ParamValue::Kind::kNumber:
      return value.number();
    case ParamValue::Kind::kText:
      return value.text();
    case ParamValue::Kind::kList: {
      json items = json::array();
      for (const auto& item : value.items()) items.push_back(to_json(item));
      return items;
    }
    case ParamValue::Kind::kJson:
      return value.json() ? json::parse(value.json()->dump()) : json(nullptr);
  }
  return nullptr;
}

json port_json(const PortSpec& port) {
  json out{{"name", port.name}, {"kind", to_string(port.kind)}};
  out["width"] = port.width == kInferredWidth ? json(nullptr) : json(port.width);
  if (port.direction == PortDirection::kInput) out["optional"] = port.optional;
  return out;
}

bool is_numbered_input(const std::string& name) {
  return name.size() > 2 && name.compare(0, 2, "in") == 0 &&
         std::all_of(name.begin() + 2, name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

/// The inputs of the type's sample once configured, when the sample has
/// numbered inputs the declaration lacks; else none.
std::vector<PortSpec> configured_numbered_inputs(const ActorRegistry& registry,
                                                 const ActorRegistry::Entry& entry, const Actor& declared) {
  std::vector<PortSpec> numbered;
  try {
    const std::string text = R"({"ctde": 1, "actors": [{"name": "a", "type": ")" + entry.type +
                             R"(", "params": )" + entry.sample_params + "}]}";
    Model model = load_model_text(text, "<sample of " + entry.type + ">", registry);
    model.parameters().resolve();
    Actor* actor = model.top().find_child("a");
    if (actor == nullptr) return numbered;
    actor->resolve_parameters(model.parameters());
    for (const auto& port : actor->inputs()) {
      if (is_numbered_input(port.name) && !declared.find_input(port.name)) numbered.push_back(port);
    }
  } catch (const ModelError&) {
    // A sample that does not configure: the declaration is all there is to say.
  }
  return numbered;
}

}  // namespace

std::string describe_types(const ActorRegistry& registry) {
  json out = json::array();
  for (const auto& entry : registry.entries()) {
    out.push_back({{"type", entry.type}, {"family", entry.family}, {"summary", entry.summary}});
  }
  return out.dump();
}

std::string describe_type(const ActorRegistry& registry, const std::string& type) {
  std::unique_ptr<Actor> declared;
  try {
    declared = registry.make(type, "a");
  } catch (const ModelError& e) {  // "unknown actor type 'X' for actor 'a' (did you mean 'Y'?)"
    std::string message = e.message();
    const std::string actor = " for actor 'a'";
    if (const auto at = message.find(actor); at != std::string::npos) message.erase(at, actor.size());
    throw ModelError(message);
  }
  const auto& entries = registry.entries();
  const auto entry =
      std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.type == type; });
  json out{{"type", entry->type},
           {"family", entry->family},
           {"summary", entry->summary},
           {"time_mode", mode_name(declared->declared_mode())}};
  json inputs = json::array();
  for (const auto& port : declared->inputs()) inputs.push_back(port_json(port));
  const std::vector<PortSpec> numbered = configured_numbered_inputs(registry, *entry, *declared);
  if (!numbered.empty()) {
    json in = port_json(numbered.front());
    in["name"] = "in<i>";
    in["numbered"] = true;
    inputs.push_back(in);
  }
  json outputs = json::array();
  for (const auto& port : declared->outputs()) outputs.push_back(port_json(port));
  json parameters = json::array();
  for (const auto& slot : declared->parameters()) {
    parameters.push_back({{"name", slot.name.str()},
                          {"kind", to_string(slot.kind)},
                          {"default", slot.value ? to_json(slot.value.get()) : json(nullptr)},
                          {"required", !slot.value && !slot.optional}});
  }
  out["inputs"] = std::move(inputs);
  out["outputs"] = std::move(outputs);
  out["parameters"] = std::move(parameters);
  out["sample_params"] = json::parse(entry->sample_params);
  return out.dump();
}

}  // namespace ctde
