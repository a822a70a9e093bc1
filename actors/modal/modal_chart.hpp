#pragma once
/// The definition of a mode chart, as written: the C++ way to describe a
/// ModalModel (see modal_model.hpp), and what a model file's `ModalModel`
/// params are read into (docs/modal.md, "In a model file";
/// docs/model-format.md).
///
/// Every expression is muparser text over the names the chart declares
/// (docs/modal.md, "Names"). `location` fields say where an item was written
/// (a model file's JSON location, e.g. "m.json at /actors/0/params/modes/FREE/der/x");
/// they are empty for charts built in C++, and errors about the item carry
/// them.
///
/// ```
/// ModalChart chart;
/// chart.add_input("F").add_output("x", "x").add_output("v", "v");
/// chart.add_parameter("upper_bnd", "0.1").add_parameter("e", "0.8").add_assert("e > 0 && e <= 1");
/// chart.add_state("x", "0").add_state("v", "0").add_event_var("v_old", "0");
/// chart.add_mode("FREE").add_der("x", "v").add_der("v", "F");
/// chart.add_mode("IMPACT").add_entry("v_old", "v").add_set("v", "-e * v_old");
/// chart.initial = "FREE";
/// chart.add_transition({"FREE", "IMPACT", "FREE"}, "x >= upper_bnd && v > 0");
/// model.add<ModalModel>("stop", std::move(chart));
/// ```

#include <string>
#include <utility>
#include <vector>

namespace ctde {

class JsonCursor;

/// `name = expression` (a definition, an initial value or an assignment).
/// Copyable value type.
struct ChartAssignment {
  ChartAssignment() = default;
  ChartAssignment(std::string assigned, std::string value, std::string where = {})
      : name(std::move(assigned)), expression(std::move(value)), location(std::move(where)) {}

  std::string name;
  std::string expression;  ///< muparser text (a number is an expression too)
  std::string location;    ///< where it was written, or empty
};

/// A declared input port of the chart: its values are the variables `name`
/// (width 1) or `name_0` ... `name_{width-1}`. Copyable value type.
struct ChartInput {
  ChartInput() = default;
  explicit ChartInput(std::string port, int port_width = 1, std::string where = {}, bool is_discrete = false)
      : name(std::move(port)), width(port_width), location(std::move(where)), discrete(is_discrete) {}

  std::string name;
  int width = 1;
  std::string location;
  /// A discrete input: its variables hold the last token received (0 before
  /// the first), so guards and expressions read it as a piecewise-constant value.
  bool discrete = false;
};

/// A predicate that must hold for the parameters (checked before the run).
/// Copyable value type.
struct ChartAssert {
  ChartAssert() = default;
  explicit ChartAssert(std::string text, std::string where = {})
      : predicate(std::move(text)), location(std::move(where)) {}

  std::string predicate;
  std::string location;
};

/// One mode. A mode that is the middle of a compound transition is
/// instantaneous: it has no `der` and no `outputs`. Copyable value type.
struct ChartMode {
  std::string name;
  std::vector<ChartAssignment> der;      ///< state → its derivative here (a state not listed: 0)
  std::vector<ChartAssignment> outputs;  ///< output → its value here (else the chart's default)
  std::vector<ChartAssignment> entry;    ///< event variable → value, on entering the mode
  std::vector<ChartAssignment> set;      ///< state → value (a reset), on entering the mode, after entry
  std::string location;

  // Builders: each adds one assignment and returns the mode.
  ChartMode& add_der(std::string state, std::string expression) {
    der.emplace_back(std::move(state), std::move(expression));
    return *this;
  }
  ChartMode& add_output(std::string output, std::string expression) {
    outputs.emplace_back(std::move(output), std::move(expression));
    return *this;
  }
  ChartMode& add_entry(std::string event_var, std::string expression) {
    entry.emplace_back(std::move(event_var), std::move(expression));
    return *this;
  }
  ChartMode& add_set(std::string state, std::string expression) {
    set.emplace_back(std::move(state), std::move(expression));
    return *this;
  }
};

/// A transition along `path`: [from, to] (plain) or [from, via, to]
/// (compound, through the instantaneous mode `via`), taken when `guard`
/// becomes true. Copyable value type.
struct ChartTransition {
  std::vector<std::string> path;
  std::string guard;                 ///< a predicate (predicate.hpp)
  std::vector<ChartAssignment> set;  ///< state → value: resets of a plain transition
  std::string location;              ///< where the transition was written, or empty
  std::string guard_location;        ///< where the guard was written, or empty

  /// Adds a reset `state = expression` (plain transitions only); returns the transition.
  ChartTransition& add_set(std::string state, std::string expression) {
    set.emplace_back(std::move(state), std::move(expression));
    return *this;
  }
};

/// A whole chart. Copyable value type.
struct ModalChart {
  std::vector<ChartInput> inputs;
  std::vector<ChartAssignment> outputs;     ///< output port → default expression
  std::vector<ChartAssignment> parameters;  ///< local parameters, in order
  std::vector<ChartAssert> asserts;
  std::vector<ChartAssignment> states;      ///< continuous states → initial value, in order
  std::vector<ChartAssignment> event_vars;  ///< event variables → initial value
  std::vector<ChartMode> modes;
  std::string initial;  ///< the initial mode; empty: the only mode
  std::string initial_location;
  std::vector<ChartTransition> transitions;

  // Builders: each adds one item; add_mode and add_transition return the
  // new item (valid until the next one is added).
  ModalChart& add_input(std::string name, int width = 1) {
    inputs.emplace_back(std::move(name), width);
    return *this;
  }
  ModalChart& add_output(std::string name, std::string expression) {
    outputs.emplace_back(std::move(name), std::move(expression));
    return *this;
  }
  ModalChart& add_parameter(std::string name, std::string expression) {
    parameters.emplace_back(std::move(name), std::move(expression));
    return *this;
  }
  ModalChart& add_assert(std::string predicate) {
    asserts.emplace_back(std::move(predicate));
    return *this;
  }
  ModalChart& add_state(std::string name, std::string initial_value) {
    states.emplace_back(std::move(name), std::move(initial_value));
    return *this;
  }
  ModalChart& add_event_var(std::string name, std::string initial_value) {
    event_vars.emplace_back(std::move(name), std::move(initial_value));
    return *this;
  }
  ChartMode& add_mode(std::string name) {
    modes.emplace_back();
    modes.back().name = std::move(name);
    return modes.back();
  }
  ChartTransition& add_transition(std::vector<std::string> path, std::string guard) {
    transitions.emplace_back();
    transitions.back().path = std::move(path);
    transitions.back().guard = std::move(guard);
    return transitions.back();
  }
};

/// Reads the value of one ModalModel parameter into `chart`. `key` is the
/// parameter ("inputs", "outputs", "parameters", "assert", "states",
/// "event_vars", "modes", "transitions"), `value` its JSON value where it
/// was written (each item keeps its own location; the cursor's prefix,
/// "actor 'stop' (ModalModel)", starts every message).
/// @throws ModelError, located, for a value of the wrong shape or an unknown key.
void read_chart_part(ModalChart& chart, const std::string& key, const JsonCursor& value);

}  // namespace ctde
