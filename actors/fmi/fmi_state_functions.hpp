#pragma once
/// The functions whose C signatures FMI 2.0 and FMI 3.0 share but for
/// their types: the Model Exchange functions on continuous states (FMI 2.0
/// spec 3.2.1, FMI 3.0 spec 3.2) and the optional functions on the whole FMU
/// state (FMI 2.0 spec 2.1.8, FMI 3.0 spec 2.2.6.4, "Getting and Setting the
/// Complete FMU State"). Declared once here from the text of both
/// specifications (no header of the standard is copied), instantiated by
/// fmi2_api.hpp and fmi3_api.hpp with each version's types.

#include <cstddef>

namespace ctde::fmi {

/// The function types, named as in the standards without the prefix
/// (GetDerivatives is FMI 3.0's fmi3GetContinuousStateDerivatives).
template <class Instance, class Status, class Real, class Boolean>
struct StateFunctionTypes {
  using EnterContinuousTimeMode = Status (*)(Instance);
  using CompletedIntegratorStep = Status (*)(Instance, Boolean no_set_fmu_state_prior,
                                             Boolean* enter_event_mode, Boolean* terminate_simulation);
  using SetTime = Status (*)(Instance, Real time);
  using SetContinuousStates = Status (*)(Instance, const Real x[], std::size_t nx);
  using GetDerivatives = Status (*)(Instance, Real derivatives[], std::size_t nx);
  using GetEventIndicators = Status (*)(Instance, Real indicators[], std::size_t ni);
  using GetContinuousStates = Status (*)(Instance, Real x[], std::size_t nx);
  using GetNominalsOfContinuousStates = Status (*)(Instance, Real nominals[], std::size_t nx);
};

/// The function types on the FMU state, named as in the standards without
/// the prefix (FMI 2.0 spells them fmi2GetFMUstate... and
/// fmi2DeSerializeFMUstate; FMI 3.0 fmi3GetFMUState... and
/// fmi3DeserializeFMUState). `FmuState` is the opaque pointer to a copy of
/// the state that the FMU allocates (fmi2FMUstate, fmi3FMUState), `Byte`
/// the element of a serialized state (fmi2Byte is char, fmi3Byte uint8_t).
/// Get copies the instance's state into *state (a new copy when *state is
/// null on entry); Set makes a copy the instance's state; Free frees a copy
/// and nulls *state; SerializedSize, Serialize and Deserialize turn a copy
/// into `size` bytes and back (a new copy in *state).
template <class Instance, class Status, class FmuState, class Byte>
struct FmuStateFunctionTypes {
  using GetFMUState = Status (*)(Instance, FmuState* state);
  using SetFMUState = Status (*)(Instance, FmuState state);
  using FreeFMUState = Status (*)(Instance, FmuState* state);
  using SerializedFMUStateSize = Status (*)(Instance, FmuState state, std::size_t* size);
  using SerializeFMUState = Status (*)(Instance, FmuState state, Byte serialized[], std::size_t size);
  using DeserializeFMUState = Status (*)(Instance, const Byte serialized[], std::size_t size,
                                         FmuState* state);
};

}  // namespace ctde::fmi
