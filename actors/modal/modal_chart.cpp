#include "actors/modal/modal_chart.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/json_cursor.hpp"

namespace ctde {

namespace {

/// Reads one parameter's JSON value into the chart; each item keeps its
/// location (JsonCursor).
class ChartReader {
 public:
  explicit ChartReader(ModalChart& chart) : chart_(chart) {}

  void read(const std::string& key, const JsonCursor& value) {
    if (key == "inputs") {
      read_inputs(value);
    } else if (key == "outputs") {
      chart_.outputs = assignments(value, "outputs", "output");
    } else if (key == "parameters") {
      chart_.parameters = assignments(value, "parameters", "parameter");
    } else if (key == "assert") {
      read_asserts(value);
    } else if (key == "states") {
      chart_.states = assignments(value, "states", "state");
    } else if (key == "event_vars") {
      chart_.event_vars = assignments(value, "event_vars", "event variable");
    } else if (key == "modes") {
      read_modes(value);
    } else if (key == "transitions") {
      read_transitions(value);
    } else {
      value.fail("'" + key + "' is not a part of a mode chart");
    }
  }

 private:
  /// A number or an expression string, as muparser text.
  static std::string expression(const JsonCursor& value, const std::string& what) {
    const Json& v = value.value();
    if (v.is_number()) {
      const double number = v.get<double>();
      if (!std::isfinite(number)) value.fail(what + " is not a finite number");
      return format_double(number);
    }
    if (v.is_string()) return v.get<std::string>();
    value.fail(what + " must be a number or an expression string, got " + value.type_name() + " " +
               value.show());
  }

  /// An object of name → expression. `what` names the object in messages
  /// ("mode 'FREE', der"), `item` each entry ("state").
  static std::vector<ChartAssignment> assignments(const JsonCursor& value, const std::string& what,
                                                  const std::string& item) {
    value.expect_object(what);
    std::vector<ChartAssignment> out;
    value.for_each_member([&](const std::string& name, const JsonCursor& entry) {
      if (entry.value().is_array() && what.ends_with("outputs")) {
        // A vector output: one expression per element, named "name[i]" inside the chart.
        if (entry.size() == 0 || entry.size() > 1000) {
          entry.fail(item + " '" + name + "' must list 1 to 1000 expressions, one per element");
        }
        for (std::size_t i = 0; i < entry.size(); ++i) {
          const std::string element = name + "[" + std::to_string(i) + "]";
          out.emplace_back(element, expression(entry[i], item + " '" + element + "'"), entry[i].location());
        }
        return;
      }
      out.emplace_back(name, expression(entry, item + " '" + name + "'"), entry.location());
    });
    return out;
  }

  void read_inputs(const JsonCursor& value) {
    value.expect_object("inputs (name → width)");
    value.for_each_member([&](const std::string& name, const JsonCursor& entry) {
      // name → width, or name → {"width": w, "kind": "continuous" | "discrete"}
      Json width = entry.value();
      bool discrete = false;
      if (entry.value().is_object()) {
        entry.check_keys({"width", "kind"}, "input '" + name + "'");
        width = entry.has("width") ? entry["width"].value() : Json(1);
        if (entry.has("kind")) {
          const JsonCursor kind = entry["kind"];
          if (kind.value() != "continuous" && kind.value() != "discrete") {
            kind.fail("input '" + name + "': kind must be \"continuous\" or \"discrete\", got " +
                      kind.show());
          }
          discrete = kind.value() == "discrete";
        }
      }
      const bool whole = width.is_number_integer() ||
                         (width.is_number_float() && width.get<double>() == std::floor(width.get<double>()));
      const double w = width.is_number() ? width.get<double>() : 0.0;
      if (!whole || w < 1 || w > 1e6) {
        entry.fail("input '" + name + "' must give its width, a whole number >= 1, got " +
                   JsonCursor(width, "").show());
      }
      chart_.inputs.emplace_back(name, static_cast<int>(w), entry.location(), discrete);
    });
  }

  void read_asserts(const JsonCursor& value) {
    if (value.value().is_string()) {  // a single predicate
      chart_.asserts.emplace_back(value.string(), value.location());
      return;
    }
    if (!value.value().is_array())
      value.fail("assert must be an array of predicates (\"e > 0\"), got " + value.show());
    for (std::size_t i = 0; i < value.size(); ++i) {
      const JsonCursor item = value[i];
      if (!item.value().is_string())
        item.fail("an assert is a predicate string (\"e > 0\"), got " + item.show());
      chart_.asserts.emplace_back(item.string(), item.location());
    }
  }

  void read_modes(const JsonCursor& value) {
    value.expect_object("modes (name → mode)");
    value.for_each_member([&](const std::string& name, const JsonCursor& mode) {
      const std::string what = "mode '" + name + "'";
      mode.expect_object(what);
      mode.check_keys({"der", "outputs", "entry", "set"}, what);
      ChartMode out;
      out.name = name;
      out.location = mode.location();
      if (mode.has("der")) out.der = assignments(mode["der"], what + ", der", what + ", der");
      if (mode.has("outputs"))
        out.outputs = assignments(mode["outputs"], what + ", outputs", what + ", output");
      if (mode.has("entry")) out.entry = assignments(mode["entry"], what + ", entry", what + ", entry");
      if (mode.has("set")) out.set = assignments(mode["set"], what + ", set", what + ", set");
      chart_.modes.push_back(std::move(out));
    });
  }

  void read_transitions(const JsonCursor& value) {
    if (!value.value().is_array())
      value.fail("transitions must be an array of {\"path\": [...], \"guard\": \"...\"}");
    for (std::size_t i = 0; i < value.size(); ++i) {
      const JsonCursor item = value[i];
      std::string what = "transition ";
      what += std::to_string(i);
      item.expect_object(what);
      item.check_keys({"path", "guard", "set"}, what);
      ChartTransition out;
      out.location = item.location();
      if (!item.has("path")) item.fail(what + " needs a \"path\": [from, to] or [from, via, to]");
      const JsonCursor path = item["path"];
      if (!path.value().is_array() || path.size() < 2 || path.size() > 3) {
        path.fail(what + ": path must be [from, to] or [from, via, to] (mode names), got " + path.show());
      }
      for (std::size_t k = 0; k < path.size(); ++k) {
        const JsonCursor name = path[k];
        if (!name.value().is_string()) name.fail(what + ": a path holds mode names, got " + name.show());
        out.path.push_back(name.string());
      }
      if (!item.has("guard"))
        item.fail(what + " needs a \"guard\" (a predicate such as \"x >= 1 && v > 0\")");
      const JsonCursor guard = item["guard"];
      if (!guard.value().is_string())
        guard.fail(what + ": the guard must be a predicate string, got " + guard.show());
      out.guard = guard.string();
      out.guard_location = guard.location();
      if (item.has("set")) out.set = assignments(item["set"], what + ", set", what + ", set");
      chart_.transitions.push_back(std::move(out));
    }
  }

  ModalChart& chart_;
};

}  // namespace

void read_chart_part(ModalChart& chart, const std::string& key, const JsonCursor& value) {
  ChartReader(chart).read(key, value);
}

}  // namespace ctde
