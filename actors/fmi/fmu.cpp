// The FMU actor's declaration side: loading the FMU, its ports and start
// values (configure()). The run-time calls are in fmu_run.cpp.
#include "actors/fmi/fmu.hpp"

#include <nlohmann/json.hpp>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmi_rules.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/local_jacobian.hpp"

namespace ctde {

namespace fs = std::filesystem;

std::string fmu_port_name(const std::string& variable) {
  std::string name = variable;
  for (char& c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!keep) c = '_';
  }
  return name;
}

PortKind fmu_input_kind(const FmuVariable& variable, bool model_exchange) {
  if (!model_exchange) return PortKind::kPolymorphic;
  // Only floating-point variables (Real; FMI 3 Float32, Float64) can be continuous (the parser checks).
  return variable.variability == Variability::kContinuous ? PortKind::kContinuous : PortKind::kDiscrete;
}

FMU::FMU(std::string name) : Actor(std::move(name), kInfo, TimeMode::kContinuous) {
  file_ = declare_parameter("file", ParamKind::kFile);
  interface_ = declare_parameter("interface", ParamKind::kString, ParamValue(std::string("default")));
  step_ = declare_optional_parameter("communication_step", ParamKind::kScalar);
  start_ = declare_optional_parameter("start", ParamKind::kStructure);
}

FMU::~FMU() = default;

std::string FMU::validation_summary() const {
  std::string s =
      me_ ? "model-exchange" : "co-simulation, communication_step " + format_double(communication_step_);
  s += ", FMI " + md_.fmi_version + ", model '" + md_.model_name + "'";
  if (me_) {
    s += ", " + std::to_string(states_) + " states";
    s += ", " + std::to_string(md_.event_indicators) + " event indicators";
    s += clocks_.summary();
  }
  return s;
}

std::string FMU::guard_name(std::size_t i) const {
  std::string name(1, 'z');
  name += std::to_string(i);
  return name;
}

void FMU::configure(const ParameterScope& /*scope*/) {
  load_file();
  choose_interface();
  try {
    clocks_.configure(md_, archive_->describe());
  } catch (const ModelError& e) {
    fail(file_, e.message());
  }
  if (!me_ && clocks_.any()) {
    fail(interface_, archive_->describe() + " has clocks ('" + clocks_.first_name() +
                         "'): ctde runs FMI 3 clocks with Model Exchange only (co-simulation event mode is "
                         "not supported)");
  }
  set_declared_mode(me_ ? TimeMode::kContinuous : TimeMode::kDiscrete);
  const FmuInterface& chosen = me_ ? *md_.model_exchange : *md_.co_simulation;
  once_per_process_ = chosen.instantiate_once_per_process;
  open_library(chosen);
  states_ = 0;
  for (const std::size_t state : md_.states) states_ += md_.variables[state].size;
  declare_ports();
  read_starts();
  check_instance();
}

void FMU::load_file() {
  const std::string& file = text(file_);
  if (file != loaded_) {
    try {
      load(file);
    } catch (const ModelError& e) {
      loaded_.clear();
      fail(file_, e.message());
    }
    loaded_ = file;
  }
}

void FMU::choose_interface() {
  const std::string& choice = text(interface_);
  if (choice == "model-exchange") {
    if (!md_.model_exchange) fail(interface_, archive_->describe() + " has no Model Exchange interface");
    me_ = true;
  } else if (choice == "co-simulation") {
    if (!md_.co_simulation) fail(interface_, archive_->describe() + " has no Co-Simulation interface");
    me_ = false;
  } else if (choice == "default") {
    me_ = md_.model_exchange.has_value();
  } else {
    fail(interface_, "must be \"model-exchange\" or \"co-simulation\", got \"" + choice + "\"");
  }
  if (me_ && is_set(step_)) fail(step_, "is for the co-simulation interface only");
  if (!me_) {
    if (!is_set(step_)) fail(step_, "is required for the co-simulation interface");
    communication_step_ = scalar(step_);
    if (!(communication_step_ > 0) || !std::isfinite(communication_step_)) {
      fail(step_, "must be positive and finite, got " + format_double(communication_step_));
    }
  }
}

void FMU::open_library(const FmuInterface& chosen) {
  const std::string platform = fmi_platform(md_.fmi_version);
  if (platform.empty()) {
    fail(file_, archive_->describe() + ": FMI " + md_.fmi_version +
                    " names no platform folder for this machine (ctde runs FMI 2.0 binaries on x86 Linux, "
                    "FMI 3.0 binaries on x86, x86-64 and AArch64 Linux)");
  }
  const fs::path binaries = archive_->folder() / "binaries";
  const fs::path binary = binaries / platform / (chosen.model_identifier + ".so");
  if (!fs::exists(binary)) {
    // FMI 3.0 names the folder <arch>-<os>; an FMU made with FMI 2.0's name is refused, saying so.
    std::string hint;
    const std::string fmi2_name = fmi2_platform();
    if (md_.fmi_version == "3.0" && !fmi2_name.empty() && fs::exists(binaries / fmi2_name)) {
      hint = " (binaries/" + fmi2_name + "/ is FMI 2.0's name; FMI 3.0 requires binaries/" + platform + "/)";
    }
    fail(file_, archive_->describe() + ": no binary for this platform (" + platform +
                    "): " + binary.filename().string() + " is not in binaries/" + platform + "/" + hint);
  }
  try {
    library_ = std::make_shared<Fmi2Library>(binary, me_, md_.fmi_version, archive_->describe());
  } catch (const ModelError& e) {
    fail(file_, e.message());
  }
  // The optional FMU-state functions, for snapshots (fmu_snapshot.cpp): only when declared.
  if (chosen.can_get_and_set_fmu_state) library_->look_up_fmu_state();
  // Directional derivatives give the Jacobian's values (local_jacobian, jacobian_values) of Model
  // Exchange; FMI 3 arrays are left to finite differences (one seed per value reference here).
  directional_ = false;
  if (me_ && chosen.provides_directional_derivatives) {
    if (!library_->look_up_directional_derivative()) {
      fail(file_, archive_->describe() + ": modelDescription.xml declares providesDirectionalDerivative" +
                      (md_.fmi_version == "3.0" ? "s" : "") + ", and its binary has no " +
                      (md_.fmi_version == "3.0" ? "fmi3" : "fmi2") + "GetDirectionalDerivative");
    }
    directional_ = std::all_of(md_.variables.begin(), md_.variables.end(), [](const FmuVariable& v) {
      return v.size == 1 ||
             (v.causality != Causality::kInput && v.causality != Causality::kOutput && v.derivative_of == 0);
    });
    for (const std::size_t s : md_.states) directional_ = directional_ && md_.variables[s].size == 1;
  }
  if (clocks_.any()) {
    try {
      clocks_.check_functions(library_->fmi3_functions(), archive_->describe());
    } catch (const ModelError& e) {
      fail(file_, e.message());
    }
  }
}

void FMU::check_instance() const {
  // A trial instance: the FMU checks the GUID (and its resources) now, so
  // that a mismatch is a model error found by `ctde validate`.
  try {
    (void)instantiate(name() + "_check");
  } catch (const RunError& e) {
    const std::string token = md_.fmi_version == "3.0" ? "instantiation token " : "GUID ";
    fail(file_, archive_->describe() + ": " + e.what() + " (is the " + token + md_.guid + " the binary's?)");
  }
}

void FMU::check_times(const TimeResolution& resolution) const {
  if (!me_) check_duration(step_, resolution, false);
}

void FMU::load(const std::string& file) {
  archive_ = std::make_unique<FmuArchive>(file);
  md_ = parse_model_description(archive_->text("modelDescription.xml"), archive_->describe());
  resource_uri_ = file_uri(archive_->folder() / "resources");
}

void FMU::declare_ports() {
  continuous_inputs_ = {};
  event_inputs_ = {};
  outputs_ = {};
  output_starts_.clear();
  unconnectable_.clear();
  std::vector<std::pair<std::string, std::string>> names;  // port, variable
  std::vector<std::size_t> input_variable;                 // per input port
  for (std::size_t v = 0; v < md_.variables.size(); ++v) {
    const FmuVariable& var = md_.variables[v];
    const bool input = var.causality == Causality::kInput;
    if (!input && var.causality != Causality::kOutput) continue;
    if (clocks_.owns(v) && !clocks_.has_port(v)) continue;  // a periodic input clock: ctde ticks it
    const std::string port = fmu_port_name(var.name);
    if (!clocks_.owns(v) && !is_port_type(var)) {
      add_unconnectable(var, port, input);  // refused only when a connection needs it (unconnectable())
      continue;
    }
    for (const auto& [other_port, other_variable] : names) {
      if (other_port == port) {
        fail(archive_->describe() + ": variables '" + other_variable + "' and '" + var.name +
             "' both make the port name '" + port + "'");
      }
    }
    names.emplace_back(port, var.name);
    if (clocks_.owns(v)) {  // a clock or a clocked variable: a discrete port (fmi3_clocks.hpp)
      const auto found = input ? find_input(port) : find_output(port);
      clocks_.set_port(v, found   ? *found
                          : input ? declare_input(port, PortKind::kDiscrete, 1).index
                                  : declare_output(port, PortKind::kDiscrete, 1).index);
      continue;
    }
    declare_value_port(v, port, input);
    if (input) input_variable.push_back(v);
  }
  lay_out_outputs();
  declare_feedthrough(input_variable);
}

void FMU::add_unconnectable(const FmuVariable& var, const std::string& port, bool input) {
  const std::string what =
      "'" + var.name + "' is " + (input ? "an input" : "an output") + " of type " + var.type_name;
  unconnectable_.emplace_back(
      port, var.size == 0 ? what + " whose size a structural parameter sets: ctde's ports have fixed widths"
                          : what +
                                ", which ctde's ports do not carry (they carry numbers: Real, Integer, "
                                "Boolean, Enumeration; FMI 3 Float32, Float64, Int8...UInt64)");
}

void FMU::declare_value_port(std::size_t v, const std::string& port, bool input) {
  const FmuVariable& var = md_.variables[v];
  const bool fmi3 = md_.fmi_version == "3.0";
  // Model Exchange: a discrete input changes only at events (a token);
  // Co-Simulation: of its driver's kind, read at the communication points.
  const PortKind kind = input ? fmu_input_kind(var, me_) : me_ ? PortKind::kContinuous : PortKind::kDiscrete;
  const ValueType type = *value_type(var, fmi3);
  if (!has_functions(*library_, type)) {
    fail(file_, archive_->describe() + ": the binary does not export " + function_name(type, fmi3, false) +
                    " and " + function_name(type, fmi3, true) + ", which variable '" + var.name + "' needs");
  }
  const int width = static_cast<int>(var.size);  // an array variable: a vector port
  std::size_t index = 0;
  if (input) {
    const auto found = find_input(port);
    index = found ? *found : declare_input(port, kind, width, /*optional=*/true).index;
    set_kind(InputPort(index), kind);
  } else {
    const auto found = find_output(port);
    index = found ? *found : declare_output(port, kind, width).index;
    set_kind(OutputPort(index), kind);
    if (output_starts_.size() <= index) output_starts_.resize(index + 1);
    output_starts_[index] = var.starts.size() == var.size ? var.starts : std::vector<double>(var.size, 0.0);
  }
  Ports& side = !input ? outputs_ : kind == PortKind::kContinuous ? continuous_inputs_ : event_inputs_;
  side[static_cast<std::size_t>(type)].add(var.value_reference, index, v, var.size);
}

void FMU::lay_out_outputs() {
  output_families_.clear();
  output_slots_.clear();
  for (std::size_t t = 0; t < kValueTypes; ++t) {
    const PortGroup& group = outputs_[t];
    if (group.size() > 0) output_families_.push_back(t);
    std::size_t offset = 0;
    for (std::size_t k = 0; k < group.size(); ++k) {
      output_slots_.push_back({group.ports[k], t, offset, group.widths[k]});
      offset += group.widths[k];
    }
  }
}

void FMU::declare_feedthrough(const std::vector<std::size_t>& input_variable) {
  // Direct feedthrough from <ModelStructure><Outputs>: dependencies absent = on everything.
  std::vector<std::pair<InputPort, OutputPort>> pairs;
  for (const FmuOutput& out : md_.outputs) {
    if (clocks_.owns(out.variable)) continue;  // discrete: no feedthrough declared
    if (!is_port_type(md_.variables[out.variable])) continue;
    const auto o = find_output(fmu_port_name(md_.variables[out.variable].name));
    if (!o) continue;
    for (const std::size_t in : input_variable) {
      const bool depends = !out.dependencies || std::find(out.dependencies->begin(), out.dependencies->end(),
                                                          in) != out.dependencies->end();
      if (depends)
        pairs.emplace_back(input_port(*find_input(fmu_port_name(md_.variables[in].name))), output_port(*o));
    }
  }
  set_feedthrough(pairs);
}

void FMU::local_jacobian(LocalJacobian& jacobian) const {
  if (!me_) {
    Actor::local_jacobian(jacobian);
    return;
  }
  // With directional derivatives the values come at each point (jacobian_values), else by differences.
  double value = LocalJacobian::kUnknown;
  if (directional_) value = LocalJacobian::kAtPoint;
  // Where each state variable's elements start among the actor's states, and each input variable's port.
  std::vector<std::optional<std::uint32_t>> state_offset(md_.variables.size());
  std::uint32_t offset = 0;
  for (const std::size_t state : md_.states) {
    state_offset[state] = offset;
    offset += static_cast<std::uint32_t>(md_.variables[state].size);
  }
  std::vector<std::optional<std::size_t>> input_of(md_.variables.size());
  for (std::size_t v = 0; v < md_.variables.size(); ++v) {
    if (md_.variables[v].causality != Causality::kInput) continue;
    input_of[v] = find_input(fmu_port_name(md_.variables[v].name));
  }
  // Rows `rows` (a derivative's or an output's elements) on the variables `dependencies`.
  const auto depend = [&](const std::vector<std::size_t>& dependencies, auto on_state, auto on_input) {
    for (const std::size_t d : dependencies) {
      if (state_offset[d]) {
        for (std::uint32_t e = 0; e < md_.variables[d].size; ++e) on_state(*state_offset[d] + e);
      } else if (input_of[d]) {
        for (std::uint32_t e = 0; e < jacobian.input_width(*input_of[d]); ++e) on_input(*input_of[d], e);
      }  // time, a parameter...: not a column of the Jacobian
    }
  };
  for (std::size_t i = 0; i < md_.states.size(); ++i) {
    const std::uint32_t first = *state_offset[md_.states[i]];
    const auto size = static_cast<std::uint32_t>(md_.variables[md_.states[i]].size);
    for (std::uint32_t e = 0; e < size; ++e) {
      const std::uint32_t s = first + e;
      if (!md_.derivative_dependencies[i]) {
        for (std::uint32_t r = 0; r < jacobian.states(); ++r) jacobian.derivative_state(s, r, value);
        for (std::size_t k = 0; k < jacobian.inputs(); ++k) {
          for (std::uint32_t j = 0; j < jacobian.input_width(k); ++j)
            jacobian.derivative_input(s, k, j, value);
        }
        continue;
      }
      depend(
          *md_.derivative_dependencies[i], [&](std::uint32_t r) { jacobian.derivative_state(s, r, value); },
          [&](std::size_t k, std::uint32_t j) { jacobian.derivative_input(s, k, j, value); });
    }
  }
  for (const FmuOutput& out : md_.outputs) {
    const auto o = find_output(fmu_port_name(md_.variables[out.variable].name));
    if (!o || clocks_.owns(out.variable)) continue;
    for (std::uint32_t i = 0; i < jacobian.output_width(*o); ++i) {
      // An output that is a state is that state (FMI lists no dependency for it: the ball's h and v).
      if (state_offset[out.variable]) {
        jacobian.output_state(*o, i, *state_offset[out.variable] + i, 1.0);
        if (out.dependencies || directional_) continue;
      }
      if (!out.dependencies) {
        for (std::uint32_t r = 0; r < jacobian.states(); ++r) jacobian.output_state(*o, i, r, value);
        for (std::size_t k = 0; k < jacobian.inputs(); ++k) {
          if (!feeds_through(k, *o)) continue;
          for (std::uint32_t j = 0; j < jacobian.input_width(k); ++j)
            jacobian.output_input(*o, i, k, j, value);
        }
        continue;
      }
      depend(
          *out.dependencies, [&](std::uint32_t r) { jacobian.output_state(*o, i, r, value); },
          [&](std::size_t k, std::uint32_t j) { jacobian.output_input(*o, i, k, j, value); });
    }
  }
}

std::string FMU::unconnectable(std::string_view port) const {
  for (const auto& [name, why] : unconnectable_) {
    if (name == port) return why;
  }
  return {};
}

void FMU::read_starts() {
  starts_.clear();
  if (!is_set(start_)) return;
  const nlohmann::ordered_json& values = structure(start_);
  if (!values.is_object()) fail(start_, "must be an object of variable names and values: {\"e\": 0.7}");
  for (const auto& item : values.items()) {
    const std::string& name = item.key();  // (not a structured binding: the lambdas below capture it)
    const nlohmann::ordered_json& value = item.value();
    const auto v = md_.find(name);
    if (!v) fail(start_, archive_->describe() + " has no variable named '" + name + "'");
    const FmuVariable& var = md_.variables[*v];
    const bool fmi3 = md_.fmi_version == "3.0";
    const bool text = var.type == VariableType::kString || var.type_name == "Binary";
    if (!is_port_type(var) && !text) {
      fail(start_, "variable '" + name + "' is of type " + var.type_name +
                       (var.size == 0 ? " with a size a structural parameter sets" : std::string()) +
                       ": ctde gives start values to numbers, String and Binary variables");
    }
    // Start values are set before fmi2EnterInitializationMode (fmi_rules.hpp).
    if (!may_set(var, FmiMode::kInstantiated))
      fail(start_, "variable '" + name +
                       "' cannot be given a start value: " + set_refusal(var, FmiMode::kInstantiated));
    Start start{*v, {}, {}};
    if (text) {
      const bool binary = var.type_name == "Binary";
      if (!value.is_string()) {
        fail(start_, "the start value of " + var.type_name + " variable '" + name + "' must be a string" +
                         (binary ? " of hexadecimal digits (\"0a0b\")" : ""));
      }
      start.text = value.get<std::string>();
      if (binary && (start.text.size() % 2 != 0 ||
                     start.text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)) {
        fail(start_, "the start value of Binary variable '" + name +
                         "' must be an even number of hexadecimal digits, got \"" + start.text + "\"");
      }
      const bool available = binary ? library_->fmi3_functions().set_binary != nullptr
                                    : library_->functions().set_string != nullptr;
      if (!available) {
        fail(start_, archive_->describe() + ": the binary does not export " +
                         (binary ? "fmi3SetBinary" : (fmi3 ? "fmi3SetString" : "fmi2SetString")) +
                         ", which the start value of '" + name + "' needs");
      }
      starts_.push_back(std::move(start));
      continue;
    }
    const ValueType type = *value_type(var, fmi3);
    const auto number = [&](const nlohmann::ordered_json& element) {
      if (element.is_boolean()) return element.get<bool>() ? 1.0 : 0.0;
      if (!element.is_number()) {
        fail(start_, "the start value of '" + name + "' must be " +
                         (var.size > 1 ? "an array of " + std::to_string(var.size) + " numbers"
                                       : "a number or a boolean"));
      }
      const double x = element.get<double>();
      if (!fits(type, x)) {
        fail(start_, "the start value " + format_double(x) + " of '" + name + "' is outside the range of " +
                         range_text(type, fmi3));
      }
      return x;
    };
    if (value.is_array()) {
      if (value.size() != var.size) {
        fail(start_, "the start value of '" + name + "' has " + std::to_string(value.size()) +
                         " elements; '" + name + "' has " + std::to_string(var.size));
      }
      for (const auto& element : value) start.values.push_back(number(element));
    } else if (var.size == 1) {
      start.values.push_back(number(value));
    } else {
      fail(start_, "the start value of '" + name + "' must be an array of " + std::to_string(var.size) +
                       " numbers (it is an array variable)");
    }
    if (!has_functions(*library_, type)) {
      fail(start_, archive_->describe() + ": the binary does not export " + function_name(type, fmi3, true) +
                       ", which the start value of '" + name + "' needs");
    }
    starts_.push_back(std::move(start));
  }
}

std::unique_ptr<Fmi2Instance> FMU::instantiate(const std::string& instance_name) const {
  return std::make_unique<Fmi2Instance>(library_, instance_name,
                                        me_ ? fmi2::Type::kModelExchange : fmi2::Type::kCoSimulation,
                                        md_.guid, resource_uri_, once_per_process_, describe());
}

}  // namespace ctde
