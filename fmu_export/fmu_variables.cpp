#include "fmu_export/fmu_variables.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "core/fnv1a.hpp"

namespace ctde::fmu {

namespace {

/// "name" for width 1, "name[i]" (from 1) otherwise.
std::string element_name(const std::string& name, std::uint32_t width, std::uint32_t i) {
  return width == 1 ? name : name + "[" + std::to_string(i + 1) + "]";
}

Variable variable(std::string name, std::size_t reference, Causality causality, std::string source) {
  Variable v;
  v.name = std::move(name);
  v.reference = static_cast<std::uint32_t>(reference);
  v.causality = causality;
  v.source = std::move(source);
  return v;
}

/// Element i of an Input actor's `start` (a scalar broadcast).
double start_value(const Actor& input, std::uint32_t i) {
  for (const ParamSlot& slot : input.parameters()) {
    if (slot.name != "start") continue;
    const auto values = slot.resolved.values();
    return values.empty() ? 0.0 : values[std::min<std::size_t>(i, values.size() - 1)];
  }
  return 0.0;
}

/// The unit `units` gives `name`, or empty.
std::string unit_of(const std::map<std::string, std::string>& units, const std::string& name) {
  const auto at = units.find(name);
  return at == units.end() ? std::string() : at->second;
}

void add_ports(std::vector<Variable>& out, const std::vector<InterfacePort>& ports, Causality causality,
               const Model& model, const RunSetup& setup) {
  for (const InterfacePort& p : ports) {
    for (std::uint32_t i = 0; i < p.port.width; ++i) {
      Variable v = variable(element_name(p.name, p.port.width, i), out.size(), causality,
                            causality == Causality::kInput ? p.name : p.port.name);
      v.element = i;
      v.discrete = p.port.discrete;
      v.unit = unit_of(model.interface().units, p.name);
      if (causality == Causality::kInput) {
        v.start = start_value(*setup.flat[p.port.actor].actor, i);
        v.description = "the model's input " + p.name;
      } else {
        v.description = p.port.name;
      }
      out.push_back(std::move(v));
    }
  }
}

}  // namespace

const char* to_string(Causality causality) {
  switch (causality) {
    case Causality::kIndependent:
      return "independent";
    case Causality::kInput:
      return "input";
    case Causality::kOutput:
      return "output";
    case Causality::kParameter:
      return "parameter";
    case Causality::kLocal:
      return "local";
  }
  return "local";
}

bool is_scalar(const ResolvedParam& value) {
  return !value.is_unset() && value.values().size() == 1 && value.rows() == 1 && value.cols() == 1;
}

std::vector<Variable> fmu_variables(const Model& model, const RunSetup& setup) {
  std::vector<Variable> out;
  out.push_back(variable("time", 0, Causality::kIndependent, ""));
  out.back().description = "simulated time";
  add_ports(out, setup.inputs, Causality::kInput, model, setup);
  add_ports(out, setup.outputs, Causality::kOutput, model, setup);
  const auto& tunable = model.interface().tunable;
  for (const auto& [name, written] : model.parameters().definitions()) {
    const ResolvedParam& value = model.parameters().value(name);
    if (!is_scalar(value)) continue;
    Variable v = variable(name, out.size(), Causality::kParameter, name);
    v.tunable = std::find(tunable.begin(), tunable.end(), name) != tunable.end();
    v.start = value.scalar();
    v.description = "the model's parameter " + name;
    v.unit = unit_of(model.interface().units, name);
    out.push_back(std::move(v));
  }
  for (const RecordedSignal& s : setup.signals) {
    if (model.record().empty()) break;  // every output: not offered one by one
    for (std::uint32_t i = 0; i < s.width; ++i) {
      Variable v = variable(element_name(s.name, s.width, i), out.size(), Causality::kLocal, s.name);
      v.element = i;
      v.discrete = s.discrete;
      v.description = "recorded signal " + s.name;
      out.push_back(std::move(v));
    }
  }
  return out;
}

void add_exchange_variables(std::vector<Variable>& variables, const Director& director) {
  const std::vector<std::string> states = director.state_names();
  const auto first_state = static_cast<std::uint32_t>(variables.size());
  for (std::uint32_t k = 0; k < states.size(); ++k) {
    Variable v = variable("state(" + states[k] + ")", variables.size(), Causality::kLocal, states[k]);
    v.role = Role::kState;
    v.element = k;
    v.description = "continuous state " + std::to_string(k) + ": of actor " + states[k];
    variables.push_back(std::move(v));
  }
  for (std::uint32_t k = 0; k < states.size(); ++k) {
    Variable v = variable("der(state(" + states[k] + "))", variables.size(), Causality::kLocal, states[k]);
    v.role = Role::kDerivative;
    v.element = k;
    v.derivative_of = first_state + k;
    v.description = "the derivative of continuous state " + std::to_string(k);
    variables.push_back(std::move(v));
  }
  const std::vector<std::string> indicators = director.indicator_names();
  for (std::uint32_t k = 0; k < indicators.size(); ++k) {
    Variable v =
        variable("indicator(" + indicators[k] + ")", variables.size(), Causality::kLocal, indicators[k]);
    v.role = Role::kIndicator;
    v.element = k;
    v.description =
        "event indicator " + std::to_string(k) + ": a guard of " + indicators[k] + " less its level";
    variables.push_back(std::move(v));
  }
}

std::vector<std::vector<std::uint32_t>> output_dependencies(const RunSetup& setup,
                                                            const std::vector<Variable>& variables) {
  const FlatModel& flat = setup.flat;
  std::vector<std::vector<std::uint32_t>> out(variables.size());
  for (const InterfacePort& input : setup.inputs) {
    // The output ports the input reaches through feedthrough.
    std::set<std::pair<std::uint32_t, std::uint32_t>> reached;  // (actor, output)
    std::vector<PortRef> work{PortRef{input.port.actor, input.port.port}};
    reached.insert({static_cast<std::uint32_t>(input.port.actor.index()), input.port.port});
    while (!work.empty()) {
      const PortRef from = work.back();
      work.pop_back();
      for (const PortRef& to : flat[from.actor].receivers[from.port]) {
        const Actor& actor = *flat[to.actor].actor;
        for (std::uint32_t o = 0; o < actor.outputs().size(); ++o) {
          if (!actor.feeds_through(to.port, o)) continue;
          if (reached.insert({static_cast<std::uint32_t>(to.actor.index()), o}).second)
            work.push_back({to.actor, o});
        }
      }
    }
    std::vector<std::uint32_t> input_refs;
    for (const Variable& v : variables) {
      if (v.causality == Causality::kInput && v.source == input.name) input_refs.push_back(v.reference);
    }
    for (const Variable& v : variables) {
      if (v.causality != Causality::kOutput) continue;
      const auto output = std::find_if(setup.outputs.begin(), setup.outputs.end(),
                                       [&](const InterfacePort& p) { return p.port.name == v.source; });
      if (output == setup.outputs.end()) continue;
      if (reached.count({static_cast<std::uint32_t>(output->port.actor.index()), output->port.port}) != 0)
        out[v.reference].insert(out[v.reference].end(), input_refs.begin(), input_refs.end());
    }
  }
  for (auto& list : out) std::sort(list.begin(), list.end());
  return out;
}

std::vector<std::string> unexported_parameters(const Model& model) {
  std::vector<std::string> names;
  for (const auto& [name, written] : model.parameters().definitions()) {
    if (!is_scalar(model.parameters().value(name))) names.push_back(name);
  }
  return names;
}

std::string instantiation_token(std::string_view model_text) {
  Fnv1a first;
  first.text(model_text);
  Fnv1a second;
  second.text("ctde FMU");
  second.text(model_text);
  char text[40];
  const std::uint64_t a = first.get();
  const std::uint64_t b = second.get();
  std::snprintf(text, sizeof text, "{%08x-%04x-%04x-%04x-%012llx}", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffffU), static_cast<unsigned>(a & 0xffffU),
                static_cast<unsigned>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return text;
}

bool is_fmi_name(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace ctde::fmu
