#pragma once
/// The modelDescription.xml of an exported model (docs/fmi.md, "Export"),
/// FMI 3.0 or 2.0, Co-Simulation, Model Exchange or both: written from the FMU's variables
/// (fmu_variables.hpp) so that the binary and the description agree.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fmu_variables.hpp"

namespace ctde::fmu {

/// What modelDescription.xml says. Copyable value type.
struct FmuDescription {
  std::string model_name;
  std::string description;
  std::string model_identifier;  ///< the binary's file name without ".so"
  std::string token;             ///< instantiation_token() of resources/model.json
  std::string generation_tool;   ///< "ctde 1.2.3"
  double start_time = 0;
  double stop_time = 0;
  double tolerance = 0;
  std::optional<double> step_size;  ///< the model's output_interval, if any
  bool co_simulation = true;
  bool model_exchange = false;  ///< then the variables end with add_exchange_variables()'s
  std::vector<Variable> variables;
  std::vector<std::vector<std::uint32_t>> dependencies;  ///< output_dependencies()
};

/// The XML text of `description` for FMI version `fmi` (2 or 3).
[[nodiscard]] std::string model_description_xml(const FmuDescription& description, int fmi);

/// `name` made a C identifier (what modelIdentifier must be): each other
/// character becomes '_', and a leading digit gets a '_' before it.
[[nodiscard]] std::string model_identifier(const std::string& name);

}  // namespace ctde::fmu
