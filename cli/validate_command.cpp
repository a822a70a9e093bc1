#include "cli/validate_command.hpp"

#include "run/run_setup.hpp"

#include <algorithm>
#include <iomanip>
#include <span>

#include <nlohmann/json.hpp>

#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "core/format.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "domains/ctde/run_options.hpp"

namespace ctde::cli {

namespace {

char kind_letter(PortKind kind) {
  switch (kind) {
    case PortKind::kContinuous:
      return 'C';
    case PortKind::kDiscrete:
      return 'D';
    case PortKind::kConstant:
      return 'K';
    case PortKind::kPolymorphic:
      return 'P';
  }
  return '?';
}

/// "in[2]C reset[2]D" — each port with its width and resolved kind.
std::string ports(const std::vector<PortSpec>& specs, std::span<const int> widths,
                  std::span<const PortKind> kinds) {
  if (specs.empty()) return "-";
  std::string out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += specs[i].name + "[" + std::to_string(widths[i]) + "]" + kind_letter(kinds[i]);
  }
  return out;
}

using Json = nlohmann::ordered_json;

/// An evaluated parameter as JSON: a number, a list, a list of rows, a
/// text, the structure itself; null when an optional one is unset.
Json param_json(const ResolvedParam& p) {
  const std::span<const double> values = p.values();
  switch (p.kind()) {
    case ParamKind::kScalar:
      return values.empty() ? Json(nullptr) : Json(values[0]);
    case ParamKind::kVector:
      return std::vector<double>(values.begin(), values.end());
    case ParamKind::kMatrix: {
      Json rows = Json::array();
      for (std::size_t r = 0; r < p.rows() && p.cols() > 0; ++r) {
        const auto row = values.subspan(r * p.cols(), p.cols());
        rows.push_back(std::vector<double>(row.begin(), row.end()));
      }
      return rows;
    }
    case ParamKind::kString:
    case ParamKind::kFile:
      return p.text();
    case ParamKind::kStructure:
      return p.json() ? *p.json() : Json(nullptr);
  }
  return nullptr;
}

Json ports_json(const std::vector<PortSpec>& specs, std::span<const int> widths,
                std::span<const PortKind> kinds) {
  Json out = Json::array();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    out.push_back({{"name", specs[i].name}, {"width", widths[i]}, {"kind", to_string(kinds[i])}});
  }
  return out;
}

/// The resolved model as JSON, actors in evaluation order.
/// The Jacobian's structure as the implicit methods use it (docs/semantics.md, "Jacobians").
Director::JacobianSummary jacobian_of(const RunSetup& setup) {
  const Director director(setup.flat, setup.options, "validate");
  return director.jacobian_summary();
}

Json jacobian_json(const RunSetup& setup) {
  const Director::JacobianSummary j = jacobian_of(setup);
  return {{"states", j.states},
          {"nonzeros", j.nonzeros},
          {"lower_bandwidth", j.lower_bandwidth},
          {"upper_bandwidth", j.upper_bandwidth},
          {"column_groups", j.column_groups},
          {"known_rows", j.known_rows},
          {"linear_solver", j.linear_solver},
          {"linear_solver_reason", j.reason}};
}

/// The actors of each algebraic loop and its tears, by path.
struct LoopNames {
  std::vector<std::string> actors;  ///< in the order of one iterate
  std::vector<std::string> tears;
};
LoopNames loop_names(const FlatModel& flat, const AlgebraicLoop& loop) {
  LoopNames names;
  for (const FlatIndex a : loop.order) names.actors.push_back(flat[a].path);
  for (const FlatIndex a : loop.tear_actors()) names.tears.push_back(flat[a].path);
  return names;
}

Json loops_json(const FlatModel& flat) {
  Json loops = Json::array();
  for (const AlgebraicLoop& loop : flat.algebraic_loops) {
    const LoopNames names = loop_names(flat, loop);
    loops.push_back({{"cycle", loop.cycle}, {"actors", names.actors}, {"tears", names.tears}});
  }
  return loops;
}

/// "algebraic loop: a -> b -> a (actors b, a; tears a): solved at every evaluation", one line per loop.
void print_loops(const FlatModel& flat, std::ostream& out) {
  const auto joined = [](const std::vector<std::string>& list) {
    std::string text;
    for (const std::string& name : list) text += (text.empty() ? "" : ", ") + name;
    return text;
  };
  for (const AlgebraicLoop& loop : flat.algebraic_loops) {
    const LoopNames names = loop_names(flat, loop);
    out << "algebraic loop: " << loop.cycle << " (actors " << joined(names.actors) << "; "
        << (names.tears.size() == 1 ? "tear " : "tears ") << joined(names.tears)
        << "): solved by Newton's method at every evaluation\n";
  }
}

/// "u (Input u.out[2])" for each of `ports`, or "(none)".
std::string interface_text(const std::vector<InterfacePort>& ports, bool inputs) {
  std::string text;
  for (const InterfacePort& p : ports) {
    if (!text.empty()) text += ", ";
    text += p.name;
    if (!inputs) text += concat({" <- ", p.port.name});
    if (p.port.width != 1) text += concat({"[", std::to_string(p.port.width), "]"});
    if (p.port.discrete) text += " (discrete)";
  }
  return text.empty() ? std::string("(none)") : text;
}

/// "interface: inputs u; outputs y <- x.out; tunable k", when the model declares any.
void print_interface(const Model& model, const RunSetup& setup, std::ostream& out) {
  const ModelInterface& declared = model.interface();
  if (setup.inputs.empty() && setup.outputs.empty() && declared.tunable.empty() && declared.units.empty())
    return;
  std::string tunable;
  for (const std::string& name : model.interface().tunable)
    tunable += concat({tunable.empty() ? "" : ", ", name});
  out << "interface: inputs " << interface_text(setup.inputs, true) << "; outputs "
      << interface_text(setup.outputs, false) << "; tunable " << (tunable.empty() ? "(none)" : tunable)
      << "\n";
  if (declared.units.empty()) return;
  std::string units;
  for (const auto& [name, unit] : declared.units)
    units += concat({units.empty() ? "" : ", ", name, " [", unit, "]"});
  out << "units: " << units << "\n";
}

Json interface_json(const Model& model, const RunSetup& setup) {
  const auto ports = [](const std::vector<InterfacePort>& list) {
    Json out = Json::array();
    for (const InterfacePort& p : list) {
      out.push_back({{"name", p.name},
                     {"port", p.port.name},
                     {"width", p.port.width},
                     {"kind", p.port.discrete ? "discrete" : "continuous"}});
    }
    return out;
  };
  return {{"inputs", ports(setup.inputs)},
          {"outputs", ports(setup.outputs)},
          {"tunable", model.interface().tunable},
          {"units", model.interface().units}};
}

Json model_json(const Model& model, const std::string& path, const RunSetup& setup,
                const std::vector<std::uint32_t>& order) {
  const FlatModel& flat = setup.flat;
  Json parameters = Json::object();
  for (const auto& [name, raw] : model.parameters().definitions()) {
    parameters[name] = param_json(model.parameters().value(name));
  }
  Json actors = Json::array();
  Json states = Json::array();
  std::size_t offset = 0;
  for (const std::uint32_t index : order) {
    const FlatActor& a = flat.actors[index];
    Json params = Json::object();
    for (const ParamSlot& slot : a.actor->parameters()) params[slot.name.str()] = param_json(slot.resolved);
    actors.push_back({{"path", a.path},
                      {"type", a.actor->type()},
                      {"depth", a.depth.value()},
                      {"time_mode", to_string(a.mode)},
                      {"inputs", ports_json(a.actor->inputs(), a.input_widths, a.input_kinds)},
                      {"outputs", ports_json(a.actor->outputs(), a.output_widths, a.output_kinds)},
                      {"parameters", params}});
    const std::size_t n = a.actor->state_size();
    for (std::size_t i = 0; i < n; ++i) {
      states.push_back({{"index", offset + i}, {"actor", a.path}, {"element", i}});
    }
    offset += n;
  }
  const auto names = [&flat](const std::vector<FlatIndex>& schedule) {
    Json list = Json::array();
    for (const FlatIndex i : schedule) list.push_back(flat[i].path);
    return list;
  };
  return {{"model", model.name()},
          {"file", path},
          {"valid", true},
          {"stop_time", setup.options.stop_time},
          {"solver", to_string(setup.options.solver)},
          {"parameters", parameters},
          {"actors", actors},
          {"continuous_schedule", names(flat.continuous_schedule)},
          {"discrete_schedule", names(flat.discrete_schedule)},
          {"algebraic_loops", loops_json(flat)},
          {"interface", interface_json(model, setup)},
          {"states", states},
          {"jacobian", jacobian_json(setup)}};
}

}  // namespace

void validate_command(const std::string& path, const ParameterOverrides& overrides,
                      std::optional<double> stop_time, std::ostream& out, bool json) {
  Model model = load_model_file(path, command_actors(), overrides, command_model_path());
  const RunSetup setup = set_up_run(model, stop_time);  // everything `run` checks before it runs
  const FlatModel& flat = setup.flat;
  const RunOptions& run = setup.options;

  // Evaluation order: every actor by its depth (the topological order).
  std::vector<std::uint32_t> order(flat.actors.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[flat.actors[i].depth.index()] = i;
  if (json) {
    out << model_json(model, path, setup, order).dump(2) << "\n";
    return;
  }
  std::size_t path_width = 5;
  std::size_t type_width = 4;
  for (const auto& a : flat.actors) {
    path_width = std::max(path_width, a.path.size());
    type_width = std::max(type_width, a.actor->type().size());
  }

  out << "model '" << model.name() << "' (" << path << "): valid, " << flat.actors.size()
      << " actors; stop_time " << format_double(run.stop_time) << " s, solver " << to_string(run.solver)
      << "\n";
  out << "ports: name[width] and C continuous, D discrete, K constant\n";
  out << std::left << std::setw(6) << "order" << std::setw(static_cast<int>(path_width) + 2) << "actor"
      << std::setw(static_cast<int>(type_width) + 2) << "type" << std::setw(12) << "time_mode"
      << "inputs -> outputs\n";
  for (const std::uint32_t index : order) {
    const FlatActor& a = flat.actors[index];
    out << std::left << std::setw(6) << a.depth.value() << std::setw(static_cast<int>(path_width) + 2)
        << a.path << std::setw(static_cast<int>(type_width) + 2) << a.actor->type() << std::setw(12)
        << to_string(a.mode) << ports(a.actor->inputs(), a.input_widths, a.input_kinds) << " -> "
        << ports(a.actor->outputs(), a.output_widths, a.output_kinds) << "\n";
  }
  const auto names = [&flat](const std::vector<FlatIndex>& schedule) {
    std::string text;
    for (const FlatIndex i : schedule) text += (text.empty() ? "" : ", ") + flat[i].path;
    return text.empty() ? std::string("(none)") : text;
  };
  out << "continuous schedule: " << names(flat.continuous_schedule) << "\n";
  print_loops(flat, out);
  print_interface(model, setup, out);

  std::string states;  // the order of the state vector (per-state atol follows it)
  std::size_t count = 0;
  for (const std::uint32_t index : order) {
    const FlatActor& a = flat.actors[index];
    const std::size_t n = a.actor->state_size();
    if (n == 0) continue;
    if (!states.empty()) states += ", ";
    states += a.path;
    if (n > 1) {
      states += '[';
      states += std::to_string(n);
      states += ']';
    }
    count += n;
  }
  out << "continuous states (" << count << "): " << (states.empty() ? "(none)" : states) << "\n";
  if (count > 0) {
    const Director::JacobianSummary j = jacobian_of(setup);
    out << "jacobian: " << j.nonzeros << " nonzeros, half-bandwidths " << j.lower_bandwidth << "/"
        << j.upper_bandwidth << ", " << j.column_groups << " column groups, " << j.known_rows << " of "
        << j.states << " rows known; linear solver " << j.linear_solver;
    if (!is_implicit(run.solver)) out << " (if an implicit solver runs it)";
    out << "\n";
  }
  out << "discrete schedule: " << names(flat.discrete_schedule) << "\n";
  // What an actor says of itself (an FMU: the interface chosen, its states and event indicators).
  for (const std::uint32_t index : order) {
    const FlatActor& a = flat.actors[index];
    const std::string summary = a.actor->validation_summary();
    if (!summary.empty()) out << a.actor->type() << " " << a.path << ": " << summary << "\n";
  }
}

}  // namespace ctde::cli
