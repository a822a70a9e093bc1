#include "fmu_export/model_description_writer.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "core/format.hpp"

namespace ctde::fmu {

namespace {

/// `text` as an XML attribute value (between double quotes).
std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "&#10;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* variability(const Variable& v) {
  if (v.causality == Causality::kParameter) return v.tunable ? "tunable" : "fixed";
  return v.discrete ? "discrete" : "continuous";
}

/// The attributes every variable has, in both versions.
std::string common_attributes(const Variable& v) {
  std::string out = "name=\"" + escaped(v.name) + "\" valueReference=\"" + std::to_string(v.reference) +
                    "\" description=\"" + escaped(v.description) + "\" causality=\"" +
                    to_string(v.causality) + "\" variability=\"" + variability(v) + "\"";
  if (v.causality == Causality::kOutput || v.causality == Causality::kLocal) out += " initial=\"calculated\"";
  return out;
}

/// ` unit="m"` for a variable with a unit, else nothing.
std::string unit_attribute(const Variable& v) {
  return v.unit.empty() ? std::string() : " unit=\"" + escaped(v.unit) + "\"";
}

/// UnitDefinitions: each unit the variables use, once, by name (no base
/// units: ctde does not parse unit strings).
void unit_definitions(std::ostream& out, const FmuDescription& d) {
  std::set<std::string> units;
  for (const Variable& v : d.variables) {
    if (!v.unit.empty()) units.insert(v.unit);
  }
  if (units.empty()) return;
  out << "  <UnitDefinitions>\n";
  for (const std::string& unit : units) out << "    <Unit name=\"" << escaped(unit) << "\"/>\n";
  out << "  </UnitDefinitions>\n";
}

/// Outputs, states and their derivatives: computed in Initialization Mode.
bool initial_unknown(const Variable& v) {
  return v.causality == Causality::kOutput || v.role == Role::kState || v.role == Role::kDerivative;
}

bool has_start(const Variable& v) {
  return v.causality == Causality::kInput || v.causality == Causality::kParameter;
}

std::string list(const std::vector<std::uint32_t>& values, std::uint32_t plus) {
  std::string out;
  for (const std::uint32_t v : values) {
    if (!out.empty()) out += ' ';
    out += std::to_string(v + plus);
  }
  return out;
}

void fmi3_variables(std::ostream& out, const FmuDescription& d) {
  out << "  <ModelVariables>\n";
  for (const Variable& v : d.variables) {
    out << "    <Float64 " << common_attributes(v) << unit_attribute(v);
    if (has_start(v)) out << " start=\"" << format_double(v.start) << "\"";
    if (v.role == Role::kDerivative) out << " derivative=\"" << v.derivative_of << "\"";
    out << "/>\n";
  }
  out << "  </ModelVariables>\n  <ModelStructure>\n";
  for (const Variable& v : d.variables) {
    if (v.causality != Causality::kOutput) continue;
    out << "    <Output valueReference=\"" << v.reference << "\" dependencies=\""
        << list(d.dependencies[v.reference], 0) << "\"/>\n";
  }
  for (const Variable& v : d.variables) {
    if (v.role == Role::kDerivative)
      out << "    <ContinuousStateDerivative valueReference=\"" << v.reference << "\"/>\n";
  }
  for (const Variable& v : d.variables) {
    if (initial_unknown(v)) out << "    <InitialUnknown valueReference=\"" << v.reference << "\"/>\n";
  }
  for (const Variable& v : d.variables) {
    if (v.role == Role::kIndicator) out << "    <EventIndicator valueReference=\"" << v.reference << "\"/>\n";
  }
  out << "  </ModelStructure>\n";
}

void fmi2_variables(std::ostream& out, const FmuDescription& d) {
  // An index of FMI 2 is the 1-based position in ModelVariables: the value reference + 1.
  out << "  <ModelVariables>\n";
  for (const Variable& v : d.variables) {
    out << "    <ScalarVariable " << common_attributes(v) << ">\n      <Real" << unit_attribute(v);
    if (has_start(v)) out << " start=\"" << format_double(v.start) << "\"";
    if (v.role == Role::kDerivative) out << " derivative=\"" << v.derivative_of + 1 << "\"";
    out << "/>\n    </ScalarVariable>\n";
  }
  out << "  </ModelVariables>\n  <ModelStructure>\n";
  // Each list only when it has an element (the schema wants one at least).
  const auto unknowns = [&](const char* element, auto&& keep, bool dependencies) {
    if (std::none_of(d.variables.begin(), d.variables.end(), keep)) return;
    out << "    <" << element << ">\n";
    for (const Variable& v : d.variables) {
      if (!keep(v)) continue;
      out << "      <Unknown index=\"" << v.reference + 1 << "\"";
      if (dependencies) out << " dependencies=\"" << list(d.dependencies[v.reference], 1) << "\"";
      out << "/>\n";
    }
    out << "    </" << element << ">\n";
  };
  unknowns(
      "Outputs", [](const Variable& v) { return v.causality == Causality::kOutput; }, true);
  unknowns(
      "Derivatives", [](const Variable& v) { return v.role == Role::kDerivative; }, false);
  unknowns("InitialUnknowns", initial_unknown, false);
  out << "  </ModelStructure>\n";
}

void log_categories(std::ostream& out) {
  out << "  <LogCategories>\n"
         "    <Category name=\"logStatusError\" description=\"a call that failed: why\"/>\n"
         "    <Category name=\"logStatusWarning\" description=\"a call that succeeded with a warning\"/>\n"
         "    <Category name=\"logEvents\" description=\"the run's own news (a Stop), with debug logging "
         "on\"/>\n"
         "  </LogCategories>\n";
}

void co_simulation(std::ostream& out, const FmuDescription& d, int fmi) {
  out << "  <CoSimulation modelIdentifier=\"" << d.model_identifier
      << "\" canHandleVariableCommunicationStepSize=\"true\" canBeInstantiatedOnlyOncePerProcess=\"false\"";
  if (fmi == 3) {
    out << " canGetAndSetFMUState=\"true\" canSerializeFMUState=\"true\" "
           "providesDirectionalDerivatives=\"false\""
           " hasEventMode=\"false\" mightReturnEarlyFromDoStep=\"true\""
           " canReturnEarlyAfterIntermediateUpdate=\"false\"/>\n";
  } else {
    out << " needsExecutionTool=\"false\" canNotUseMemoryManagementFunctions=\"true\" "
           "canGetAndSetFMUstate=\"true\""
           " canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"false\" "
           "canInterpolateInputs=\"false\""
           " maxOutputDerivativeOrder=\"0\"/>\n";
  }
}

/// The <ModelExchange> element: ctde's events need CompletedIntegratorStep
/// (guards take their sides at each step's end); no FMU state (its run
/// stands at its last event, not where the importer integrated).
void model_exchange(std::ostream& out, const FmuDescription& d, int fmi) {
  out << "  <ModelExchange modelIdentifier=\"" << d.model_identifier << "\"";
  if (fmi == 3) {
    out << " needsCompletedIntegratorStep=\"true\" providesEvaluateDiscreteStates=\"false\""
           " canBeInstantiatedOnlyOncePerProcess=\"false\" canGetAndSetFMUState=\"false\""
           " canSerializeFMUState=\"false\" providesDirectionalDerivatives=\"false\"/>\n";
  } else {
    out << " needsExecutionTool=\"false\" completedIntegratorStepNotNeeded=\"false\""
           " canBeInstantiatedOnlyOncePerProcess=\"false\" canNotUseMemoryManagementFunctions=\"true\""
           " canGetAndSetFMUstate=\"false\" canSerializeFMUstate=\"false\""
           " providesDirectionalDerivative=\"false\"/>\n";
  }
}

void default_experiment(std::ostream& out, const FmuDescription& d) {
  out << "  <DefaultExperiment startTime=\"" << format_double(d.start_time) << "\" stopTime=\""
      << format_double(d.stop_time) << "\" tolerance=\"" << format_double(d.tolerance) << "\"";
  if (d.step_size) out << " stepSize=\"" << format_double(*d.step_size) << "\"";
  out << "/>\n";
}

}  // namespace

std::string model_description_xml(const FmuDescription& d, int fmi) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<fmiModelDescription fmiVersion=\"" << (fmi == 3 ? "3.0" : "2.0") << "\" modelName=\""
      << escaped(d.model_name) << "\" " << (fmi == 3 ? "instantiationToken" : "guid") << "=\"" << d.token
      << "\" description=\"" << escaped(d.description) << "\" generationTool=\"" << escaped(d.generation_tool)
      << "\" variableNamingConvention=\"flat\"";
  if (fmi == 2) {
    out << " numberOfEventIndicators=\""
        << std::count_if(d.variables.begin(), d.variables.end(),
                         [](const Variable& v) { return v.role == Role::kIndicator; })
        << "\"";
  }
  out << ">\n";
  if (d.model_exchange) model_exchange(out, d, fmi);
  if (d.co_simulation) co_simulation(out, d, fmi);
  unit_definitions(out, d);
  log_categories(out);
  default_experiment(out, d);
  if (fmi == 3) {
    fmi3_variables(out, d);
  } else {
    fmi2_variables(out, d);
  }
  out << "</fmiModelDescription>\n";
  return out.str();
}

std::string model_identifier(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())) != 0) out.insert(out.begin(), '_');
  return out;
}

}  // namespace ctde::fmu
