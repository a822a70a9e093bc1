// How a ModalModel is configured (docs/modal.md): its chart checked and
// compiled into a Program (ModalModel::Compiler), then its ports declared
// from that program.
#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "actors/modal/modal_model.hpp"
#include "core/error.hpp"
#include "core/expression_engine.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

/// The port of a program output: "p" for "p" (a scalar) and for "p[1]" (an
/// element of the vector output p).
std::string output_port_name(const std::string& output) { return output.substr(0, output.find('[')); }

/// The element of a program output: 1 for "p[1]", 0 for a scalar "p";
/// none when what follows the port's name is not "[digits]" (a name as
/// written, "x[", "x[a]").
std::optional<std::size_t> output_element(const std::string& output) {
  const std::size_t at = output.find('[');
  if (at == std::string::npos) return 0;
  const char* first = output.data() + at + 1;
  const char* last = output.data() + output.size();
  std::size_t element = 0;
  const auto [end, error] = std::from_chars(first, last, element);
  if (error != std::errc() || end == first || end + 1 != last || *end != ']') return std::nullopt;
  return element;
}

/// A chart's output is a port's name, or the element "p[k]" of the vector output p.
bool is_output_name(const std::string& output) {
  return is_identifier(output_port_name(output)) && output_element(output).has_value();
}

std::string quoted(std::string text) {
  text.insert(text.begin(), '"');
  return text += '"';
}

/// "transition k (rest)".
std::string transition_text(std::size_t k, const std::string& rest) {
  return concat({"transition ", std::to_string(k), " (", rest, ")"});
}

ModelError located_at(const ModelError& error, const std::string& location) {
  return location.empty() || !error.location().empty() ? error : error.located(location);
}

std::string path_text(const std::vector<std::string>& path, const char* arrow) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += arrow;
    out += path[i];
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- the compiler

/// Checks a chart and compiles it into a Program (configure() time).
class ModalModel::Compiler {
 public:
  Compiler(const ModalModel& actor, const ParameterScope& scope) : actor_(actor), scope_(scope) {}

  Program run(const ModalChart& chart) {
    // Inside the chart its own names win over the model's parameters; local
    // parameters, asserts and initial values read parameters only.
    define_model_parameters();
    check_names(chart);
    define_frame(chart);
    for (const ChartAssignment& p : chart.parameters) {
      const std::string what = "parameter '" + p.name + "'";
      const Term term = compile(p.expression, kParameterOnly, what, p.location);
      compiler_.define_constant(p.name, term.value);
    }
    check_asserts(chart);
    for (const ChartAssignment& s : chart.states) {
      program_.state_initial.push_back(
          compile(s.expression, kParameterOnly, "state '" + s.name + "'", s.location).value);
    }
    for (const ChartAssignment& e : chart.event_vars) {
      program_.event_initial.push_back(
          compile(e.expression, kParameterOnly, "event variable '" + e.name + "'", e.location).value);
    }
    define_outputs(chart);
    define_modes(chart);
    define_transitions(chart);
    compile_modes(chart);
    program_.programs = compiler_.programs();
    return std::move(program_);
  }

 private:
  static constexpr std::uint8_t kParameterOnly = static_cast<std::uint8_t>(SymbolKind::kParameter);
  /// t is the frame's first variable (define_frame).
  static constexpr std::uint32_t kTimeIndex = 0;

  [[noreturn]] void fail(const std::string& location, const std::string& message) const {
    const ModelError error(actor_.describe() + ", " + message);
    throw location.empty() ? error : error.located(location);
  }

  Term compile(const std::string& text, std::uint8_t allowed, const std::string& what,
               const std::string& location, std::vector<std::string>* used = nullptr) {
    try {
      return compiler_.compile(text, allowed, actor_.describe() + ", " + what, used);
    } catch (const ModelError& e) {
      throw located_at(e, location);
    }
  }

  void define_model_parameters() {
    for (const auto& [name, raw] : scope_.definitions()) {
      const ResolvedParam& value = scope_.value(name);
      if (value.kind() == ParamKind::kScalar && value.values().size() == 1) {
        compiler_.define_constant(name, value.scalar());
      } else {
        compiler_.define_unusable(name,
                                  "is a vector or matrix parameter; only numbers can be used in expressions");
      }
    }
  }

  /// Every name is an identifier, used once across inputs, parameters,
  /// states and event variables; `t` is the time.
  void check_names(const ModalChart& chart) {
    auto claim = [&](const std::string& name, const std::string& kind, const std::string& location) {
      if (!is_identifier(name)) {
        fail(location, kind + " name '" + name +
                           "' is not a valid name (letters, digits and _, not starting with a digit)");
      }
      if (name == "t") fail(location, kind + " name 't' is taken: t is the time in expressions");
      const auto [it, added] = names_.emplace(name, kind);
      if (!added) fail(location, "the name '" + name + "' is both " + it->second + " and " + kind);
    };
    for (const ChartInput& in : chart.inputs) {
      if (in.width < 1) fail(in.location, "input '" + in.name + "' must have a width >= 1");
      claim(in.name, "an input", in.location);
      if (in.width > 1) {
        for (int k = 0; k < in.width; ++k) {
          std::string element = in.name;
          element += "_";
          element += std::to_string(k);
          claim(element, "an element of input '" + in.name + "'", in.location);
        }
      }
    }
    for (const ChartAssignment& p : chart.parameters) claim(p.name, "a parameter", p.location);
    for (const ChartAssignment& s : chart.states) claim(s.name, "a state", s.location);
    for (const ChartAssignment& e : chart.event_vars) claim(e.name, "an event variable", e.location);
  }

  void check_asserts(const ModalChart& chart) {
    for (const ChartAssert& a : chart.asserts) {
      std::string what = "assert ";
      what += quoted(a.predicate);
      Predicate predicate;
      try {
        predicate = parse_predicate(a.predicate);
      } catch (const ModelError& e) {
        fail(a.location, what + ": " + e.message());
      }
      std::vector<std::string> used;
      CompiledPredicate compiled;
      try {
        compiled = compiler_.compile(predicate, kParameterOnly, actor_.describe() + ", " + what, &used);
      } catch (const ModelError& e) {
        throw located_at(e, a.location);
      }
      const ChartEvaluator evaluator(0, {});  // every side is a constant
      if (evaluator.holds(compiled)) continue;
      std::string values;
      std::set<std::string> seen;
      for (const auto& name : used) {
        if (!seen.insert(name).second) continue;
        values += values.empty() ? " (" : ", ";
        values += name;
        values += " = ";
        values += format_double(compiler_.constant_value(name));
      }
      if (!values.empty()) values += ")";
      fail(a.location, what + " fails" + values);
    }
  }

  void define_frame(const ModalChart& chart) {
    compiler_.define_variable("t", SymbolKind::kTime);  // frame index kTimeIndex
    program_.inputs_at = 1;
    for (const ChartInput& in : chart.inputs) {
      program_.input_widths.push_back(static_cast<std::uint32_t>(in.width));
      if (in.width == 1) {
        compiler_.define_variable(in.name, SymbolKind::kInput);
        continue;
      }
      for (int k = 0; k < in.width; ++k) {
        std::string element = in.name;
        element += "_";
        element += std::to_string(k);
        compiler_.define_variable(element, SymbolKind::kInput);
      }
    }
    program_.states_at = static_cast<std::uint32_t>(compiler_.variables().size());
    for (const ChartAssignment& s : chart.states) compiler_.define_variable(s.name, SymbolKind::kState);
    program_.states = static_cast<std::uint32_t>(chart.states.size());
    program_.events_at = static_cast<std::uint32_t>(compiler_.variables().size());
    for (const ChartAssignment& e : chart.event_vars) compiler_.define_variable(e.name, SymbolKind::kEvent);
    program_.events = static_cast<std::uint32_t>(chart.event_vars.size());
    program_.frame = static_cast<std::uint32_t>(compiler_.variables().size());
  }

  /// The outputs: the chart's, then those only modes name, in order.
  void define_outputs(const ModalChart& chart) {
    for (const ChartAssignment& out : chart.outputs) {
      if (!is_output_name(out.name))
        fail(out.location, "output name '" + out.name + "' is not a valid port name");
      if (output_index(out.name)) fail(out.location, "output '" + out.name + "' is declared twice");
      program_.output_names.push_back(out.name);
    }
    for (const ChartMode& mode : chart.modes) {
      for (const ChartAssignment& out : mode.outputs) {
        if (!is_output_name(out.name))
          fail(out.location, "output name '" + out.name + "' is not a valid port name");
        if (!output_index(out.name)) program_.output_names.push_back(out.name);
      }
    }
    // A vector output's elements p[0], p[1], ... come one after the other, from
    // 0, and its name is no scalar output's: the chart's outputs and the
    // modes' give it the same number of elements.
    const auto& names = program_.output_names;
    std::vector<std::string> seen;
    for (std::size_t o = 0; o < names.size();) {
      const std::string port = output_port_name(names[o]);
      const auto mismatch = [&] {
        fail("", "output '" + port +
                     "' is given with different numbers of elements (or as a scalar and as a vector) in the "
                     "chart's outputs and its modes'");
      };
      if (std::find(seen.begin(), seen.end(), port) != seen.end()) mismatch();
      seen.push_back(port);
      if (names[o] == port) {
        ++o;
        continue;
      }
      for (std::size_t k = 0; o < names.size() && output_port_name(names[o]) == port; ++k, ++o) {
        if (names[o] == port || *output_element(names[o]) != k) mismatch();
      }
    }
  }

  [[nodiscard]] std::optional<std::uint32_t> output_index(const std::string& name) const {
    const auto& names = program_.output_names;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - names.begin());
  }

  [[nodiscard]] std::optional<std::uint32_t> mode_index(const std::string& name) const {
    for (std::uint32_t m = 0; m < program_.modes.size(); ++m) {
      if (program_.modes[m].name == name) return m;
    }
    return std::nullopt;
  }

  [[nodiscard]] std::string mode_list() const {
    std::string out;
    for (const Mode& m : program_.modes) out += (out.empty() ? "" : ", ") + m.name;
    return out;
  }

  void define_modes(const ModalChart& chart) {
    if (chart.modes.empty()) fail("", "a mode chart needs at least one mode (\"modes\")");
    for (const ChartMode& mode : chart.modes) {
      if (!is_identifier(mode.name)) fail(mode.location, "mode name '" + mode.name + "' is not a valid name");
      if (mode_index(mode.name)) fail(mode.location, "mode '" + mode.name + "' is defined twice");
      Mode out;
      out.name = mode.name;
      program_.modes.push_back(std::move(out));
    }
  }

  void define_transitions(const ModalChart& chart) {
    // Instantaneous modes first: the middles of compound transitions.
    for (std::size_t k = 0; k < chart.transitions.size(); ++k) {
      const ChartTransition& tr = chart.transitions[k];
      const std::string what = transition_text(k, path_text(tr.path, " -> "));
      if (tr.path.size() < 2 || tr.path.size() > 3) {
        fail(tr.location, what +
                              ": a path is [from, to] or [from, via, to]; a compound transition passes "
                              "through one instantaneous mode only");
      }
      for (const std::string& name : tr.path) {
        if (!mode_index(name)) {
          fail(tr.location, what + ": there is no mode '" + name + "' (modes: " + mode_list() + ")");
        }
      }
      if (tr.path.size() == 3) {
        if (tr.path[1] == tr.path[0] || tr.path[1] == tr.path[2]) {
          fail(tr.location, what + ": the instantaneous mode in the middle must differ from both ends");
        }
        program_.modes[*mode_index(tr.path[1])].instantaneous = true;
      }
    }
    for (std::size_t k = 0; k < chart.transitions.size(); ++k) {
      const ChartTransition& tr = chart.transitions[k];
      const std::string path = path_text(tr.path, " -> ");
      const std::string what = transition_text(k, path);
      for (const std::size_t end : {std::size_t{0}, tr.path.size() - 1}) {
        if (program_.modes[*mode_index(tr.path[end])].instantaneous) {
          fail(tr.location, what + ": mode '" + tr.path[end] +
                                "' is instantaneous (the middle of a compound transition), so no transition "
                                "can start or end there");
        }
      }
      const std::string& guard_location = tr.guard_location.empty() ? tr.location : tr.guard_location;
      const std::string guard_what = what + ", guard " + quoted(tr.guard);
      Predicate predicate;
      try {
        predicate = parse_predicate(tr.guard);
      } catch (const ModelError& e) {
        fail(guard_location, guard_what + ": " + e.message());
      }
      Transition out;
      try {
        out.guard = compiler_.compile(predicate, kAnySymbol, actor_.describe() + ", " + guard_what);
      } catch (const ModelError& e) {
        throw located_at(e, guard_location);
      }
      out.time_guard = TimePredicate::recognise(out.guard, kTimeIndex);
      for (const std::string& name : tr.path) out.path.push_back(*mode_index(name));
      out.name = std::to_string(k);
      out.name += ": ";
      out.name += path_text(tr.path, "->");
      out.label = transition_text(k, path + ", guard " + quoted(tr.guard));
      if (!tr.set.empty() && tr.path.size() == 3) {
        fail(tr.location, what + ": a compound transition's resets belong to its instantaneous mode '" +
                              tr.path[1] + "' (its \"set\")");
      }
      out.set = assignments(tr.set, SymbolKind::kState, what + ", set");
      program_.modes[out.path[0]].leaving.push_back(static_cast<std::uint32_t>(k));
      program_.transitions.push_back(std::move(out));
    }
    if (chart.initial.empty()) {
      if (chart.modes.size() != 1) {
        fail(chart.initial_location, "give the initial mode (\"initial\"; modes: " + mode_list() + ")");
      }
      program_.initial = 0;
    } else {
      const auto initial = mode_index(chart.initial);
      if (!initial) {
        fail(chart.initial_location,
             "initial mode '" + chart.initial + "' is not a mode (modes: " + mode_list() + ")");
      }
      if (program_.modes[*initial].instantaneous) {
        fail(chart.initial_location, "initial mode '" + chart.initial + "' is instantaneous");
      }
      program_.initial = *initial;
    }
  }

  /// `target = expression` assignments to states or event variables.
  std::vector<Assign> assignments(const std::vector<ChartAssignment>& items, SymbolKind target,
                                  const std::string& what) {
    std::vector<Assign> out;
    std::set<std::string> seen;
    for (const ChartAssignment& item : items) {
      const std::string item_what = what + " '" + item.name + "'";
      if (compiler_.kind_of(item.name) != static_cast<std::uint8_t>(target)) {
        fail(item.location,
             item_what + ": '" + item.name + "' is not " +
                 (target == SymbolKind::kState
                      ? "a state (set resets states; entry assigns event variables)"
                      : "an event variable (entry assigns event variables; set resets states)"));
      }
      if (!seen.insert(item.name).second) fail(item.location, item_what + " is assigned twice");
      Assign assign;
      assign.target = index_of(item.name);
      assign.value = compile(item.expression, kAnySymbol, item_what, item.location);
      assign.what = item_what + " = " + quoted(item.expression);
      out.push_back(std::move(assign));
    }
    program_.widest_assignment = std::max(program_.widest_assignment, out.size());
    return out;
  }

  [[nodiscard]] std::uint32_t index_of(const std::string& name) const {
    const auto& names = compiler_.variables();
    return static_cast<std::uint32_t>(std::find(names.begin(), names.end(), name) - names.begin());
  }

  void compile_modes(const ModalChart& chart) {
    std::vector<std::optional<std::pair<std::string, std::string>>> defaults(program_.output_names.size());
    for (const ChartAssignment& out : chart.outputs)
      defaults[*output_index(out.name)] = {{out.expression, out.location}};
    for (std::size_t m = 0; m < chart.modes.size(); ++m) {
      const ChartMode& mode = chart.modes[m];
      Mode& out = program_.modes[m];
      const std::string what = "mode '" + mode.name + "'";
      out.entry = assignments(mode.entry, SymbolKind::kEvent, what + ", entry");
      out.set = assignments(mode.set, SymbolKind::kState, what + ", set");
      if (out.instantaneous) {
        if (!mode.der.empty() || !mode.outputs.empty()) {
          fail(mode.location, what +
                                  " is instantaneous (the middle of a compound transition): it lasts no "
                                  "time, so it has no der and no outputs, only entry and set");
        }
        continue;
      }
      out.der.assign(program_.states, Term{});
      std::set<std::string> seen;
      for (const ChartAssignment& d : mode.der) {
        const std::string item = what + ", der '" + d.name + "'";
        if (compiler_.kind_of(d.name) != static_cast<std::uint8_t>(SymbolKind::kState)) {
          fail(d.location, item + ": '" + d.name + "' is not a state");
        }
        if (!seen.insert(d.name).second) fail(d.location, item + " is given twice");
        out.der[index_of(d.name) - program_.states_at] = compile(d.expression, kAnySymbol, item, d.location);
      }
      out.outputs.assign(program_.output_names.size(), Term{});
      std::vector<bool> given(program_.output_names.size(), false);
      for (const ChartAssignment& o : mode.outputs) {
        const std::uint32_t index = *output_index(o.name);
        const std::string item = what + ", output '" + o.name + "'";
        if (given[index]) fail(o.location, item + " is given twice");
        given[index] = true;
        out.outputs[index] = compile(o.expression, kAnySymbol, item, o.location);
      }
      for (std::size_t o = 0; o < given.size(); ++o) {
        if (given[o]) continue;
        if (!defaults[o]) {
          fail(mode.location, what + " gives no value for output '" + program_.output_names[o] +
                                  "' (give it in the mode's outputs, or a default in the chart's outputs)");
        }
        out.outputs[o] = compile(defaults[o]->first, kAnySymbol, "output '" + program_.output_names[o] + "'",
                                 defaults[o]->second);
      }
    }
    for (Transition& tr : program_.transitions) {
      tr.writes_states = !tr.set.empty();
      for (std::size_t p = 1; p < tr.path.size(); ++p) {
        if (!program_.modes[tr.path[p]].set.empty()) tr.writes_states = true;
      }
    }
  }

  const ModalModel& actor_;
  const ParameterScope& scope_;
  ExpressionCompiler compiler_;
  Program program_;
  std::map<std::string, std::string> names_;  ///< declared name → what it is
};

// ---------------------------------------------------------------- configure

void ModalModel::configure(const ParameterScope& scope) {
  if (from_parameters_) read_chart_from_parameters();
  program_ = Compiler(*this, scope).run(chart_);
  declare_ports();
}

void ModalModel::declare_ports() {
  // configure() may run again: ports declared then are found by name.
  input_ports_.clear();
  for (const ChartInput& in : chart_.inputs) {
    if (const auto found = find_input(in.name)) {
      input_ports_.push_back(input_port(*found));
      set_width(input_ports_.back(), in.width);
    } else {
      input_ports_.push_back(
          declare_input(in.name, in.discrete ? PortKind::kDiscrete : PortKind::kContinuous, in.width));
    }
  }
  // One port per output; a vector output's elements p[0], p[1], ... (one
  // after the other, checked by the compiler) share the port p.
  output_ports_.clear();
  output_elements_.clear();
  const auto& names = program_.output_names;
  for (std::size_t o = 0; o < names.size(); ++o) {
    const std::string port = output_port_name(names[o]);
    std::size_t width = 1;
    while (o + width < names.size() && output_port_name(names[o + width]) == port) ++width;
    OutputPort handle;
    if (const auto found = find_output(port)) {
      handle = output_port(*found);
      set_width(handle, static_cast<int>(width));
    } else {
      handle = declare_output(port, PortKind::kContinuous, static_cast<int>(width));
    }
    for (std::size_t k = 0; k < width; ++k) {
      output_ports_.push_back(handle);
      output_elements_.push_back(static_cast<std::uint32_t>(k));
    }
    o += width - 1;
  }
  // Direct feedthrough: an output whose expression (in some mode) reads an input.
  std::vector<std::pair<InputPort, OutputPort>> pairs;
  for (std::size_t o = 0; o < program_.output_names.size(); ++o) {
    std::uint32_t at = program_.inputs_at;
    for (std::size_t i = 0; i < program_.input_widths.size(); ++i) {
      const std::uint32_t end = at + program_.input_widths[i];
      bool reads = false;
      for (const Mode& mode : program_.modes) {
        if (mode.instantaneous) continue;
        const Term& term = mode.outputs[o];
        if (term.kind == Term::Kind::kVariable) reads = reads || (term.index >= at && term.index < end);
        if (term.kind == Term::Kind::kProgram) {
          for (const auto& [name, index] : program_.programs[term.index].variables) {
            reads = reads || (index >= at && index < end);
          }
        }
      }
      if (reads) pairs.emplace_back(input_ports_[i], output_ports_[o]);
      at = end;
    }
  }
  set_feedthrough(pairs);
}

}  // namespace ctde
