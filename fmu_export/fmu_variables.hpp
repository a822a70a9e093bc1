#pragma once
/// The variables of a model exported as an FMU (docs/fmi.md, "Export"), in
/// value-reference order: what `ctde export` writes into
/// modelDescription.xml and what the FMU's run time reads and writes, made
/// by one function so that both number them alike.
///
///   0                  time (causality independent)
///   1, 2, ...          the declared inputs, element by element
///   then               the declared outputs, element by element
///   then               the model's numeric parameters, in name order
///   then               the recorded signals (`record`) as local variables
///   then, with Model Exchange, each continuous state "state(actor)", its
///   derivative "der(state(actor))", and each event indicator
///   "indicator(actor)" (locals; "state(p[2])" for an actor's second state)
///
/// Names are flat (variableNamingConvention "flat"): a port of width w > 1
/// gives "u[1]" ... "u[w]".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../core/model.hpp"
#include "../domains/ctde/director.hpp"
#include "../run/run_setup.hpp"

namespace ctde::fmu {

/// What a variable is to the model.
enum class Causality : std::uint8_t { kIndependent, kInput, kOutput, kParameter, kLocal };

/// What a local variable of Model Exchange is (kValue: any other variable).
enum class Role : std::uint8_t { kValue, kState, kDerivative, kIndicator };

/// One scalar variable of the FMU. Copyable value type.
struct Variable {
  std::string name;             ///< its FMI name
  std::uint32_t reference = 0;  ///< its value reference (= its index in the list)
  Causality causality = Causality::kLocal;
  std::string source;         ///< input: its Input actor; output, local: "actor.port"; parameter: its name
  std::uint32_t element = 0;  ///< the element of the port; a state's, derivative's or indicator's number
  Role role = Role::kValue;
  std::uint32_t derivative_of = 0;  ///< a derivative: its state's value reference
  bool discrete = false;            ///< an output or local that changes only at events
  bool tunable = false;             ///< a parameter the model lists in `tunable`
  double start = 0;                 ///< an input's or parameter's start value
  std::string description;
  std::string unit;  ///< the model's `units` for it (empty: none)
};

/// The standard's name of `causality` ("input", "output", ...).
[[nodiscard]] const char* to_string(Causality causality);

/// True when a model parameter's value is one number: what an FMU offers as a parameter.
[[nodiscard]] bool is_scalar(const ResolvedParam& value);

/// The FMU's variables of `model`, checked for a run as `setup`.
[[nodiscard]] std::vector<Variable> fmu_variables(const Model& model, const RunSetup& setup);

/// Appends Model Exchange's variables (see the list above) of the run that
/// `director` lays out: each state named by Director::state_names(), each
/// indicator by its guard's actor (with its number when it has several).
void add_exchange_variables(std::vector<Variable>& variables, const Director& director);

/// Per variable, for the outputs (empty for the others): the value
/// references of the inputs it depends on directly, through actors that
/// feed their inputs through (a state or a delay on the way breaks the
/// dependency), in increasing order: ModelStructure's `dependencies`.
[[nodiscard]] std::vector<std::vector<std::uint32_t>> output_dependencies(
    const RunSetup& setup, const std::vector<Variable>& variables);

/// The model's parameters that an FMU of it does not offer (a vector, a
/// matrix or a string value), by name: `ctde export` says so.
[[nodiscard]] std::vector<std::string> unexported_parameters(const Model& model);

/// The instantiation token (FMI 3) and GUID (FMI 2) of an FMU whose
/// resources/model.json holds `model_text`: "{8-4-4-4-12 hex digits}" made
/// from two hashes of the text, so that the binary refuses a
/// modelDescription.xml of another export.
[[nodiscard]] std::string instantiation_token(std::string_view model_text);

/// True when `name` is a name ctde gives an FMU's variable: a letter or
/// '_', then letters, digits and '_' (an identifier, as C and Modelica write them).
[[nodiscard]] bool is_fmi_name(const std::string& name);

}  // namespace ctde::fmu
