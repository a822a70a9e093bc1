#include "actors/fmi/fmu_info.hpp"

#include <algorithm>
#include <vector>

#include "actors/fmi/fmi_rules.hpp"
#include "actors/fmi/fmu.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "actors/fmi/model_description.hpp"
#include "core/format.hpp"

namespace ctde {

namespace {

const char* to_string(Initial initial) {
  switch (initial) {
    case Initial::kExact:
      return "exact";
    case Initial::kApprox:
      return "approx";
    case Initial::kCalculated:
      return "calculated";
    case Initial::kNone:
      break;
  }
  return "";
}

nlohmann::ordered_json interface_json(const std::optional<FmuInterface>& i, bool me) {
  if (!i) return nullptr;
  nlohmann::ordered_json out;
  out["model_identifier"] = i->model_identifier;
  out["instantiate_once_per_process"] = i->instantiate_once_per_process;
  if (me) {
    out["completed_integrator_step_not_needed"] = i->completed_step_not_needed;
    // The Jacobian's values at each point (docs/fmi.md, "Jacobians"), else finite differences.
    out["directional_derivatives"] = i->provides_directional_derivatives;
  } else {
    out["variable_communication_step"] = i->variable_step;
  }
  return out;
}

/// What ctde makes of variable `v` (index `index`) of `md`.
nlohmann::ordered_json mapping(const ModelDescription& md, std::size_t index) {
  const FmuVariable& v = md.variables[index];
  nlohmann::ordered_json out;
  const bool input = v.causality == Causality::kInput;
  const bool port = input || v.causality == Causality::kOutput;
  out["port"] = nullptr;
  if (v.type == VariableType::kClock || !v.clocks.empty()) {
    if (port) out["port"] = fmu_port_name(v.name);
    out["kind"] = {{"model_exchange", "discrete"}, {"co_simulation", nullptr}};
    out["note"] = "an FMI 3 clock or clocked variable: Model Exchange only (docs/fmi.md, \"Clocks\")";
  } else if (port && is_port_type(v)) {
    out["port"] = fmu_port_name(v.name);
    const auto kind = [&](bool me) -> nlohmann::ordered_json {
      if ((me && !md.model_exchange) || (!me && !md.co_simulation)) return nullptr;
      if (!input) return me ? "continuous" : "discrete";
      return std::string(ctde::to_string(fmu_input_kind(v, me)));
    };
    out["kind"] = {{"model_exchange", kind(true)}, {"co_simulation", kind(false)}};
  } else if (port) {
    out["note"] = "no port: ctde's ports do not carry type " + v.type_name;
  }
  const bool text = v.type == VariableType::kString || v.type_name == "Binary";
  out["start"] = (is_port_type(v) || text) && may_set(v, FmiMode::kInstantiated);
  const auto state = std::find(md.states.begin(), md.states.end(), index);
  const auto derivative = std::find(md.derivatives.begin(), md.derivatives.end(), index);
  if (state != md.states.end()) {
    std::size_t first = 0;  // its first element among the FMU's states
    for (auto s = md.states.begin(); s != state; ++s) first += md.variables[*s].size;
    out["role"] = v.size == 1 ? "continuous state " + std::to_string(first)
                              : "continuous states " + std::to_string(first) + ".." +
                                    std::to_string(first + v.size - 1);
  } else if (derivative != md.derivatives.end()) {
    out["role"] =
        "derivative of '" +
        md.variables[md.states[static_cast<std::size_t>(derivative - md.derivatives.begin())]].name + "'";
  } else if (v.causality == Causality::kIndependent) {
    out["role"] = "time";
  }
  return out;
}

/// A start value as text: a number, "[1, 0, 1]" for an array, "\"none\"" for a string, "-" when absent.
std::string start_text(const nlohmann::ordered_json& start) {
  if (start.is_null()) return "-";
  if (start.is_string()) return "\"" + start.get<std::string>() + "\"";
  if (start.is_array()) {
    std::string text = "[";
    for (const auto& element : start)
      text += (text.size() > 1 ? ", " : "") + format_double(element.get<double>());
    return text + "]";
  }
  return format_double(start.get<double>());
}

}  // namespace

nlohmann::ordered_json fmu_info(const std::filesystem::path& fmu) {
  const FmuArchive archive(fmu);
  const ModelDescription md =
      parse_model_description(archive.text("modelDescription.xml"), archive.describe());
  nlohmann::ordered_json out;
  out["file"] = fmu.string();
  out["fmi_version"] = md.fmi_version;
  out["model_name"] = md.model_name;
  out["guid"] = md.guid;
  out["interfaces"] = {{"model_exchange", interface_json(md.model_exchange, true)},
                       {"co_simulation", interface_json(md.co_simulation, false)}};
  nlohmann::ordered_json states = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < md.states.size(); ++i) {
    states.push_back(
        {{"state", md.variables[md.states[i]].name}, {"derivative", md.variables[md.derivatives[i]].name}});
  }
  out["states"] = states;
  out["event_indicators"] = md.event_indicators;
  nlohmann::ordered_json variables = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < md.variables.size(); ++i) {
    const FmuVariable& v = md.variables[i];
    nlohmann::ordered_json entry;
    entry["name"] = v.name;
    entry["value_reference"] = v.value_reference;
    entry["causality"] = to_string(v.causality);
    entry["variability"] = to_string(v.variability);
    entry["initial"] = v.initial == Initial::kNone ? nlohmann::ordered_json(nullptr) : to_string(v.initial);
    entry["type"] = v.type_name;
    entry["size"] = v.size;  // elements (FMI 3 arrays); 0: set by a structural parameter
    if (v.start_text) {
      entry["start"] = *v.start_text;
    } else if (v.starts.size() > 1) {
      entry["start"] = v.starts;
    } else {
      entry["start"] = v.start ? nlohmann::ordered_json(*v.start) : nlohmann::ordered_json(nullptr);
    }
    entry["unit"] = v.unit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.unit);
    entry["ctde"] = mapping(md, i);
    variables.push_back(entry);
  }
  out["variables"] = variables;
  return out;
}

std::string fmu_info_text(const nlohmann::ordered_json& info) {
  std::string text = "FMU '" + info["file"].get<std::string>() + "': FMI " +
                     info["fmi_version"].get<std::string>() + ", model '" +
                     info["model_name"].get<std::string>() + "', " +
                     (info["fmi_version"] == "3.0" ? "instantiation token " : "GUID ") +
                     info["guid"].get<std::string>() + "\n";
  text += "interfaces:";
  const char* separator = " ";
  for (const auto& [key, name] :
       {std::pair{"model_exchange", "model-exchange"}, std::pair{"co_simulation", "co-simulation"}}) {
    const auto& i = info["interfaces"][key];
    if (i.is_null()) continue;
    text += std::string(separator) + name + " (" + i["model_identifier"].get<std::string>();
    if (i.value("directional_derivatives", false)) text += ", directional derivatives";
    text += ")";
    separator = ", ";
  }
  text += "\nstates:";
  if (info["states"].empty()) text += " none";
  separator = " ";
  for (const auto& s : info["states"]) {
    text += separator + s["state"].get<std::string>() + " (" + s["derivative"].get<std::string>() + ")";
    separator = ", ";
  }
  text += "\nevent indicators: " + std::to_string(info["event_indicators"].get<std::size_t>()) + "\n";
  // One aligned row per variable.
  std::vector<std::vector<std::string>> rows{
      {"name", "causality", "variability", "type", "start", "unit", "ctde"}};
  for (const auto& v : info["variables"]) {
    const auto& m = v["ctde"];
    std::string ctde;
    if (!m["port"].is_null()) {
      const std::string direction = v["causality"] == "input" ? "input" : "output";
      ctde = direction + " port '" + m["port"].get<std::string>() + "'";
      std::string kinds;
      for (const auto& [key, name] : {std::pair{"model_exchange", "ME"}, std::pair{"co_simulation", "CS"}}) {
        if (m["kind"][key].is_null()) continue;
        kinds += std::string(kinds.empty() ? "" : ", ") + name + " " + m["kind"][key].get<std::string>();
      }
      ctde += " (" + kinds + ")";
    }
    const auto add = [&](const std::string& part) { ctde += (ctde.empty() ? "" : "; ") + part; };
    if (m.contains("role")) add(m["role"].get<std::string>());
    if (m["start"].get<bool>()) add("start value settable");
    if (m.contains("note")) add(m["note"].get<std::string>());
    if (ctde.empty()) ctde = "-";
    rows.push_back({v["name"].get<std::string>(), v["causality"].get<std::string>(),
                    v["variability"].get<std::string>(), v["type"].get<std::string>(), start_text(v["start"]),
                    v["unit"].is_null() ? "-" : v["unit"].get<std::string>(), ctde});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    text += line + "\n";
  }
  return text;
}

}  // namespace ctde
