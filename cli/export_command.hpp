#pragma once
/// `ctde export MODEL.json -o M.fmu`: the model as a Co-Simulation FMU,
/// FMI 3.0 or 2.0, that other tools run (docs/fmi.md, "Export").

#include <ostream>
#include <string>

#include "core/model_file.hpp"

namespace ctde::cli {

/// What `ctde export` was asked for.
struct ExportRequest {
  std::string model;
  std::string output;            ///< the .fmu file
  int fmi = 3;                   ///< 3 or 2
  std::string interface = "cs";  ///< "cs" (Model Exchange: "me", "both", refused for now)
  ParameterOverrides overrides;
};

/// Writes the FMU and prints what it holds to `out`.
/// @throws ModelError for a model that does not validate (exit 2);
///         CommandError (exit 2) for an output that is not a .fmu in an
///         existing folder, a name that is not an FMI name, an actor the FMU
///         cannot carry (a plug-in's), the FMU binary
///         missing; (exit 3) when the archive cannot be written. Nothing is
///         left at request.output after a failure.
void export_command(const ExportRequest& request, std::ostream& out);

}  // namespace ctde::cli
