#include "core/model_include.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/model_file_json_impl.hpp"

namespace ctde {

std::vector<std::string> model_search_path(const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const std::string& dir : given) {
    if (!dir.empty()) out.push_back(dir);
  }
  const char* env = std::getenv("CTDE_MODEL_PATH");
  if (env == nullptr) return out;
  std::string_view rest(env);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) out.emplace_back(dir);
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return out;
}

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// The end of the number literal starting at `i` ("1", "2.5", ".5", "1e-3").
std::size_t number_end(std::string_view text, std::size_t i) {
  while (i < text.size() && (digit(text[i]) || text[i] == '.')) ++i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && digit(text[j])) {
      i = j;
      while (i < text.size() && digit(text[i])) ++i;
    }
  }
  return i;
}

}  // namespace

std::string rename_parameters(std::string_view expression,
                              const std::map<std::string, std::string>& renamed) {
  std::string out;
  out.reserve(expression.size());
  std::size_t i = 0;
  while (i < expression.size()) {
    const char c = expression[i];
    std::size_t end = i + 1;
    if (c == '"') {  // a string literal, as written
      end = expression.find('"', i + 1);
      end = end == std::string_view::npos ? expression.size() : end + 1;
    } else if (digit(c) || (c == '.' && i + 1 < expression.size() && digit(expression[i + 1]))) {
      end = number_end(expression, i);
    } else if (name_start(c)) {
      while (end < expression.size() && name_char(expression[end])) ++end;
      const auto found = renamed.find(std::string(expression.substr(i, end - i)));
      if (found != renamed.end()) {
        out += found->second;
        i = end;
        continue;
      }
    }
    out += expression.substr(i, end - i);
    i = end;
  }
  return out;
}

namespace {

/// A parameter's value as written (a number, an expression, an array of
/// them) with the parameters `renamed` renamed.
Json renamed_value(const Json& value, const std::map<std::string, std::string>& renamed) {
  if (renamed.empty()) return value;
  if (value.is_string()) return rename_parameters(value.get_ref<const std::string&>(), renamed);
  if (!value.is_array()) return value;
  Json out = Json::array();
  for (const Json& item : value) out.push_back(renamed_value(item, renamed));
  return out;
}

/// The keys an included file may have (`director` and `record` are read
/// only when it is run on its own).
const std::vector<std::string> kIncludedKeys = {"ctde",   "name",    "description", "parameters", "actors",
                                                "inputs", "outputs", "connections", "director",   "record"};
const std::vector<std::string> kIncludeKeys = {"name", "type", "file", "params", "description"};

/// Inlines the includes of one document (inline_includes()).
class Inliner {
 public:
  Inliner(const ActorRegistry& registry, const std::vector<std::string>& search)
      : registry_(registry), search_(search) {}

  IncludeOrigins run(Json& document, const std::string& file, const std::string& folder) {
    if (!document.is_object()) return {};
    if (document.contains("parameters") && document["parameters"].is_object()) {
      for (const auto& [name, value] : document["parameters"].items()) model_parameters_.insert(name);
    }
    chain_.push_back({canonical(file), file});
    const std::map<std::string, std::string> none;
    walk(document, JsonCursor(document, file + " at "), Scope{folder, "", &none});
    if (!added_.empty()) {
      Json& parameters = document["parameters"];
      if (!parameters.is_object()) parameters = Json::object();
      for (auto& [name, value] : added_) parameters[name] = std::move(value);
    }
    return std::move(origins_);
  }

 private:
  /// The file being read: its folder, the path of the composite its
  /// network is ("" at the model's top, "plant", "plant.valve"), and its
  /// parameters' names in the model.
  struct Scope {
    std::string folder;
    std::string path;
    const std::map<std::string, std::string>* renamed;
  };

  static std::string canonical(const std::string& path) {
    std::error_code ignored;
    const std::filesystem::path full = std::filesystem::weakly_canonical(path, ignored);
    return full.empty() ? path : full.string();
  }

  /// The actors of `network` (at `at`), their includes inlined. Anything
  /// of the wrong shape is left for the loader, which reports it.
  void walk(Json& network, const JsonCursor& at, const Scope& scope) {
    if (!network.is_object() || !network.contains("actors") || !network["actors"].is_array()) return;
    Json& actors = network["actors"];
    const JsonCursor actors_at = at["actors"];
    for (std::size_t i = 0; i < actors.size(); ++i) {
      Json& actor = actors[i];
      if (!actor.is_object() || !actor.contains("name") || !actor["name"].is_string()) continue;
      const bool composite = actor.contains("type") && actor["type"] == "Composite";
      const std::string name = actor["name"].get<std::string>();
      const std::string path = scope.path.empty() ? name : concat({scope.path, ".", name});
      if (composite && actor.contains("file")) {
        include(actor, actors_at[i], scope, path);
      } else if (composite) {
        walk(actor, actors_at[i], Scope{scope.folder, path, scope.renamed});
      } else {
        rename_numeric(actor, *scope.renamed);
      }
    }
  }

  /// Renames the included parameters in `actor`'s numeric parameters (its
  /// type says which are numeric; an unknown type is the loader's to report).
  void rename_numeric(Json& actor, const std::map<std::string, std::string>& renamed) const {
    if (renamed.empty() || !actor.contains("params") || !actor["params"].is_object()) return;
    if (!actor.contains("type") || !actor["type"].is_string()) return;
    std::unique_ptr<Actor> probe;
    try {
      probe = registry_.make(actor["type"].get<std::string>(), "probe");
    } catch (const ModelError&) {
      return;
    }
    Json& params = actor["params"];
    for (auto it = params.begin(); it != params.end(); ++it) {
      for (const ParamSlot& slot : probe->parameters()) {
        if (slot.name.str() != it.key()) continue;
        if (slot.kind == ParamKind::kScalar || slot.kind == ParamKind::kVector ||
            slot.kind == ParamKind::kMatrix)
          it.value() = renamed_value(it.value(), renamed);
      }
    }
  }

  /// Where included file `written` is: beside its includer, else in the model path.
  std::string find(const std::string& written, const std::string& folder, const JsonCursor& at) const {
    const std::filesystem::path name(written);
    std::error_code ignored;
    if (name.is_absolute()) {
      if (std::filesystem::is_regular_file(name, ignored)) return written;
      at.fail(concat({"cannot find the included model file '", written, "'"}));
    }
    const std::filesystem::path beside = (std::filesystem::path(folder) / name).lexically_normal();
    if (std::filesystem::is_regular_file(beside, ignored)) return beside.string();
    for (const std::string& dir : search_) {
      const std::filesystem::path there = (std::filesystem::path(dir) / name).lexically_normal();
      if (std::filesystem::is_regular_file(there, ignored)) return there.string();
    }
    at.fail(concat({"cannot find the included model file '", written, "' in ", folder,
                    search_.empty() ? " (no --model-path or CTDE_MODEL_PATH is set)"
                                    : concat({" nor in the model path (", join(search_), ")"})}));
  }

  /// Included file `path`'s document, its root checked.
  static Json read(const std::string& path, const JsonCursor& at) {
    std::ifstream in(path, std::ios::binary);
    if (!in) at.fail(concat({"cannot open the included model file '", path, "'"}));
    std::ostringstream text;
    text << in.rdbuf();
    Json body = read_model_json(text.str(), path, nullptr);
    const JsonCursor root(body, path + " at ");
    root.expect_object();
    root.check_keys(kIncludedKeys, "an included model file");
    if (!root.has("ctde")) root.fail("missing \"ctde\": 1 (the format version)");
    const JsonCursor version = root["ctde"];
    if (!version.value().is_number_integer() || version.value().get<long long>() != 1)
      version.fail("format version " + version.show() + " is not supported (this ctde reads 1)");
    if (!root.has("actors")) root.fail("missing \"actors\": an included model needs at least one actor");
    if (root.has("parameters")) root["parameters"].expect_object();
    return body;
  }

  void include(Json& entry, const JsonCursor& at, const Scope& scope, const std::string& path);
  void bind_parameters(const Json& body, const std::string& file, const JsonCursor& at, const Scope& scope,
                       const std::map<std::string, std::string>& renamed);

  const ActorRegistry& registry_;
  const std::vector<std::string>& search_;
  /// The files being read, the model's first: (canonical path, as named).
  std::vector<std::pair<std::string, std::string>> chain_;
  std::set<std::string> model_parameters_;
  std::vector<std::pair<std::string, Json>> added_;  ///< the parameters includes add, in order
  IncludeOrigins origins_;
};

void Inliner::include(Json& entry, const JsonCursor& at, const Scope& scope, const std::string& path) {
  at.check_keys(kIncludeKeys, "an included composite (its network is in the file)");
  const JsonCursor file_at = at["file"];
  const std::string file = find(file_at.string(), scope.folder, file_at);
  const std::string key = canonical(file);
  const auto seen =
      std::find_if(chain_.begin(), chain_.end(), [&key](const auto& f) { return f.first == key; });
  if (seen != chain_.end()) {
    std::string cycle;
    for (auto f = seen; f != chain_.end(); ++f) append(cycle, {f->second, " -> "});
    file_at.fail(concat({"include cycle: ", cycle, file,
                         " (a model file may not include itself, directly or "
                         "through others)"}));
  }
  Json body = read(file, file_at);
  std::string prefix = path;
  for (std::size_t p = prefix.find('.'); p != std::string::npos; p = prefix.find('.', p + 2))
    prefix.replace(p, 1, "__");
  prefix += "__";
  std::map<std::string, std::string> renamed;
  if (body.contains("parameters")) {
    for (const auto& [name, value] : body["parameters"].items()) renamed.emplace(name, prefix + name);
  }
  bind_parameters(body, file, at, scope, renamed);
  Json inlined = Json::object();
  inlined["name"] = entry["name"];
  inlined["type"] = "Composite";
  for (const char* k : {"actors", "connections", "inputs", "outputs"}) {
    if (body.contains(k)) inlined[k] = std::move(body[k]);
  }
  if (inlined.contains("inputs") && inlined["inputs"].is_object()) {  // {"to": ..., "start": ...}: "to"
    Json& inputs = inlined["inputs"];
    for (auto it = inputs.begin(); it != inputs.end(); ++it) {
      if (it.value().is_object() && it.value().contains("to")) it.value() = Json(it.value()["to"]);
    }
  }
  entry = std::move(inlined);
  const std::string folder = std::filesystem::path(file).parent_path().string();
  origins_.bodies[&entry] = {file, folder.empty() ? "." : folder};
  chain_.push_back({key, file});
  walk(entry, JsonCursor(entry, file + " at "), Scope{folder.empty() ? "." : folder, path, &renamed});
  chain_.pop_back();
}

/// Each parameter of the included `body` (file `file`) as a model
/// parameter: the value its includer (`at`, in `scope`) gives, or its own.
void Inliner::bind_parameters(const Json& body, const std::string& file, const JsonCursor& at,
                              const Scope& scope, const std::map<std::string, std::string>& renamed) {
  std::map<std::string, std::pair<Json, std::string>> values;
  const JsonCursor root(body, file + " at ");
  if (root.has("parameters")) {
    root["parameters"].for_each_member([&](const std::string& name, const JsonCursor& value) {
      values[name] = {renamed_value(value.value(), renamed), value.location()};
    });
  }
  if (at.has("params")) {
    const JsonCursor params = at["params"];
    params.expect_object();
    params.for_each_member([&](const std::string& name, const JsonCursor& value) {
      if (!renamed.contains(name)) {
        std::vector<std::string> known;
        known.reserve(renamed.size());
        for (const auto& [n, r] : renamed) known.push_back(n);
        value.fail(
            concat({"the included ", file, " has no parameter '", name, "'",
                    known.empty() ? " (it has none)" : concat({" (its parameters: ", join(known), ")"})}));
      }
      values[name] = {renamed_value(value.value(), *scope.renamed), value.location()};
    });
  }
  for (auto& [name, value] : values) {
    const std::string& model_name = renamed.at(name);
    if (model_parameters_.contains(model_name)) {
      at["file"].fail(concat({"the included ", file, "'s parameter '", name, "' is the model's parameter '",
                              model_name, "', which the model defines already: rename one"}));
    }
    model_parameters_.insert(model_name);
    origins_.parameter_locations[model_name] = value.second;
    added_.emplace_back(model_name, std::move(value.first));
  }
}

}  // namespace

IncludeOrigins inline_includes(Json& document, const std::string& file, const std::string& folder,
                               const ActorRegistry& registry, const std::vector<std::string>& search) {
  return Inliner(registry, search).run(document, file, folder);
}

}  // namespace ctde
