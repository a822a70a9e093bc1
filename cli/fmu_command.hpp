#pragma once
/// `ctde fmu info FILE.fmu`: what an FMU offers and what ctde maps each of
/// its variables to, before wiring it (actors/fmi/fmu_info.hpp).

#include <ostream>
#include <string>

namespace ctde::cli {

/// Prints the FMU's description: aligned text, or with `json` the JSON of fmu_info().
/// @throws ModelError for a file that is no readable FMU (exit 2).
void fmu_info_command(const std::string& file, bool json, std::ostream& out);

}  // namespace ctde::cli
