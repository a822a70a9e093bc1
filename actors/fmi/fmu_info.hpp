#pragma once
/// What an FMU offers and what ctde makes of it, without running it (`ctde
/// fmu info FILE.fmu`, docs/fmi.md "Before wiring an FMU"): its interfaces,
/// variables (causality, variability, type, start, unit), states, event
/// indicators, and for each variable what ctde maps it to: a port (its kind
/// per interface), a start value, a state, or nothing, and why.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ctde {

/// The description of the FMU file `fmu` as JSON: "file", "fmi_version",
/// "model_name", "guid", "interfaces" (model_exchange and co_simulation:
/// null, or their model identifier and flags), "states" (state and
/// derivative names), "event_indicators", and "variables" (name,
/// value_reference, causality, variability, initial, type, start, unit,
/// and "ctde": {"port": name or null, "kind": per interface, "start":
/// settable by the `start` parameter, "role": state, derivative, time...,
/// "note": why it has no port}).
/// @throws ModelError for a file that is no readable FMU (as the FMU actor's loading errors).
[[nodiscard]] nlohmann::ordered_json fmu_info(const std::filesystem::path& fmu);

/// The same as text for people: a header, the interfaces, the states, then
/// one aligned line per variable.
[[nodiscard]] std::string fmu_info_text(const nlohmann::ordered_json& info);

}  // namespace ctde
