#pragma once
/// What ctde reads from an FMU's modelDescription.xml (FMI 2.0, spec 2.2):
/// the version, GUID, interfaces and their capability flags, the scalar
/// variables, and the model structure (outputs with their dependencies,
/// the derivatives that define the continuous states).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ctde {

/// A ScalarVariable's causality (spec 2.2.7).
enum class Causality { kParameter, kCalculatedParameter, kInput, kOutput, kLocal, kIndependent };
/// A ScalarVariable's variability. Without the attribute: continuous for
/// Real (FMI 3: Float32, Float64), discrete for every other type.
enum class Variability { kConstant, kFixed, kTunable, kDiscrete, kContinuous };
/// A variable's `initial` attribute (spec 2.2.7), or its default from the
/// causality and variability: exact for parameters and constants,
/// calculated for other outputs, locals and calculated parameters; kNone
/// for inputs and the independent variable (the attribute is not allowed).
enum class Initial { kExact, kApprox, kCalculated, kNone };
/// The type element of a ScalarVariable.
/// kReal is FMI 3's Float64, kInteger its Int32, kClock its Clock; kOther: a
/// type ctde does not exchange (FMI 3's Float32, Int8..UInt64, Binary...).
enum class VariableType { kReal, kInteger, kBoolean, kString, kEnumeration, kClock, kOther };

/// The attributes of an FMI 3 <Clock> variable. Copyable value type.
struct FmuClockAttributes {
  std::string interval_variability;  ///< "triggered", "constant", "fixed", "tunable", "changing", "countdown"
  std::optional<double> interval;    ///< intervalDecimal (s), when given
  std::optional<double> shift;       ///< shiftDecimal (s), when given
};

/// One ScalarVariable. Copyable value type.
struct FmuVariable {
  std::string name;
  unsigned int value_reference = 0;
  Causality causality = Causality::kLocal;
  Variability variability = Variability::kContinuous;
  Initial initial = Initial::kCalculated;
  VariableType type = VariableType::kReal;
  std::string type_name;        ///< the type element's name ("Real", "Float32", "UInt8"...), for messages
  std::optional<double> start;  ///< numeric start value, when given (an array's first element)
  /// FMI 3 arrays: the number of elements (the product of the <Dimension>s'
  /// fixed `start`s); 1 for scalars; 0 when a dimension is a structural
  /// parameter's (its size is not known before a run: ctde refuses it).
  std::size_t size = 1;
  std::vector<double> starts;             ///< every element's start value, when given
  std::optional<std::string> start_text;  ///< String (and FMI 3 Binary, as hex) start value
  std::size_t derivative_of = 0;  ///< Real: 1-based index of the state it is the derivative of; 0: none
  std::optional<double> nominal;  ///< Real: nominal value, when given
  std::string unit;               ///< Real: its unit, when given (for `ctde fmu info`)
  /// FMI 3: the value references in its `clocks` attribute (empty: not a clocked variable).
  std::vector<unsigned int> clocks;
  std::optional<FmuClockAttributes> clock;  ///< FMI 3: a <Clock>'s attributes
};

/// One interface element (<ModelExchange> or <CoSimulation>). Copyable.
struct FmuInterface {
  std::string model_identifier;
  bool instantiate_once_per_process = false;  ///< canBeInstantiatedOnlyOncePerProcess
  bool variable_step = false;                 ///< CS: canHandleVariableCommunicationStepSize
  bool completed_step_not_needed = false;     ///< ME: completedIntegratorStepNotNeeded
  bool can_get_and_set_fmu_state = false;     ///< canGetAndSetFMUstate (FMI 3: canGetAndSetFMUState)
  bool can_serialize_fmu_state = false;       ///< canSerializeFMUstate (FMI 3: canSerializeFMUState)
  /// providesDirectionalDerivative (FMI 3: providesDirectionalDerivatives)
  bool provides_directional_derivatives = false;
};

/// An output and the variables it depends on directly (ModelStructure). Copyable.
struct FmuOutput {
  std::size_t variable = 0;                              ///< 0-based index into variables
  std::optional<std::vector<std::size_t>> dependencies;  ///< 0-based; empty optional: depends on all
};

/// The parsed description. Copyable value type.
struct ModelDescription {
  std::string fmi_version;
  std::string model_name;
  std::string guid;
  std::size_t event_indicators = 0;
  std::optional<FmuInterface> model_exchange;
  std::optional<FmuInterface> co_simulation;
  std::vector<FmuVariable> variables;
  std::vector<FmuOutput> outputs;
  /// The continuous states, in the order of <Derivatives>: for state i, the
  /// 0-based index of its derivative variable and of the state variable.
  std::vector<std::size_t> derivatives;
  std::vector<std::size_t> states;
  /// For state i: the variables its derivative depends on directly (states
  /// and inputs; 0-based indices), from the derivative's `dependencies`;
  /// empty optional: the attribute is absent (it may depend on everything).
  std::vector<std::optional<std::vector<std::size_t>>> derivative_dependencies;

  /// The index of the variable named `name`, if any.
  [[nodiscard]] std::optional<std::size_t> find(const std::string& name) const;
};

/// True for the variables ctde's ports and start values carry as numbers:
/// Real, Integer, Boolean and Enumeration; FMI 3 Float32, Float64,
/// Int8...UInt64, Boolean and Enumeration (of a known size).
[[nodiscard]] bool is_port_type(const FmuVariable& v);

/// "input", "calculatedParameter"... (the specification's words, for messages).
[[nodiscard]] const char* to_string(Causality causality);
[[nodiscard]] const char* to_string(Variability variability);

/// Parses the text of a modelDescription.xml of FMI 2.0 or 3.0 (for 3.0:
/// `guid` holds the instantiationToken, indices are made from the value
/// references that FMI 3's ModelStructure uses, and the event indicators
/// are counted from <EventIndicator> elements).
/// @param what names the FMU in messages ("FMU 'ball.fmu'").
/// @throws ModelError "<what>: modelDescription.xml: ..." for malformed XML,
///         a version other than 2.0 and 3.0, missing required attributes, indices
///         out of range, or a description without any interface.
[[nodiscard]] ModelDescription parse_model_description(const std::string& xml, const std::string& what);

}  // namespace ctde
