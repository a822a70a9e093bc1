#include "core/model_file.hpp"

#include <nlohmann/json.hpp>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/json_cursor.hpp"
#include "core/model_file_json_impl.hpp"
#include "core/model_include.hpp"
#include "core/source_location.hpp"

namespace ctde {

// Objects keep the file's key order (Json): structured parameters (a mode
// chart's states, modes...) are passed on in the order they were written,
// and the first unknown key reported is the first in the file.

/// Director keys of the format (docs/model-format.md, "Director options").
const std::vector<std::string> kDirectorKeys = {"start_time",
                                                "stop_time",
                                                "time_resolution",
                                                "solver",
                                                "linear_solver",
                                                "integrator",
                                                "rtol",
                                                "atol",
                                                "initial_step",
                                                "min_step",
                                                "max_step",
                                                "max_microsteps",
                                                "event_tolerance",
                                                "events",
                                                "event_state",
                                                "output_interval",
                                                "subsystems",
                                                "algebraic_loops"};

const std::vector<std::string>& director_keys() { return kDirectorKeys; }

namespace {

/// Builds a Model from parsed JSON; every value is read through a
/// JsonCursor, which names its location in messages. The locations the
/// model keeps (each actor's, parameter's and connection's) are made from
/// one LocationTable: a pattern per array ("model.json at /actors/") and per
/// parameter name, and an index.
class Loader {
 public:
  /// `origins`: where the document's included parts were written (inline_includes()).
  Loader(std::string file, std::string folder, const ActorRegistry& registry, const IncludeOrigins& origins)
      : file_(std::move(file)), folder_(std::move(folder)), registry_(registry), origins_(origins) {}

  /// Builds the model; each actor's part of `document` is released once
  /// the actor is built (large models: the document and the actors are not
  /// both held whole).
  /// `pairs`: the root's connections the reader packed (a null in the document for each).
  Model load(Json& document, const ParameterOverrides& overrides, PackedPairs& pairs) {
    const JsonCursor root(document, file_ + " at ");
    root.expect_object();
    root.check_keys({"ctde", "name", "parameters", "director", "actors", "connections", "record", "inputs",
                     "outputs", "tunable", "units", "description"});
    if (!root.has("ctde")) root.fail("missing \"ctde\": 1 (the format version)");
    const JsonCursor version = root["ctde"];
    if (!version.value().is_number_integer() || version.value().get<long long>() != 1) {
      version.fail("format version " + version.show() + " is not supported (this ctde reads 1)");
    }
    std::string name = std::filesystem::path(file_).stem().string();
    if (root.has("name")) name = root["name"].string();
    Model model(name);
    model.set_file(file_);

    if (root.has("parameters")) {
      const JsonCursor params = root["parameters"];
      params.expect_object();
      params.for_each_member([&](const std::string& key, const JsonCursor& value) {
        // An included file's parameter: where its value was written.
        const auto included = origins_.parameter_locations.find(key);
        const std::string where =
            included == origins_.parameter_locations.end() ? value.location() : included->second;
        try {
          model.parameters().set(key, param_value(value), where);
        } catch (const ModelError& e) {
          throw e.located(where);
        }
      });
    }
    for (const auto& [key, text] : overrides) {
      if (!model.parameters().has(key)) {
        std::vector<std::string> known;
        for (const auto& [n, v] : model.parameters().definitions()) known.push_back(n);
        throw ModelError("--set " + key + "=" + text + ": the model has no parameter '" + key + "'" +
                         (known.empty() ? " (it has none)" : " (its parameters: " + join(known) + ")"));
      }
      model.parameters().set(key, override_value(key, text), "--set " + key + "=" + text);
    }

    if (root.has("director")) {
      const JsonCursor director = root["director"];
      director.expect_object();
      director.for_each_member([&](const std::string& key, const JsonCursor& value) {
        if (std::find(kDirectorKeys.begin(), kDirectorKeys.end(), key) == kDirectorKeys.end()) {
          value.fail("unknown director option '" + key + "' (options: " + join(kDirectorKeys) + ")");
        }
        model.director().emplace(key, param_value(value));
      });
    }
    if (!root.has("actors")) root.fail("missing \"actors\": a model needs at least one actor");
    load_network(root, document, model.top(), &pairs);
    if (root.has("record")) {
      const JsonCursor record = root["record"];
      if (!record.value().is_array()) record.fail("must be an array of \"actor.port\" strings");
      for (std::size_t i = 0; i < record.size(); ++i) model.record().push_back(record[i].string());
    }
    load_interface(root, model);
    return model;
  }

 private:
  ParamValue param_value(const JsonCursor& value, int depth = 0) const {
    if (depth > 8) value.fail("arrays nest too deeply for a parameter (a matrix is two levels)");
    const Json& v = value.value();
    if (v.is_number()) return {v.get<double>()};
    if (v.is_string()) return {v.get<std::string>()};
    if (v.is_array()) {
      std::vector<ParamValue> items;
      for (std::size_t i = 0; i < value.size(); ++i) items.push_back(param_value(value[i], depth + 1));
      return {std::move(items)};
    }
    value.fail("a parameter value is a number, a string or an array, got " + value.type_name() + " " +
               value.show());
  }

  /// A `--set name=text` value: JSON (a number, a string, a vector, a
  /// matrix: read as in a model file, with the same checks), else an
  /// expression over the parameters.
  ParamValue override_value(const std::string& name, const std::string& text) const {
    const std::string where = "--set " + name + "=" + text;
    Json parsed;
    try {
      parsed = parse_checked_json(text, where);
    } catch (const Json::parse_error&) {
      return {text};  // not JSON: an expression ("2 * k", "inf")
    } catch (const Json::exception&) {
      throw ModelError(text + " is beyond a double's range (write \"inf\" for infinity)").located(where);
    }
    try {
      return param_value(JsonCursor(parsed, ""));
    } catch (const ModelError& e) {
      throw ModelError(e.message()).located(where);
    }
  }

  /// `json` is `node`'s value, whose actors are released as they are built;
  /// `pairs`, the root's only: its connections packed by the reader.
  void load_network(const JsonCursor& node, Json& json, Composite& composite, PackedPairs* pairs = nullptr) {
    const JsonCursor actors = node["actors"];
    if (!actors.value().is_array()) actors.fail("must be an array of actors");
    if (actors.size() == 0) actors.fail("is empty: a model (and a composite) needs at least one actor");
    const auto connection_count =
        node.has("connections") && node["connections"].value().is_array() ? node["connections"].size() : 0;
    composite.reserve(actors.size(), connection_count);
    Json& written_actors = json.at("actors");
    const LocationTable::Pattern actor_at = locations_.add(actors.location() + "/");
    const LocationTable::Pattern name_at = locations_.add(actors.location() + "/", "/name");
    for (std::size_t i = 0; i < actors.size(); ++i) {
      load_actor(actors[i], written_actors[i], composite, {actor_at, name_at, i});
      written_actors[i] = Json();  // built: nothing reads it again
    }
    if (node.has("connections")) {
      const JsonCursor connections = node["connections"];
      if (!connections.value().is_array()) connections.fail("must be an array of [from, to] pairs");
      Json& written_pairs = json.at("connections");
      const LocationTable::Pattern connection_at = locations_.add(connections.location() + "/");
      for (std::size_t i = 0; i < connections.size(); ++i) {
        // (A cursor, and its location's text, only for a message.)
        if (pairs != nullptr && pairs->has(i)) {
          auto [from, to] = pairs->next();
          composite.connect(std::move(from), std::move(to), locations_.at(connection_at, i));
          continue;
        }
        Json& p = written_pairs[i];
        if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_string()) {
          const JsonCursor pair = connections[i];
          pair.fail("a connection is [\"actor.out\", \"actor.in\"], got " + pair.show());
        }
        composite.connect(std::move(p[0].get_ref<std::string&>()), std::move(p[1].get_ref<std::string&>()),
                          locations_.at(connection_at, i));
        p = Json();  // read: nothing reads it again
      }
    }
  }

  /// A member that must be a string, read without a cursor unless it is not one.
  static std::string string_member(const JsonCursor& node, std::string_view key) {
    const Json& value = node.value().at(key);
    return value.is_string() ? value.get_ref<const std::string&>() : node[key].string();
  }

  /// Where an actor was written: element `index` of its array, whose pattern
  /// is `array` (and `name`, the pattern of its members "name").
  struct ActorPlace {
    LocationTable::Pattern array;
    LocationTable::Pattern name;
    std::size_t index;
  };

  /// `node` is element `place.index` of its composite's actors.
  void load_actor(const JsonCursor& node, Json& json, Composite& composite, ActorPlace place) {
    static const std::vector<std::string> kCompositeKeys = {"name",   "type",    "actors",     "connections",
                                                            "inputs", "outputs", "description"};
    static const std::vector<std::string> kActorKeys = {"name", "type", "params", "time_mode", "description"};
    node.expect_object();
    if (!node.has("name")) node.fail("an actor needs a \"name\"");
    if (!node.has("type")) node.fail("an actor needs a \"type\"");
    const std::string name = string_member(node, "name");
    const std::string type = string_member(node, "type");
    std::unique_ptr<Actor> actor;
    if (type == "Composite") {
      node.check_keys(kCompositeKeys);
      if (!node.has("actors")) node.fail("a Composite needs \"actors\"");
      actor = std::make_unique<Composite>(name);
    } else {
      node.check_keys(kActorKeys);
      try {
        actor = registry_.make(type, name);
      } catch (const ModelError& e) {
        throw e.located(node["type"].location());
      }
    }
    actor->set_location(locations_.at(place.array, place.index));
    Actor& added = composite.add(std::move(actor), locations_.at(place.name, place.index));
    if (type == "Composite") {
      if (++nesting_ > kMaxNesting) {
        node.fail("composites nest deeper than " + std::to_string(kMaxNesting) + " levels");
      }
      auto& inner = static_cast<Composite&>(added);
      const auto included = origins_.bodies.find(&json);
      if (included == origins_.bodies.end()) {
        load_network(node, json, inner);
        load_exports(node, inner);
      } else {  // another file's network: located there, its files beside it
        const std::string file = std::exchange(file_, included->second.file);
        const std::string folder = std::exchange(folder_, included->second.folder);
        const JsonCursor body(json, file_ + " at ");
        load_network(body, json, inner);
        load_exports(body, inner);
        file_ = file;
        folder_ = folder;
      }
      --nesting_;
      return;
    }
    if (node.has("params")) {
      const JsonCursor params = node["params"];
      params.expect_object();
      params.for_each_member([&](const std::string& key, const JsonCursor& value) {
        try {
          // A structured parameter takes the JSON value as written; so does an
          // undeclared one, for set_parameter's message listing the known ones.
          const std::optional<ParamKind> kind = parameter_kind(added, key);
          ParamValue param = !kind || *kind == ParamKind::kStructure
                                 ? ParamValue(value.value())
                                 : file_relative(added, key, param_value(value));
          added.set_parameter(key, std::move(param),
                              locations_.at(parameter_pattern(place.array, key), place.index));
        } catch (const ModelError& e) {
          throw e.located(value.location());
        }
      });
    }
    if (node.has("time_mode")) {
      const JsonCursor where = node["time_mode"];
      const std::string mode = where.string();
      try {
        if (mode == "continuous")
          added.set_time_mode(TimeMode::kContinuous);
        else if (mode == "discrete")
          added.set_time_mode(TimeMode::kDiscrete);
        else
          throw ModelError("time_mode must be \"continuous\" or \"discrete\", got \"" + mode + "\"");
      } catch (const ModelError& e) {
        throw e.located(where.location());
      }
    }
  }

  /// The model's `inputs` (each an `Input` actor of its name, connected to
  /// the ports listed), `outputs` and `tunable` parameters.
  void load_interface(const JsonCursor& root, Model& model) {
    std::set<std::string> names;
    const auto fresh = [&](const std::string& name, const JsonCursor& where) {
      if (name.empty()) where.fail("an input or output needs a name");
      if (!names.insert(name).second)
        where.fail("'" + name + "' names two of the model's inputs and outputs");
    };
    if (root.has("inputs")) {
      const JsonCursor inputs = root["inputs"];
      inputs.expect_object();
      inputs.for_each_member([&](const std::string& name, const JsonCursor& target) {
        fresh(name, target);
        load_input(name, target, model);
      });
    }
    if (root.has("outputs")) {
      const JsonCursor outputs = root["outputs"];
      outputs.expect_object();
      outputs.for_each_member([&](const std::string& name, const JsonCursor& source) {
        fresh(name, source);
        model.interface().outputs.push_back({name, source.string(), SourceLocation(source.location())});
      });
    }
    if (root.has("tunable")) {
      const JsonCursor tunable = root["tunable"];
      if (!tunable.value().is_array()) tunable.fail("must be an array of the model's parameter names");
      for (std::size_t i = 0; i < tunable.size(); ++i) {
        std::string name = tunable[i].string();
        if (!model.parameters().has(name))
          tunable[i].fail("'" + name + "' is not one of the model's parameters");
        model.interface().tunable.push_back(std::move(name));
      }
    }
    if (root.has("units")) load_units(root["units"], names, model);
  }

  /// `units`: {"name": "unit"} for model parameters, inputs and outputs
  /// (`interface_names`: the inputs' and outputs').
  static void load_units(const JsonCursor& units, const std::set<std::string>& interface_names,
                         Model& model) {
    units.expect_object();
    units.for_each_member([&](const std::string& name, const JsonCursor& unit) {
      if (!model.parameters().has(name) && interface_names.count(name) == 0)
        unit.fail("'" + name +
                  "' is neither one of the model's parameters nor one of its inputs and outputs");
      if (!unit.value().is_string() || unit.string().empty())
        unit.fail("a unit is a non-empty string (\"m/s\"), got " + unit.show());
      model.interface().units[name] = unit.string();
    });
  }

  /// Input `name`: "actor.port", a list of them, or {"to": either, "start": value}.
  void load_input(const std::string& name, const JsonCursor& target, Model& model) {
    JsonCursor to = target;
    if (target.value().is_object()) {
      target.check_keys({"to", "start"});
      if (!target.has("to")) target.fail("an input needs \"to\": \"actor.port\" or a list of them");
      to = target["to"];
    }
    std::vector<std::string> ports;
    if (to.value().is_string()) {
      ports.push_back(to.string());
    } else if (to.value().is_array() && to.size() > 0) {
      for (std::size_t i = 0; i < to.size(); ++i) ports.push_back(to[i].string());
    } else {
      to.fail("a model's input drives \"actor.port\", a list of them, or is {\"to\": ..., \"start\": value}");
    }
    const SourceLocation location(target.location());
    if (model.top().find_child(name) != nullptr) {
      target.fail("input '" + name +
                  "': an input becomes an actor of its name, and the model has an actor '" + name +
                  "' already");
    }
    try {
      std::unique_ptr<Actor> actor = registry_.make("Input", name);
      actor->set_location(location);
      if (target.value().is_object() && target.has("start")) {
        actor->set_parameter("start", param_value(target["start"]),
                             SourceLocation(target["start"].location()));
      } else {
        actor->set_parameter("start", ParamValue(0.0), location);
      }
      model.top().add(std::move(actor), location);
      for (std::string& port : ports) model.top().connect(name + ".out", std::move(port), location);
    } catch (const ModelError& e) {
      throw e.located(target.location());
    }
    model.interface().inputs.push_back({name, location});
  }

  void load_exports(const JsonCursor& node, Composite& composite) {
    for (const std::string key : {"inputs", "outputs"}) {
      if (!node.has(key)) continue;
      const bool inputs = key == "inputs";
      const JsonCursor exports = node[key];
      exports.expect_object();
      exports.for_each_member([&](const std::string& name, const JsonCursor& target) {
        std::vector<std::string> inner;
        if (target.value().is_string()) {
          inner.push_back(target.string());
        } else if (target.value().is_array() && inputs) {
          for (std::size_t i = 0; i < target.size(); ++i) inner.push_back(target[i].string());
        } else {
          target.fail(std::string("an exported ") +
                      (inputs ? "input is \"actor.port\" or a list of them" : "output is \"actor.port\""));
        }
        try {
          if (inputs)
            composite.export_input(name, inner, target.location());
          else
            composite.export_output(name, inner.front(), target.location());
        } catch (const ModelError& e) {
          throw e.located(target.location());
        }
      });
    }
  }

  /// The pattern of parameter `key` of the actors of array `actors`:
  /// ("model.json at /actors/", "/params/key"), added once.
  LocationTable::Pattern parameter_pattern(LocationTable::Pattern actors, const std::string& key) {
    auto [it, added] = parameter_patterns_.try_emplace({actors, key}, 0);
    if (added) it->second = locations_.add(locations_.head(actors), "/params/" + json_pointer_token(key));
    return it->second;
  }

  /// The kind of parameter `key` of `actor`, or nothing when it has none. A
  /// structured parameter (ParamKind::kStructure) gets its JSON value,
  /// nested objects and all.
  static std::optional<ParamKind> parameter_kind(const Actor& actor, const std::string& key) {
    for (const auto& slot : actor.parameters()) {
      if (slot.name == key) return slot.kind;
    }
    return std::nullopt;
  }

  /// A relative file name in a `file` parameter is relative to the model's folder.
  ParamValue file_relative(const Actor& actor, const std::string& key, ParamValue value) const {
    for (const auto& slot : actor.parameters()) {
      if (slot.name != key || slot.kind != ParamKind::kFile) continue;
      if (value.kind() != ParamValue::Kind::kText || value.text().empty()) return value;
      const std::filesystem::path path(value.text());
      if (path.is_absolute()) return value;
      return {(std::filesystem::path(folder_) / path).lexically_normal().string()};
    }
    return value;
  }

  static constexpr int kMaxNesting = 64;
  LocationTable locations_;
  /// Parameter patterns by (the actors' array pattern, the parameter's name).
  std::map<std::pair<LocationTable::Pattern, std::string>, LocationTable::Pattern> parameter_patterns_;
  std::string file_;
  std::string folder_;
  const ActorRegistry& registry_;
  const IncludeOrigins& origins_;
  int nesting_ = 0;
};

/// After a large document is released: the whole pages it leaves free
/// inside the heap go back to the system (glibc keeps them otherwise, and the
/// document of a million actors is most of a gigabyte, freed piece by piece
/// between the actors built in its place).
void return_free_pages(std::size_t text_size) {
#if defined(__GLIBC__)
  constexpr std::size_t kLargeText = std::size_t{16} << 20;
  if (text_size >= kLargeText) malloc_trim(0);
#else
  (void)text_size;
#endif
}

}  // namespace

Model load_model_text(const std::string& text, const std::string& file, const ActorRegistry& registry,
                      const ParameterOverrides& overrides, const std::string& folder,
                      const std::vector<std::string>& model_path) {
  auto pairs = std::make_unique<PackedPairs>();
  Json root = read_model_json(text, file, pairs.get());
  const IncludeOrigins origins = inline_includes(root, file, folder, registry, model_search_path(model_path));
  Model model = Loader(file, folder, registry, origins).load(root, overrides, *pairs);
  root = Json();
  pairs.reset();
  return_free_pages(text.size());
  return model;
}

Model load_model_file(const std::string& path, const ActorRegistry& registry,
                      const ParameterOverrides& overrides, const std::vector<std::string>& model_path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError("cannot open model file '" + path + "'");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string folder = std::filesystem::path(path).parent_path().string();
  // The buffer's text moved out, not copied: a large model's file is held once.
  const std::string text = std::move(buffer).str();
  return load_model_text(text, path, registry, overrides, folder.empty() ? "." : folder, model_path);
}

}  // namespace ctde
