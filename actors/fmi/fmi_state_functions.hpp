#pragma once
/// The Model Exchange functions on continuous states whose C signatures
/// FMI 2.0 (spec 3.2.1) and FMI 3.0 (spec 3.2) share but for their types:
/// declared once here from the text of both specifications (no header of
/// the standard is copied), instantiated by fmi2_api.hpp and fmi3_api.hpp
/// with each version's instance, status, real and boolean types.

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

}  // namespace ctde::fmi
