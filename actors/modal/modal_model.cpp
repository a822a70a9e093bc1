#include "actors/modal/modal_model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/expression_engine.hpp"
#include "core/format.hpp"
#include "core/json_cursor.hpp"

namespace ctde {

namespace {

/// The parameters of a chart read from a model file, in the format's order.
constexpr const char* kStructureKeys[] = {"inputs", "outputs",    "parameters", "assert",
                                          "states", "event_vars", "modes",      "transitions"};

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

// ---------------------------------------------------------------- run state

/// What changes during a run: the current mode and the frame (whose event
/// variables are the chart's discrete state). Not copyable.
struct ModalModel::RunState final : ActorState {
  RunState(std::size_t frame, const std::vector<ChartProgram>& programs, std::size_t widest)
      : evaluator(frame, programs), scratch(widest, 0.0) {}
  ChartEvaluator evaluator;
  std::uint32_t mode = 0;
  std::vector<double> scratch;  ///< values of one block of assignments, before they are written
  std::vector<double> held;     ///< per input element: a discrete input's last token (0 before)
  /// Per transition: its time guard, resolved to this run's ticks (or none).
  std::vector<std::optional<TimePredicate>> time_guards;
  Tick start = 0;         ///< the run's start tick: its firing looks at every transition
  Tick recheck = kNever;  ///< the tick of the look one tick after a strict miss
};

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

// ---------------------------------------------------------------- ModalModel

ModalModel::ModalModel(std::string name)
    : Actor(std::move(name), kInfo, TimeMode::kContinuous), from_parameters_(true) {
  for (const char* key : kStructureKeys) {
    structure_params_.push_back(std::string(key) == "modes"
                                    ? declare_parameter(key, ParamKind::kStructure)
                                    : declare_optional_parameter(key, ParamKind::kStructure));
  }
  initial_param_ = declare_optional_parameter("initial", ParamKind::kString);
}

ModalModel::ModalModel(std::string name, ModalChart chart)
    : Actor(std::move(name), kInfo, TimeMode::kContinuous),
      from_parameters_(false),
      chart_(std::move(chart)) {}

void ModalModel::read_chart_from_parameters() {
  chart_ = ModalChart{};
  for (const ParamHandle p : structure_params_) {
    if (!is_set(p)) continue;
    const ParamSlot& slot = parameters()[p.index];
    const std::string location =
        slot.location.empty() ? "parameter '" + slot.name.str() + "' at " : slot.location.text();
    read_chart_part(chart_, slot.name.str(), JsonCursor(structure(p), location).prefixed(describe()));
  }
  if (initial_param_ && is_set(*initial_param_)) {
    chart_.initial = text(*initial_param_);
    chart_.initial_location = parameters()[initial_param_->index].location.text();
  }
}

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

Crossing ModalModel::guard_direction(std::size_t /*i*/) const { return Crossing::kRising; }

std::string ModalModel::guard_name(std::size_t i) const { return program_.transitions[i].name; }

std::unique_ptr<ActorState> ModalModel::make_state() const {
  auto run = std::make_unique<RunState>(program_.frame, program_.programs, program_.widest_assignment);
  for (const Transition& tr : program_.transitions) run->time_guards.push_back(tr.time_guard);
  run->held.assign(program_.states_at - program_.inputs_at, 0.0);
  return run;
}

void ModalModel::load_frame(const ReadContext& context, RunState& run) const {
  const std::span<double> frame = run.evaluator.frame();
  frame[0] = context.time();
  std::uint32_t at = program_.inputs_at;
  for (std::size_t i = 0; i < program_.input_widths.size(); ++i) {
    if (chart_.inputs[i].discrete) {
      const auto held = run.held.begin() + (at - program_.inputs_at);
      std::copy_n(held, program_.input_widths[i], frame.begin() + at);
      at += program_.input_widths[i];
      continue;
    }
    const std::span<const double> in = context.input(input_ports_[i]);
    for (std::uint32_t k = 0; k < program_.input_widths[i]; ++k) frame[at++] = k < in.size() ? in[k] : 0.0;
  }
  const std::span<const double> x = context.states();
  std::copy(x.begin(), x.end(), frame.begin() + program_.states_at);
}

void ModalModel::initialize(FireContext& context) const {
  auto& run = context.state<RunState>();
  run.mode = program_.initial;
  const std::span<double> frame = run.evaluator.frame();
  std::copy(program_.event_initial.begin(), program_.event_initial.end(), frame.begin() + program_.events_at);
  const std::span<double> x = context.mutable_states();
  std::copy(program_.state_initial.begin(), program_.state_initial.end(), x.begin());
  run.start = context.tag().time;
  run.recheck = kNever;
  for (std::optional<TimePredicate>& time_guard : run.time_guards) {
    if (time_guard) time_guard->resolve(context.resolution(), run.start, context.stop_tick());
  }
  // A transition whose predicate holds at the start is taken at once: look at (start, 0).
  if (!program_.modes[run.mode].leaving.empty()) context.fire_at(run.start);
  // The start's firing takes a time guard that holds there; later ones are time events.
  schedule_time_guards(context, run, run.start + 1);
}

void ModalModel::evaluate(EvalContext& context) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  for (std::size_t o = 0; o < mode.outputs.size(); ++o) {
    const double y = run.evaluator.value(mode.outputs[o]);
    if (!std::isfinite(y)) {
      throw RunError("output '" + program_.output_names[o] + "' is " + format_double(y) + " in mode '" +
                     mode.name + "' at t = " + format_double(context.time()) + " s");
    }
    context.output(output_ports_[o])[output_elements_[o]] = y;
  }
}

void ModalModel::derivatives(const ReadContext& context, std::span<double> dxdt) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  for (std::size_t i = 0; i < dxdt.size(); ++i) dxdt[i] = run.evaluator.value(mode.der[i]);
}

void ModalModel::guards(const ReadContext& context, std::span<double> g) const {
  auto& run = context.state<RunState>();
  load_frame(context, run);
  for (std::size_t k = 0; k < g.size(); ++k) {
    const Transition& tr = program_.transitions[k];
    // A time guard is a time event (schedule_time_guards): never searched.
    g[k] = tr.path[0] == run.mode && !tr.time_guard ? run.evaluator.guard(tr.guard) : -1.0;
  }
}

void ModalModel::fire(FireContext& context) const {
  auto& run = context.state<RunState>();
  hold_tokens(context, run);
  load_frame(context, run);
  const Mode& mode = program_.modes[run.mode];
  const Tick now = context.tag().time;
  bool crossed = false;
  for (const std::uint32_t k : mode.leaving) crossed = crossed || context.crossing(k) != Crossing::kNone;
  // Time guards are decided on the tick, exactly, at every firing. Of the
  // others: at a located crossing, the crossed ones; at the start, or one
  // tick after a crossing that held only up to strictness, all of them;
  // at a time guard's time event, none (a state guard that holds there
  // would have crossed; and the time event may be stale, asked for in a
  // mode left since).
  const bool look_at_all = !crossed && (now == run.start || now == run.recheck);
  if (now == run.recheck) run.recheck = kNever;
  bool strict_miss = false;
  for (const std::uint32_t k : mode.leaving) {
    const Transition& tr = program_.transitions[k];
    if (!tr.time_guard) {
      if (crossed ? context.crossing(k) == Crossing::kNone : !look_at_all) continue;
    }
    if (guard_holds(context, run, k)) {
      take(context, run, k);
      return;
    }
    if (crossed && !tr.time_guard) strict_miss = true;
  }
  // The guard function reached 0 but a strict comparison does not hold yet
  // (`v > 0` at v = 0): look again one tick later.
  if (strict_miss) {
    run.recheck = now + 1;
    context.fire_at(run.recheck);
  }
}

void ModalModel::hold_tokens(FireContext& context, RunState& run) const {
  // A discrete input's token replaces its held value: the derivatives may
  // change with it, so the solver restarts (states asked for and left as
  // they are: no reset is traced). A guard it makes cross fires at the next
  // microstep (docs/semantics.md, "Crossings made by events").
  std::uint32_t at = 0;
  bool changed = false;
  for (std::size_t i = 0; i < program_.input_widths.size(); ++i) {
    const std::uint32_t width = program_.input_widths[i];
    if (chart_.inputs[i].discrete && context.has_token(input_ports_[i])) {
      const std::span<const double> token = context.token(input_ports_[i]);
      for (std::uint32_t k = 0; k < width; ++k) {
        const double v = k < token.size() ? token[k] : 0.0;
        changed = changed || run.held[at + k] != v;
        run.held[at + k] = v;
      }
    }
    at += width;
  }
  if (changed) (void)context.mutable_states();
}

bool ModalModel::guard_holds(const ReadContext& context, const RunState& run, std::uint32_t k) const {
  const std::optional<TimePredicate>& time_guard = run.time_guards[k];
  return time_guard ? time_guard->holds(context.tag().time)
                    : run.evaluator.holds(program_.transitions[k].guard);
}

void ModalModel::schedule_time_guards(FireContext& context, const RunState& run, Tick from) const {
  // One time event, at the earliest: when it fires, the chart takes that
  // transition (or one before it in priority), and asks again for the mode
  // it then enters.
  Tick first = kNever;
  for (const std::uint32_t k : program_.modes[run.mode].leaving) {
    if (run.time_guards[k]) first = std::min(first, run.time_guards[k]->first_from(from));
  }
  if (first != kNever) context.fire_at(first);
}

void ModalModel::assign(const std::vector<Assign>& assignments, RunState& run) const {
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    const double value = run.evaluator.value(assignments[i].value);
    if (!std::isfinite(value)) throw RunError(assignments[i].what + " gives " + format_double(value));
    run.scratch[i] = value;
  }
  const std::span<double> frame = run.evaluator.frame();
  for (std::size_t i = 0; i < assignments.size(); ++i) frame[assignments[i].target] = run.scratch[i];
}

void ModalModel::take(FireContext& context, RunState& run, std::uint32_t k) const {
  const Transition& tr = program_.transitions[k];
  // The frame holds the values just before the event.
  assign(tr.set, run);
  for (std::size_t p = 1; p < tr.path.size(); ++p) {
    const Mode& entered = program_.modes[tr.path[p]];
    assign(entered.entry, run);
    assign(entered.set, run);
  }
  run.mode = tr.path.back();
  // Only a transition that writes states asks for them: the director traces
  // a reset for what it is given (and restarts the solver after any mode
  // change, with or without outputs: mode_changed).
  if (tr.writes_states) {
    const std::span<double> x = context.mutable_states();
    const std::span<const double> frame = run.evaluator.frame();
    std::copy_n(frame.begin() + program_.states_at, x.size(), x.begin());
  }
  context.mode_changed(
      program_.modes[tr.path.front()].name,
      tr.path.size() == 3 ? std::string_view(program_.modes[tr.path[1]].name) : std::string_view(),
      program_.modes[tr.path.back()].name);
  for (const std::uint32_t next : program_.modes[run.mode].leaving) {
    if (guard_holds(context, run, next)) loops(run, k, next);
  }
  // A time guard that holds now would loop too (above): the next can only be later.
  schedule_time_guards(context, run, context.tag().time + 1);
}

void ModalModel::loops(const RunState& run, std::uint32_t taken, std::uint32_t holding) const {
  const Transition& tr = program_.transitions[taken];
  std::string message;
  if (taken == holding) {
    message = "the guard of " + tr.label + " still holds after the transition";
  } else {
    message =
        "after " + tr.label + ", the guard of " + program_.transitions[holding].label + " holds at once";
  }
  const std::span<const double> frame = run.evaluator.frame();
  std::string values;
  for (std::uint32_t i = 0; i < program_.states + program_.events; ++i) {
    values += values.empty() ? " (" : ", ";
    values += i < program_.states ? chart_.states[i].name : chart_.event_vars[i - program_.states].name;
    values += " = ";
    values += format_double(frame[program_.states_at + i]);
  }
  if (!values.empty()) values += ")";
  message += values;
  message +=
      taken == holding
          ? ": it would be taken again at once and loop forever; make the transition falsify its guard "
            "(guard an impact with the sign of the velocity, as \"x >= upper && v > 0\")"
          : ": the chart takes one transition per event; make the guards of a mode's way in and way "
            "out exclusive";
  throw RunError(message);
}

}  // namespace ctde
