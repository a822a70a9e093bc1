#include "actors/modal/modal_chart.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

using json = nlohmann::ordered_json;

/// Walks one parameter's JSON value, with the JSON location of each item.
class ChartReader {
 public:
  ChartReader(ModalChart& chart, std::string location, std::string prefix)
      : chart_(chart), base_(std::move(location)), prefix_(std::move(prefix)) {}

  void read(const std::string& key, const std::string& text) {
    const json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded())
      fail("", "parameter '" + key + "' is not a JSON value: " + shorten_for_message(text));
    if (key == "inputs") {
      read_inputs(value);
    } else if (key == "outputs") {
      chart_.outputs = assignments(value, "", "outputs", "output");
    } else if (key == "parameters") {
      chart_.parameters = assignments(value, "", "parameters", "parameter");
    } else if (key == "assert") {
      read_asserts(value);
    } else if (key == "states") {
      chart_.states = assignments(value, "", "states", "state");
    } else if (key == "event_vars") {
      chart_.event_vars = assignments(value, "", "event_vars", "event variable");
    } else if (key == "modes") {
      read_modes(value);
    } else if (key == "transitions") {
      read_transitions(value);
    } else {
      fail("", "'" + key + "' is not a part of a mode chart");
    }
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw ModelError(prefix_ + ": " + message).located(at(pointer));
  }
  /// The location of the item at `pointer` (a JSON pointer below the parameter).
  [[nodiscard]] std::string at(const std::string& pointer) const {
    if (pointer.empty() && !base_.empty() && base_.back() == ' ') return base_ + "/";
    return base_ + pointer;
  }

  /// pointer + "/" + key, built by appending (GCC 12 warns about "literal" + temporary).
  static std::string child(const std::string& pointer, const std::string& key) {
    std::string out = pointer;
    out += '/';
    out += key;
    return out;
  }
  static std::string show(const json& value) {
    return shorten_for_message(value.dump(-1, ' ', false, json::error_handler_t::replace));
  }

  void expect_object(const json& value, const std::string& pointer, const std::string& what) const {
    if (!value.is_object()) {
      fail(pointer, what + " must be an object, got " + std::string(value.type_name()) + " " + show(value));
    }
  }

  void check_keys(const json& object, const std::string& pointer, const std::string& what,
                  const std::vector<std::string>& known) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      fail(pointer + "/" + json_pointer_token(key),
           "unknown key '" + key + "' in " + what + " (known here: " + join(known) + ")");
    }
  }

  /// A number or an expression string, as muparser text.
  std::string expression(const json& value, const std::string& pointer, const std::string& what) const {
    if (value.is_number()) {
      const double number = value.get<double>();
      if (!std::isfinite(number)) fail(pointer, what + " is not a finite number");
      return format_double(number);
    }
    if (value.is_string()) return value.get<std::string>();
    fail(pointer, what + " must be a number or an expression string, got " + std::string(value.type_name()) +
                      " " + show(value));
  }

  /// An object of name → expression. `what` names the object in messages ("mode 'FREE', der"), `item` each
  /// entry ("state").
  std::vector<ChartAssignment> assignments(const json& value, const std::string& pointer,
                                           const std::string& what, const std::string& item) const {
    expect_object(value, pointer, what);
    std::vector<ChartAssignment> out;
    for (const auto& [name, entry] : value.items()) {
      const std::string where = child(pointer, json_pointer_token(name));
      if (entry.is_array() && what.ends_with("outputs")) {
        // A vector output: one expression per element, named "name[i]" inside the chart.
        if (entry.empty() || entry.size() > 1000) {
          fail(where, item + " '" + name + "' must list 1 to 1000 expressions, one per element");
        }
        for (std::size_t i = 0; i < entry.size(); ++i) {
          const std::string element = name + "[" + std::to_string(i) + "]";
          const std::string at_element = child(where, std::to_string(i));
          out.emplace_back(element, expression(entry[i], at_element, item + " '" + element + "'"),
                           at(at_element));
        }
        continue;
      }
      out.emplace_back(name, expression(entry, where, item + " '" + name + "'"), at(where));
    }
    return out;
  }

  void read_inputs(const json& value) {
    expect_object(value, "", "inputs (name → width)");
    for (const auto& [name, entry] : value.items()) {
      const std::string where = child("", json_pointer_token(name));
      // name → width, or name → {"width": w, "kind": "continuous" | "discrete"}
      json width = entry;
      bool discrete = false;
      if (entry.is_object()) {
        check_keys(entry, where, "input '" + name + "'", {"width", "kind"});
        width = entry.contains("width") ? entry["width"] : json(1);
        const json kind = entry.contains("kind") ? entry["kind"] : json("continuous");
        if (kind != "continuous" && kind != "discrete") {
          fail(child(where, "kind"),
               "input '" + name + "': kind must be \"continuous\" or \"discrete\", got " + show(kind));
        }
        discrete = kind == "discrete";
      }
      const bool whole = width.is_number_integer() ||
                         (width.is_number_float() && width.get<double>() == std::floor(width.get<double>()));
      const double w = width.is_number() ? width.get<double>() : 0.0;
      if (!whole || w < 1 || w > 1e6) {
        fail(where, "input '" + name + "' must give its width, a whole number >= 1, got " + show(width));
      }
      chart_.inputs.emplace_back(name, static_cast<int>(w), at(where), discrete);
    }
  }

  void read_asserts(const json& value) {
    if (value.is_string()) {  // a single predicate
      chart_.asserts.emplace_back(value.get<std::string>(), at(""));
      return;
    }
    if (!value.is_array()) fail("", "assert must be an array of predicates (\"e > 0\"), got " + show(value));
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string where = child("", std::to_string(i));
      if (!value[i].is_string())
        fail(where, "an assert is a predicate string (\"e > 0\"), got " + show(value[i]));
      chart_.asserts.emplace_back(value[i].get<std::string>(), at(where));
    }
  }

  void read_modes(const json& value) {
    expect_object(value, "", "modes (name → mode)");
    for (const auto& [name, mode] : value.items()) {
      const std::string where = child("", json_pointer_token(name));
      const std::string what = "mode '" + name + "'";
      expect_object(mode, where, what);
      check_keys(mode, where, what, {"der", "outputs", "entry", "set"});
      ChartMode out;
      out.name = name;
      out.location = at(where);
      if (mode.contains("der"))
        out.der = assignments(mode["der"], where + "/der", what + ", der", what + ", der");
      if (mode.contains("outputs")) {
        out.outputs = assignments(mode["outputs"], where + "/outputs", what + ", outputs", what + ", output");
      }
      if (mode.contains("entry")) {
        out.entry = assignments(mode["entry"], where + "/entry", what + ", entry", what + ", entry");
      }
      if (mode.contains("set"))
        out.set = assignments(mode["set"], where + "/set", what + ", set", what + ", set");
      chart_.modes.push_back(std::move(out));
    }
  }

  void read_transitions(const json& value) {
    if (!value.is_array()) fail("", "transitions must be an array of {\"path\": [...], \"guard\": \"...\"}");
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string where = child("", std::to_string(i));
      std::string what = "transition ";
      what += std::to_string(i);
      const json& item = value[i];
      expect_object(item, where, what);
      check_keys(item, where, what, {"path", "guard", "set"});
      ChartTransition out;
      out.location = at(where);
      if (!item.contains("path")) fail(where, what + " needs a \"path\": [from, to] or [from, via, to]");
      const json& path = item["path"];
      if (!path.is_array() || path.size() < 2 || path.size() > 3) {
        fail(where + "/path",
             what + ": path must be [from, to] or [from, via, to] (mode names), got " + show(path));
      }
      for (std::size_t k = 0; k < path.size(); ++k) {
        if (!path[k].is_string()) {
          fail(where + "/path/" + std::to_string(k),
               what + ": a path holds mode names, got " + show(path[k]));
        }
        out.path.push_back(path[k].get<std::string>());
      }
      if (!item.contains("guard"))
        fail(where, what + " needs a \"guard\" (a predicate such as \"x >= 1 && v > 0\")");
      if (!item["guard"].is_string()) {
        fail(where + "/guard", what + ": the guard must be a predicate string, got " + show(item["guard"]));
      }
      out.guard = item["guard"].get<std::string>();
      out.guard_location = at(where + "/guard");
      if (item.contains("set"))
        out.set = assignments(item["set"], where + "/set", what + ", set", what + ", set");
      chart_.transitions.push_back(std::move(out));
    }
  }

  ModalChart& chart_;
  std::string base_;
  std::string prefix_;
};

}  // namespace

void read_chart_part(ModalChart& chart, const std::string& key, const std::string& json_text,
                     const std::string& location, const std::string& prefix) {
  ChartReader(chart, location, prefix).read(key, json_text);
}

}  // namespace ctde
