#include "core/model_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

/// Objects keep the file's key order: structured parameters (a mode chart's
/// states, modes...) are passed on in the order they were written, and the
/// first unknown key reported is the first in the file.
using json = nlohmann::ordered_json;

/// Director keys of the format (docs/model-format.md, "Director options").
const std::vector<std::string> kDirectorKeys = {
    "start_time",  "stop_time",      "time_resolution", "solver",
    "rtol",        "atol",           "initial_step",    "min_step",
    "max_step",    "max_microsteps", "event_tolerance", "events",
    "event_state", "output_interval"};

/// Checks the shape of a JSON document while nlohmann's (iterative) parser
/// reads it, before anything walks it recursively: objects and arrays nest at
/// most kMaxDepth deep (nlohmann's dump and our readers recurse), and no
/// object repeats a key (the parser would keep the last one silently).
/// Errors name the file and the JSON location.
class ShapeCheck {
 public:
  static constexpr int kMaxDepth = 64;

  explicit ShapeCheck(std::string file) : file_(std::move(file)) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    using Event = json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (depth >= kMaxDepth) {
          throw ModelError("objects and arrays nest more than " + std::to_string(kMaxDepth) +
                           " levels deep; a model never needs that")
              .located(file_ + " at " + pointer());
        }
        frames_.push_back({event == Event::array_start, 0, {}, {}});
        break;
      case Event::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get<std::string>();
        if (std::find(frame.keys.begin(), frame.keys.end(), frame.key) != frame.keys.end()) {
          throw ModelError("the key '" + frame.key + "' appears twice in this object; give each key once")
              .located(file_ + " at " + pointer());
        }
        frame.keys.push_back(frame.key);
        break;
      }
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        element_done();
        break;
      case Event::value:
        element_done();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;          ///< in an array: the element being read
    std::string key;                ///< in an object: the key being read
    std::vector<std::string> keys;  ///< in an object: the keys so far
  };

  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }

  [[nodiscard]] std::string pointer() const {
    std::string out;
    for (const Frame& f : frames_) {
      out += "/" + (f.array ? std::to_string(f.index) : json_pointer_token(f.key));
    }
    return out.empty() ? "/" : out;
  }

  std::string file_;
  std::vector<Frame> frames_;
};

/// Builds a Model from parsed JSON, tracking the JSON pointer for messages.
class Loader {
 public:
  Loader(std::string file, std::string folder, const ActorRegistry& registry)
      : file_(std::move(file)), folder_(std::move(folder)), registry_(registry) {}

  Model load(const json& root, const ParameterOverrides& overrides) {
    expect_object(root, "");
    check_keys(root, "",
               {"ctde", "name", "parameters", "director", "actors", "connections", "record", "description"});
    if (!root.contains("ctde")) fail("", "missing \"ctde\": 1 (the format version)");
    if (!root["ctde"].is_number_integer() || root["ctde"].get<long long>() != 1) {
      fail("/ctde", "format version " + show(root["ctde"]) + " is not supported (this ctde reads 1)");
    }
    std::string name = std::filesystem::path(file_).stem().string();
    if (root.contains("name")) name = string_at(root["name"], "/name");
    Model model(name);
    model.set_file(file_);

    if (root.contains("parameters")) {
      const json& params = root["parameters"];
      expect_object(params, "/parameters");
      for (const auto& [key, value] : params.items()) {
        const std::string where = "/parameters/" + json_pointer_token(key);
        try {
          model.parameters().set(key, param_value(value, where), at(where));
        } catch (const ModelError& e) {
          throw e.located(at(where));
        }
      }
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

    if (root.contains("director")) {
      const json& director = root["director"];
      expect_object(director, "/director");
      for (const auto& [key, value] : director.items()) {
        const std::string where = "/director/" + json_pointer_token(key);
        if (std::find(kDirectorKeys.begin(), kDirectorKeys.end(), key) == kDirectorKeys.end()) {
          fail(where, "unknown director option '" + key + "' (options: " + join(kDirectorKeys) + ")");
        }
        model.director().emplace(key, param_value(value, where));
      }
    }
    if (!root.contains("actors")) fail("", "missing \"actors\": a model needs at least one actor");
    load_network(root, "", model.top());
    if (root.contains("record")) {
      const json& record = root["record"];
      if (!record.is_array()) fail("/record", "must be an array of \"actor.port\" strings");
      for (std::size_t i = 0; i < record.size(); ++i) {
        model.record().push_back(string_at(record[i], "/record/" + std::to_string(i)));
      }
    }
    return model;
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw ModelError(message).located(at(pointer));
  }
  [[nodiscard]] std::string at(const std::string& pointer) const {
    return file_ + " at " + (pointer.empty() ? "/" : pointer);
  }
  static std::string type_name(const json& value) { return value.type_name(); }
  /// JSON text of `value` for messages (never throws on odd bytes).
  static std::string show(const json& value) {
    return shorten_for_message(value.dump(-1, ' ', false, json::error_handler_t::replace));
  }

  void expect_object(const json& value, const std::string& pointer) const {
    if (!value.is_object()) fail(pointer, "must be an object, got " + type_name(value));
  }
  std::string string_at(const json& value, const std::string& pointer) const {
    if (!value.is_string()) fail(pointer, "must be a string, got " + type_name(value) + " " + show(value));
    return value.get<std::string>();
  }
  void check_keys(const json& object, const std::string& pointer,
                  const std::vector<std::string>& known) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail(pointer + "/" + json_pointer_token(key),
             "unknown key '" + key + "' (known here: " + join(known) + ")");
      }
    }
  }

  ParamValue param_value(const json& value, const std::string& pointer, int depth = 0) const {
    if (depth > 8) fail(pointer, "arrays nest too deeply for a parameter (a matrix is two levels)");
    if (value.is_number()) return {value.get<double>()};
    if (value.is_string()) return {value.get<std::string>()};
    if (value.is_array()) {
      std::vector<ParamValue> items;
      for (std::size_t i = 0; i < value.size(); ++i) {
        items.push_back(param_value(value[i], pointer + "/" + std::to_string(i), depth + 1));
      }
      return {std::move(items)};
    }
    fail(pointer,
         "a parameter value is a number, a string or an array, got " + type_name(value) + " " + show(value));
  }

  /// A `--set name=text` value: JSON (a number, a string, a vector, a
  /// matrix: read as in a model file, with the same checks), else an
  /// expression over the parameters.
  ParamValue override_value(const std::string& name, const std::string& text) const {
    const std::string where = "--set " + name + "=" + text;
    json parsed;
    try {
      parsed = json::parse(text, ShapeCheck(where));
    } catch (const json::parse_error&) {
      return {text};  // not JSON: an expression ("2 * k", "inf")
    } catch (const json::exception&) {
      throw ModelError(text + " is beyond a double's range (write \"inf\" for infinity)").located(where);
    }
    try {
      return param_value(parsed, "");
    } catch (const ModelError& e) {
      throw ModelError(e.message()).located(where);
    }
  }

  void load_network(const json& node, const std::string& pointer, Composite& composite) {
    const json& actors = node["actors"];
    if (!actors.is_array()) fail(pointer + "/actors", "must be an array of actors");
    if (actors.empty())
      fail(pointer + "/actors", "is empty: a model (and a composite) needs at least one actor");
    for (std::size_t i = 0; i < actors.size(); ++i) {
      load_actor(actors[i], pointer + "/actors/" + std::to_string(i), composite);
    }
    if (node.contains("connections")) {
      const json& connections = node["connections"];
      if (!connections.is_array()) fail(pointer + "/connections", "must be an array of [from, to] pairs");
      for (std::size_t i = 0; i < connections.size(); ++i) {
        const std::string where = pointer + "/connections/" + std::to_string(i);
        const json& pair = connections[i];
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
          fail(where, "a connection is [\"actor.out\", \"actor.in\"], got " + show(pair));
        }
        composite.connect(pair[0].get<std::string>(), pair[1].get<std::string>(), at(where));
      }
    }
  }

  void load_actor(const json& node, const std::string& pointer, Composite& composite) {
    expect_object(node, pointer);
    if (!node.contains("name")) fail(pointer, "an actor needs a \"name\"");
    if (!node.contains("type")) fail(pointer, "an actor needs a \"type\"");
    const std::string name = string_at(node["name"], pointer + "/name");
    const std::string type = string_at(node["type"], pointer + "/type");
    std::unique_ptr<Actor> actor;
    if (type == "Composite") {
      check_keys(node, pointer,
                 {"name", "type", "actors", "connections", "inputs", "outputs", "description"});
      if (!node.contains("actors")) fail(pointer, "a Composite needs \"actors\"");
      actor = std::make_unique<Composite>(name);
    } else {
      check_keys(node, pointer, {"name", "type", "params", "time_mode", "description"});
      try {
        actor = registry_.make(type, name);
      } catch (const ModelError& e) {
        throw e.located(at(pointer + "/type"));
      }
    }
    actor->set_location(at(pointer));
    Actor& added = composite.add(std::move(actor), at(pointer + "/name"));
    if (type == "Composite") {
      if (++nesting_ > kMaxNesting) {
        fail(pointer, "composites nest deeper than " + std::to_string(kMaxNesting) + " levels");
      }
      auto& inner = static_cast<Composite&>(added);
      load_network(node, pointer, inner);
      load_exports(node, pointer, inner);
      --nesting_;
      return;
    }
    if (node.contains("params")) {
      const json& params = node["params"];
      expect_object(params, pointer + "/params");
      for (const auto& [key, value] : params.items()) {
        const std::string where = pointer + "/params/" + json_pointer_token(key);
        try {
          // A structured parameter takes the JSON value as written; so does an
          // undeclared one, for set_parameter's message listing the known ones.
          const std::optional<ParamKind> kind = parameter_kind(added, key);
          ParamValue param = !kind || *kind == ParamKind::kStructure
                                 ? ParamValue(value.dump())
                                 : file_relative(added, key, param_value(value, where));
          added.set_parameter(key, std::move(param), at(where));
        } catch (const ModelError& e) {
          throw e.located(at(where));
        }
      }
    }
    if (node.contains("time_mode")) {
      const std::string mode = string_at(node["time_mode"], pointer + "/time_mode");
      try {
        if (mode == "continuous")
          added.set_time_mode(TimeMode::kContinuous);
        else if (mode == "discrete")
          added.set_time_mode(TimeMode::kDiscrete);
        else
          throw ModelError("time_mode must be \"continuous\" or \"discrete\", got \"" + mode + "\"");
      } catch (const ModelError& e) {
        throw e.located(at(pointer + "/time_mode"));
      }
    }
  }

  void load_exports(const json& node, const std::string& pointer, Composite& composite) {
    for (const char* key : {"inputs", "outputs"}) {
      if (!node.contains(key)) continue;
      const std::string where = pointer + "/" + key;
      expect_object(node[key], where);
      for (const auto& [name, target] : node[key].items()) {
        const std::string item = where + "/" + json_pointer_token(name);
        std::vector<std::string> inner;
        if (target.is_string()) {
          inner.push_back(target.get<std::string>());
        } else if (target.is_array() && std::string(key) == "inputs") {
          for (std::size_t i = 0; i < target.size(); ++i) {
            inner.push_back(string_at(target[i], item + "/" + std::to_string(i)));
          }
        } else {
          fail(item, std::string("an exported ") + (std::string(key) == "inputs"
                                                        ? "input is \"actor.port\" or a list of them"
                                                        : "output is \"actor.port\""));
        }
        try {
          if (std::string(key) == "inputs")
            composite.export_input(name, inner, at(item));
          else
            composite.export_output(name, inner.front(), at(item));
        } catch (const ModelError& e) {
          throw e.located(at(item));
        }
      }
    }
  }

  /// The kind of parameter `key` of `actor`, or nothing when it has none. A
  /// structured parameter (ParamKind::kStructure) gets its JSON value as
  /// text, nested objects and all.
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
  std::string file_;
  std::string folder_;
  const ActorRegistry& registry_;
  int nesting_ = 0;
};

/// Line and column (from 1) of byte offset `byte` (nlohmann counts from 1 past the error).
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  const std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// The first number literal in JSON `text` (outside strings) that is beyond
/// a double's range: its offset and length, or npos.
std::pair<std::size_t, std::size_t> out_of_range_number(const std::string& text) {
  constexpr std::string_view kNumberChars = "+-.eE0123456789";
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) continue;
    std::size_t end = i;
    while (end < text.size() && kNumberChars.find(text[end]) != std::string_view::npos) ++end;
    if (beyond_double_range(std::string_view(text).substr(i, end - i))) return {i, end - i};
    i = end - 1;
  }
  return {std::string::npos, 0};
}

}  // namespace

Model load_model_text(const std::string& text, const std::string& file, const ActorRegistry& registry,
                      const ParameterOverrides& overrides, const std::string& folder) {
  json root;
  try {
    root = json::parse(text, ShapeCheck(file));
  } catch (const json::parse_error& e) {
    const auto [line, column] = line_column(text, e.byte);
    std::string what = e.what();
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    const auto colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw ModelError("JSON syntax error: " + what)
        .located(file + ":" + std::to_string(line) + ":" + std::to_string(column));
  } catch (const json::exception& e) {  // a number beyond a double's range (found by the fuzzer)
    const auto [at, length] = out_of_range_number(text);
    if (at == std::string::npos) {
      std::string what = e.what();
      const auto bracket = what.find("] ");
      if (bracket != std::string::npos) what = what.substr(bracket + 2);
      throw ModelError("JSON value out of range: " + what).located(file);
    }
    const auto [line, column] = line_column(text, at + 1);  // nlohmann counts bytes from 1
    throw ModelError(text.substr(at, length) + " is beyond a double's range (write \"inf\" for infinity)")
        .located(file + ":" + std::to_string(line) + ":" + std::to_string(column));
  }
  return Loader(file, folder, registry).load(root, overrides);
}

Model load_model_file(const std::string& path, const ActorRegistry& registry,
                      const ParameterOverrides& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError("cannot open model file '" + path + "'");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return load_model_text(buffer.str(), path, registry, overrides, folder.empty() ? "." : folder);
}

}  // namespace ctde
