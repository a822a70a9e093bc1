#include "actors/fmi/model_description.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

const char* to_string(Causality causality) {
  switch (causality) {
    case Causality::kParameter:
      return "parameter";
    case Causality::kCalculatedParameter:
      return "calculatedParameter";
    case Causality::kInput:
      return "input";
    case Causality::kOutput:
      return "output";
    case Causality::kLocal:
      return "local";
    case Causality::kIndependent:
      return "independent";
  }
  return "?";
}

const char* to_string(Variability variability) {
  switch (variability) {
    case Variability::kConstant:
      return "constant";
    case Variability::kFixed:
      return "fixed";
    case Variability::kTunable:
      return "tunable";
    case Variability::kDiscrete:
      return "discrete";
    case Variability::kContinuous:
      return "continuous";
  }
  return "?";
}

bool is_port_type(const FmuVariable& v) {
  static const std::array<const char*, 14> kNames{"Real",    "Integer", "Boolean", "Enumeration", "Float64",
                                                  "Float32", "Int8",    "UInt8",   "Int16",       "UInt16",
                                                  "Int32",   "UInt32",  "Int64",   "UInt64"};
  return v.size > 0 && v.type != VariableType::kClock &&
         std::find(kNames.begin(), kNames.end(), v.type_name) != kNames.end();
}

std::optional<std::size_t> ModelDescription::find(const std::string& name) const {
  for (std::size_t i = 0; i < variables.size(); ++i) {
    if (variables[i].name == name) return i;
  }
  return std::nullopt;
}

namespace {

/// Reports problems in one description: "<what>: modelDescription.xml: message".
class Parser {
 public:
  explicit Parser(std::string what) : what_(std::move(what)) {}

  /// "<name>" of an element.
  static std::string tag(const pugi::xml_node& node) { return concat({"<", node.name(), ">"}); }

  [[noreturn]] void fail(const std::string& message) const {
    throw ModelError(what_ + ": modelDescription.xml: " + message);
  }

  std::string required(const pugi::xml_node& node, const char* attribute) const {
    const pugi::xml_attribute a = node.attribute(attribute);
    if (!a) fail(tag(node) + " has no '" + attribute + "' attribute");
    return a.value();
  }

  std::optional<double> number(const pugi::xml_node& node, const char* attribute) const {
    const pugi::xml_attribute a = node.attribute(attribute);
    if (!a) return std::nullopt;
    return number_text(node, attribute, a.value());
  }

  /// `text`, a word of attribute `attribute`, as a number.
  std::optional<double> number_text(const pugi::xml_node& node, const char* attribute,
                                    const std::string& text) const {
    if (text == "true") return 1.0;
    if (text == "false") return 0.0;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      fail(tag(node) + " attribute '" + attribute + "' is not a number: '" + text + "'");
    }
    return value;
  }

  std::size_t index(const pugi::xml_node& node, const std::string& text, std::size_t count) const {
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > count) {
      fail(tag(node) + " refers to variable index '" + text + "', not in 1.." + std::to_string(count));
    }
    return value - 1;
  }

  static bool flag(const pugi::xml_node& node, const char* attribute) {
    return std::string(node.attribute(attribute).value()) == "true";
  }

  FmuInterface interface(const pugi::xml_node& node) const {
    FmuInterface i;
    i.model_identifier = required(node, "modelIdentifier");
    if (i.model_identifier.empty() || i.model_identifier.find('/') != std::string::npos ||
        i.model_identifier.find("..") != std::string::npos) {
      fail(tag(node) + " has an unusable modelIdentifier '" + i.model_identifier + "'");
    }
    i.instantiate_once_per_process = flag(node, "canBeInstantiatedOnlyOncePerProcess");
    i.variable_step = flag(node, "canHandleVariableCommunicationStepSize");
    i.completed_step_not_needed = flag(node, "completedIntegratorStepNotNeeded");
    // FMI 2.0's spelling; read_interfaces3() reads FMI 3.0's (canGetAndSetFMUState...).
    i.can_get_and_set_fmu_state = flag(node, "canGetAndSetFMUstate");
    i.can_serialize_fmu_state = flag(node, "canSerializeFMUstate");
    i.provides_directional_derivatives = flag(node, "providesDirectionalDerivative");
    return i;
  }

  /// An FMI 2 ScalarVariable: its type is its first child element.
  FmuVariable variable(const pugi::xml_node& node) const {
    FmuVariable v = common(node);
    const pugi::xml_node type = node.first_child();
    static const std::map<std::string, VariableType> kTypes = {{"Real", VariableType::kReal},
                                                               {"Integer", VariableType::kInteger},
                                                               {"Boolean", VariableType::kBoolean},
                                                               {"String", VariableType::kString},
                                                               {"Enumeration", VariableType::kEnumeration}};
    const auto t = kTypes.find(type.name());
    if (t == kTypes.end()) {
      fail("variable '" + v.name + "' has no type element (Real, Integer, Boolean, String, Enumeration)");
    }
    v.type = t->second;
    v.type_name = type.name();
    finish(node, v, v.type == VariableType::kReal);
    if (v.type == VariableType::kString) {
      if (const pugi::xml_attribute a = type.attribute("start")) v.start_text = a.value();
    } else {
      v.start = number(type, "start");
      if (v.start) v.starts = {*v.start};
    }
    if (v.type == VariableType::kReal) {
      v.unit = type.attribute("unit").as_string();
      v.nominal = number(type, "nominal");
      if (const auto d = number(type, "derivative")) v.derivative_of = static_cast<std::size_t>(*d);
    }
    return v;
  }

  /// An FMI 3 variable: the element's name is its type, the attributes are on it.
  FmuVariable variable3(const pugi::xml_node& node) const {
    FmuVariable v = common(node);
    static const std::map<std::string, VariableType> kTypes = {{"Float64", VariableType::kReal},
                                                               {"Int32", VariableType::kInteger},
                                                               {"Boolean", VariableType::kBoolean},
                                                               {"String", VariableType::kString},
                                                               {"Clock", VariableType::kClock}};
    const auto t = kTypes.find(node.name());
    v.type = t == kTypes.end() ? VariableType::kOther : t->second;
    v.type_name = node.name();
    // FMI 3.0: continuous by default for the floating-point types only.
    finish(node, v, v.type_name == "Float64" || v.type_name == "Float32");
    if (const pugi::xml_attribute clocks = node.attribute("clocks")) {
      std::istringstream words(clocks.value());
      for (std::string word; words >> word;) {
        const std::optional<double> vr = number_text(node, "clocks", word);
        if (!vr || *vr < 0 || *vr != std::floor(*vr))
          fail("variable '" + v.name + "' has a bad clocks entry '" + word + "'");
        v.clocks.push_back(static_cast<unsigned int>(*vr));
      }
    }
    if (v.type == VariableType::kClock) {
      v.clock.emplace();
      v.clock->interval_variability = node.attribute("intervalVariability").as_string();
      v.clock->interval = number(node, "intervalDecimal");
      v.clock->shift = number(node, "shiftDecimal");
    }
    // Arrays: <Dimension start="n"/> (fixed) or valueReference (a structural parameter's: size unknown).
    for (const pugi::xml_node dimension : node.children("Dimension")) {
      const std::optional<double> n = number(dimension, "start");
      if (!n) {
        v.size = 0;
        break;
      }
      if (*n < 1 || *n != std::floor(*n) || *n > 1e6) {
        fail("variable '" + v.name + "' has a <Dimension> of size '" + dimension.attribute("start").value() +
             "'");
      }
      v.size *= static_cast<std::size_t>(*n);
    }
    if (v.type == VariableType::kString || v.type_name == "Binary") {
      if (const pugi::xml_attribute a = node.attribute("start")) v.start_text = a.value();
      // FMI 3 may write a String's start as a child element: <Start value="..."/>.
      if (const pugi::xml_node start = node.child("Start"))
        v.start_text = start.attribute("value").as_string();
    } else if (v.type != VariableType::kClock && node.attribute("start")) {
      std::istringstream words(node.attribute("start").value());
      for (std::string word; words >> word;) v.starts.push_back(*number_text(node, "start", word));
      if (v.size > 0 && v.starts.size() != v.size) {
        fail("variable '" + v.name + "' has " + std::to_string(v.starts.size()) + " start values for " +
             std::to_string(v.size) + " elements");
      }
      if (!v.starts.empty()) v.start = v.starts.front();
    }
    if (v.type == VariableType::kReal || v.type_name == "Float32")
      v.unit = node.attribute("unit").as_string();
    if (v.type == VariableType::kReal) {
      v.nominal = number(node, "nominal");
      // The state's value reference + 1 for now (0 stays "none"): parse3 makes it a 1-based index.
      if (const auto d = number(node, "derivative")) v.derivative_of = static_cast<std::size_t>(*d) + 1;
    }
    return v;
  }

 private:
  /// Name, value reference, causality and variability (the same attributes in FMI 2 and 3).
  FmuVariable common(const pugi::xml_node& node) const {
    FmuVariable v;
    v.name = required(node, "name");
    const std::optional<double> vr = number(node, "valueReference");
    if (!vr || *vr < 0) fail("variable '" + v.name + "' has no valid valueReference");
    v.value_reference = static_cast<unsigned int>(*vr);
    static const std::map<std::string, Causality> kCausalities = {
        {"parameter", Causality::kParameter},
        {"structuralParameter", Causality::kParameter},
        {"calculatedParameter", Causality::kCalculatedParameter},
        {"input", Causality::kInput},
        {"output", Causality::kOutput},
        {"local", Causality::kLocal},
        {"independent", Causality::kIndependent}};
    const std::string causality = node.attribute("causality").as_string("local");
    const auto c = kCausalities.find(causality);
    if (c == kCausalities.end())
      fail("variable '" + v.name + "' has an unknown causality '" + causality + "'");
    v.causality = c->second;
    return v;
  }

  /// Variability (its default from the type: continuous only for
  /// `floating`) and initial (its default from causality and variability).
  void finish(const pugi::xml_node& node, FmuVariable& v, bool floating) const {
    static const std::map<std::string, Variability> kVariabilities = {
        {"constant", Variability::kConstant},
        {"fixed", Variability::kFixed},
        {"tunable", Variability::kTunable},
        {"discrete", Variability::kDiscrete},
        {"continuous", Variability::kContinuous}};
    const std::string variability =
        node.attribute("variability").as_string(floating ? "continuous" : "discrete");
    const auto k = kVariabilities.find(variability);
    if (k == kVariabilities.end()) {
      fail("variable '" + v.name + "' has an unknown variability '" + variability + "'");
    }
    v.variability = k->second;
    if (v.variability == Variability::kContinuous && !floating) {
      fail("variable '" + v.name + "' of type " + v.type_name +
           " is continuous: only Real (FMI 3: Float32, Float64) variables can be");
    }
    static const std::map<std::string, Initial> kInitials = {
        {"exact", Initial::kExact}, {"approx", Initial::kApprox}, {"calculated", Initial::kCalculated}};
    if (const pugi::xml_attribute a = node.attribute("initial")) {
      const auto i = kInitials.find(a.value());
      if (i == kInitials.end()) fail("variable '" + v.name + "' has an unknown initial '" + a.value() + "'");
      v.initial = i->second;
    } else if (v.causality == Causality::kInput || v.causality == Causality::kIndependent) {
      v.initial = Initial::kNone;
    } else if (v.causality == Causality::kParameter || v.variability == Variability::kConstant) {
      v.initial = Initial::kExact;
    } else {
      v.initial = Initial::kCalculated;
    }
  }

 private:
  std::string what_;
};

}  // namespace

namespace {

/// Checks that every output variable is listed in the model structure.
void check_outputs_listed(const Parser& parser, const ModelDescription& d) {
  for (std::size_t i = 0; i < d.variables.size(); ++i) {
    if (d.variables[i].causality != Causality::kOutput) continue;
    bool listed = false;
    for (const FmuOutput& o : d.outputs) listed = listed || o.variable == i;
    if (!listed) parser.fail("output '" + d.variables[i].name + "' is missing from <ModelStructure>");
  }
}

/// FMI 3.0: each variable's index by its value reference.
using ByReference = std::map<unsigned int, std::size_t>;

/// FMI 3.0: the Model Exchange and Co-Simulation interfaces of `root`; fails when it has neither.
void read_interfaces3(const Parser& parser, const pugi::xml_node& root, ModelDescription& d) {
  const auto fmu_state = [](const pugi::xml_node& node, FmuInterface& i) {
    i.can_get_and_set_fmu_state = std::string(node.attribute("canGetAndSetFMUState").value()) == "true";
    i.can_serialize_fmu_state = std::string(node.attribute("canSerializeFMUState").value()) == "true";
    i.provides_directional_derivatives =
        std::string(node.attribute("providesDirectionalDerivatives").value()) == "true";
  };
  if (const pugi::xml_node me = root.child("ModelExchange")) {
    d.model_exchange = parser.interface(me);
    d.model_exchange->completed_step_not_needed =
        std::string(me.attribute("needsCompletedIntegratorStep").value()) != "true";
    fmu_state(me, *d.model_exchange);
  }
  if (const pugi::xml_node cs = root.child("CoSimulation")) {
    d.co_simulation = parser.interface(cs);
    fmu_state(cs, *d.co_simulation);
  }
  if (!d.model_exchange && !d.co_simulation) {
    if (root.child("ScheduledExecution")) {
      parser.fail(
          "the FMU offers only Scheduled Execution (<ScheduledExecution>), which ctde does not "
          "support: ctde imports Model Exchange and Co-Simulation");
    }
    parser.fail("neither <ModelExchange> nor <CoSimulation>");
  }
}

/// FMI 3.0: reads the variables of <ModelVariables> into `d`; returns their indices by value reference.
ByReference read_variables3(const Parser& parser, const pugi::xml_node& root, ModelDescription& d) {
  ByReference by_reference;
  for (const pugi::xml_node v : root.child("ModelVariables").children()) {
    d.variables.push_back(parser.variable3(v));
    if (!by_reference.emplace(d.variables.back().value_reference, d.variables.size() - 1).second) {
      parser.fail("two variables have the value reference " +
                  std::to_string(d.variables.back().value_reference));
    }
  }
  return by_reference;
}

/// FMI 3.0: the index of the variable whose value reference is `text`, which `node` refers to.
std::size_t referenced(const Parser& parser, const ByReference& by_reference, const pugi::xml_node& node,
                       const std::string& text) {
  std::size_t vr = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), vr);
  const auto found = by_reference.find(static_cast<unsigned int>(vr));
  if (error != std::errc() || end != text.data() + text.size() || found == by_reference.end()) {
    parser.fail(Parser::tag(node) + " refers to value reference '" + text + "', which no variable has");
  }
  return found->second;
}

/// FMI 3.0: the variables of the `dependencies` attribute of `node`, or nullopt when it has none.
std::optional<std::vector<std::size_t>> dependencies3(const Parser& parser, const ByReference& by_reference,
                                                      const pugi::xml_node& node) {
  std::optional<std::vector<std::size_t>> dependencies;
  if (const pugi::xml_attribute deps = node.attribute("dependencies")) {
    dependencies.emplace();
    std::istringstream words(deps.value());
    for (std::string word; words >> word;)
      dependencies->push_back(referenced(parser, by_reference, node, word));
  }
  return dependencies;
}

/// FMI 3.0: the states and their derivatives from the <ContinuousStateDerivative> elements of `structure`.
void read_derivatives3(const Parser& parser, const ByReference& by_reference, const pugi::xml_node& structure,
                       ModelDescription& d) {
  for (const pugi::xml_node u : structure.children("ContinuousStateDerivative")) {
    const std::size_t derivative = referenced(parser, by_reference, u, parser.required(u, "valueReference"));
    FmuVariable& v = d.variables[derivative];
    if (v.type != VariableType::kReal || v.derivative_of == 0) {
      parser.fail("derivative '" + v.name + "' does not name the state it is the derivative of");
    }
    const std::size_t state = referenced(parser, by_reference, u, std::to_string(v.derivative_of - 1));
    v.derivative_of = state + 1;
    if (v.size == 0 || d.variables[state].size != v.size) {
      parser.fail(
          "state '" + d.variables[state].name + "' and its derivative '" + v.name +
          "' differ in size or have a dimension set by a structural parameter (ctde supports arrays of "
          "fixed size only)");
    }
    d.derivatives.push_back(derivative);
    d.states.push_back(state);
    d.derivative_dependencies.push_back(dependencies3(parser, by_reference, u));
  }
}

/// FMI 3.0: the number of event indicators (array elements count) from the <EventIndicator> elements of
/// `structure`.
std::size_t count_event_indicators3(const Parser& parser, const ByReference& by_reference,
                                    const pugi::xml_node& structure, const ModelDescription& d) {
  std::size_t count = 0;
  for (const pugi::xml_node u : structure.children("EventIndicator")) {
    const FmuVariable& indicator =
        d.variables[referenced(parser, by_reference, u, parser.required(u, "valueReference"))];
    if (indicator.size == 0) {
      parser.fail("event indicator '" + indicator.name +
                  "' has a dimension set by a structural parameter: ctde supports arrays of fixed size only");
    }
    count += indicator.size;
  }
  return count;
}

/// FMI 3.0: the rest of the description after the version.
ModelDescription parse3(const Parser& parser, const pugi::xml_node& root, ModelDescription d) {
  d.model_name = parser.required(root, "modelName");
  d.guid = parser.required(root, "instantiationToken");
  read_interfaces3(parser, root, d);
  const ByReference by_reference = read_variables3(parser, root, d);
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node u : structure.children("Output")) {
    FmuOutput out;
    out.variable = referenced(parser, by_reference, u, parser.required(u, "valueReference"));
    out.dependencies = dependencies3(parser, by_reference, u);
    d.outputs.push_back(std::move(out));
  }
  read_derivatives3(parser, by_reference, structure, d);
  d.event_indicators = count_event_indicators3(parser, by_reference, structure, d);
  check_outputs_listed(parser, d);
  return d;
}

}  // namespace

ModelDescription parse_model_description(const std::string& xml, const std::string& what) {
  const Parser parser(what);
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    parser.fail(std::string("malformed XML at offset ") + std::to_string(parsed.offset) + ": " +
                parsed.description());
  }
  const pugi::xml_node root = document.child("fmiModelDescription");
  if (!root) parser.fail("no <fmiModelDescription> element");
  ModelDescription d;
  d.fmi_version = parser.required(root, "fmiVersion");
  if (d.fmi_version == "3.0") return parse3(parser, root, std::move(d));
  if (d.fmi_version != "2.0") {
    parser.fail("unsupported FMI version '" + d.fmi_version + "' (ctde imports FMI 2.0 and 3.0)");
  }
  d.model_name = parser.required(root, "modelName");
  d.guid = parser.required(root, "guid");
  if (const auto n = parser.number(root, "numberOfEventIndicators")) {
    if (*n < 0) parser.fail("numberOfEventIndicators is negative");
    d.event_indicators = static_cast<std::size_t>(*n);
  }
  if (const pugi::xml_node me = root.child("ModelExchange")) d.model_exchange = parser.interface(me);
  if (const pugi::xml_node cs = root.child("CoSimulation")) d.co_simulation = parser.interface(cs);
  if (!d.model_exchange && !d.co_simulation) parser.fail("neither <ModelExchange> nor <CoSimulation>");

  for (const pugi::xml_node v : root.child("ModelVariables").children("ScalarVariable")) {
    d.variables.push_back(parser.variable(v));
  }
  const std::size_t count = d.variables.size();
  const pugi::xml_node structure = root.child("ModelStructure");
  for (const pugi::xml_node u : structure.child("Outputs").children("Unknown")) {
    FmuOutput out;
    out.variable = parser.index(u, parser.required(u, "index"), count);
    if (const pugi::xml_attribute deps = u.attribute("dependencies")) {
      out.dependencies.emplace();
      std::istringstream words(deps.value());
      for (std::string word; words >> word;) out.dependencies->push_back(parser.index(u, word, count));
    }
    d.outputs.push_back(std::move(out));
  }
  for (const pugi::xml_node u : structure.child("Derivatives").children("Unknown")) {
    const std::size_t derivative = parser.index(u, parser.required(u, "index"), count);
    const FmuVariable& v = d.variables[derivative];
    if (v.type != VariableType::kReal || v.derivative_of == 0 || v.derivative_of > count) {
      parser.fail("derivative '" + v.name + "' does not name the state it is the derivative of");
    }
    d.derivatives.push_back(derivative);
    d.states.push_back(v.derivative_of - 1);
    std::optional<std::vector<std::size_t>> dependencies;
    if (const pugi::xml_attribute deps = u.attribute("dependencies")) {
      dependencies.emplace();
      std::istringstream words(deps.value());
      for (std::string word; words >> word;) dependencies->push_back(parser.index(u, word, count));
    }
    d.derivative_dependencies.push_back(std::move(dependencies));
  }
  check_outputs_listed(parser, d);
  return d;
}

}  // namespace ctde
