#pragma once
/// FMI 3.0 (Model Exchange, Co-Simulation) behind the FMI 2.0-shaped function table the FMU
/// actor calls (Fmi2Functions): each adapter function takes the component
/// (an Fmi3Component made by fmi3_instantiate) and calls the FMI 3 function
/// of the same role (fmi3GetFloat64 for fmi2GetReal, fmi3UpdateDiscreteStates
/// for fmi2NewDiscreteStates...). The status codes have the same values;
/// fmi3Boolean (bool) is converted to and from fmi2Boolean (int). A
/// co-simulation step that ends with terminateSimulation returns
/// fmi2Discard, and fmi2GetBooleanStatus(fmi2Terminated) then says true, as
/// an FMI 2 FMU would.

#include <string>

#include "fmi2_api.hpp"
#include "fmi2_library.hpp"
#include "fmi3_api.hpp"

namespace ctde {

/// The adapter functions (every entry of Fmi2Functions but get_version and instantiate).
[[nodiscard]] Fmi2Functions fmi3_adapter_functions();

/// Sets the FMU-state entries of `f` (fmi2GetFMUstate...) to the adapter's
/// functions calling fmi3GetFMUState... of `functions`, each only where the
/// binary has the FMI 3 function (null otherwise). fmi3Byte and fmi2Byte are
/// both bytes: a serialized state is passed as it is.
void fmi3_adapter_fmu_state(const fmi3::Functions& functions, Fmi2Functions& f);
/// Sets f's get_directional_derivative to the adapter's when `functions` has
/// fmi3GetDirectionalDerivative (scalar variables: a seed and a sensitivity per reference).
void fmi3_adapter_directional_derivative(const fmi3::Functions& functions, Fmi2Functions& f);

/// fmi3InstantiateModelExchange or fmi3InstantiateCoSimulation (without
/// event mode or early return) with `functions`, wrapped as a component of
/// the adapter (its fmi2FreeInstance frees both). `resource_uri` is the
/// file:// URI of the resources folder: FMI 3 is given its path. The FMU's
/// log messages go to `callbacks->logger`. Null when the FMU refuses.
[[nodiscard]] fmi2::Component fmi3_instantiate(const fmi3::Functions& functions,
                                               const std::string& instance_name, fmi2::Type type,
                                               const std::string& token, const std::string& resource_uri,
                                               const fmi2::CallbackFunctions* callbacks);

/// The fmi3Instance behind a component that fmi3_instantiate made (for the
/// FMI 3 calls the adapter does not map: the clocks').
[[nodiscard]] fmi3::Instance fmi3_instance(fmi2::Component component);

/// The FMI 3.0 function that the adapter calls for the FMI 2.0 function
/// `fmi2_call` ("fmi2GetReal" -> "fmi3GetFloat64"), for messages; `type`
/// chooses between the two instantiate functions. A name it does not know
/// is returned as it is.
[[nodiscard]] const char* fmi3_call_name(const char* fmi2_call, fmi2::Type type);

}  // namespace ctde
