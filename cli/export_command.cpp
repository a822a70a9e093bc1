#include "cli/export_command.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "actors/builtin_actors.hpp"
#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/model_include.hpp"
#include "ctde/version.hpp"
#include "domains/ctde/director.hpp"
#include "fmu_export/carried_files.hpp"
#include "fmu_export/fmu_archive_writer.hpp"
#include "fmu_export/fmu_variables.hpp"
#include "fmu_export/model_description_writer.hpp"
#include "run/command_error.hpp"
#include "run/run_setup.hpp"

namespace ctde::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The FMU's binary: $CTDE_FMU_LIBRARY, else the build's, else the installed one.
std::string fmu_library() {
  if (const char* given = std::getenv("CTDE_FMU_LIBRARY"); given != nullptr && *given != '\0') return given;
  for (const char* path : {CTDE_FMU_LIBRARY_BUILD, CTDE_FMU_LIBRARY_INSTALL}) {
    if (std::filesystem::exists(path)) return path;
  }
  throw CommandError(kExitUsage, std::string("the FMU binary ctde_fmu.so is not at ") +
                                     CTDE_FMU_LIBRARY_INSTALL +
                                     " (build the target ctde_fmu, or set CTDE_FMU_LIBRARY)");
}

/// Refuses what an FMU cannot carry: a plug-in's actor type.
void check_portable(const RunSetup& setup) {
  for (const FlatActor& a : setup.flat.actors) {
    if (!builtin_actors().has(a.actor->type())) {
      throw CommandError(kExitUsage,
                         "actor '" + a.path + "' is of type " + a.actor->type() +
                             ", which is not built into ctde: an exported FMU carries the built-in "
                             "types only");
    }
  }
}

/// The model file's JSON, its included files inlined, with the model's
/// parameters as resolved (numbers for the scalar ones; the others as
/// written): resources/model.json, which needs no other model file.
Json resolved_model(const std::string& path, const Model& model) {
  Json doc = Json::parse(read_text(path));
  const std::string folder = std::filesystem::path(path).parent_path().string();
  (void)inline_includes(doc, path, folder.empty() ? "." : folder, command_actors(),
                        model_search_path(command_model_path()));
  for (const auto& [name, written] : model.parameters().definitions()) {
    const ResolvedParam& value = model.parameters().value(name);
    if (fmu::is_scalar(value)) doc["parameters"][name] = value.scalar();
  }
  return doc;
}

void check_names(const std::vector<fmu::Variable>& variables) {
  for (const fmu::Variable& v : variables) {
    const std::string base = v.causality == fmu::Causality::kLocal ? "" : v.name.substr(0, v.name.find('['));
    if (!base.empty() && !fmu::is_fmi_name(base)) {
      throw CommandError(kExitUsage,
                         "'" + base +
                             "' is not a name ctde gives an FMU's variable (a letter or '_', "
                             "then letters, digits and '_'): rename the model's input, output or parameter");
    }
  }
}

std::string licenses_text() {
  return "The binary in binaries/ is ctde's run time with the FMI functions. It links these shared\n"
         "libraries, which a Debian machine gets with the packages ctde's scripts/setup.sh installs\n"
         "(docs/fmi.md, \"What an exported FMU needs\"); each keeps its own licence:\n"
         "  SUNDIALS (ARKODE, CVODE, KINSOL)  BSD-3-Clause      libsundials-*\n"
         "  SuiteSparse KLU                   LGPL-2.1-or-later libklu*\n"
         "  LAPACK, BLAS                      BSD-3-Clause      liblapack3, libblas3\n"
         "  spdlog, fmt                       MIT               libspdlog1.10, libfmt9\n"
         "  muparser                          BSD-2-Clause      libmuparser2v5\n"
         "  libzip                            BSD-3-Clause      libzip4\n"
         "  pugixml                           MIT               libpugixml1v5\n"
         "  GCC's C++ run time                GPL-3 with the GCC Runtime Library Exception\n"
         "The full texts are in /usr/share/doc/<package>/copyright on a Debian machine.\n";
}

/// Model Exchange's variables of the exported run (as its binary adds
/// them: one part); a model whose semantics need ctde's own integrator is refused.
void exchange_variables(std::vector<fmu::Variable>& variables, const RunSetup& setup) {
  RunOptions options = setup.options;
  options.subsystems = Subsystems::kJoined;
  const Director director(setup.flat, options, "export");
  if (const std::string problem = director.external_integration_problem(); !problem.empty())
    throw CommandError(kExitUsage,
                       "this model cannot be exported as Model Exchange (--interface me): " + problem);
  fmu::add_exchange_variables(variables, director);
}

/// The archive's files: the description, the model, the files it reads, the binary, the licences.
std::vector<fmu::ArchiveEntry> entries(const fmu::FmuDescription& d, int fmi, const std::string& text,
                                       const std::vector<fmu::CarriedFile>& files,
                                       const std::filesystem::path& resources, const std::string& binary) {
  const std::string offered =
      Json{{"co_simulation", d.co_simulation}, {"model_exchange", d.model_exchange}}.dump();
  std::vector<fmu::ArchiveEntry> out = {{"modelDescription.xml", fmu::model_description_xml(d, fmi), ""},
                                        {"resources/model.json", text, ""},
                                        {"resources/fmu.json", offered + "\n", ""}};
  for (const fmu::CarriedFile& f : files)
    out.push_back({"resources/" + f.name, "", (resources / f.name).string()});
  out.push_back({binary, "", fmu_library()});
  out.push_back({"documentation/licenses/README.txt", licenses_text(), ""});
  return out;
}

}  // namespace

void export_command(const ExportRequest& request, std::ostream& out) {
  if (std::filesystem::path(request.output).extension() != ".fmu")
    throw CommandError(kExitUsage, "-o " + request.output + ": an FMU's file name ends in .fmu");
  if (request.fmi != 2 && request.fmi != 3) throw CommandError(kExitUsage, "--fmi is 3 or 2");
  if (request.interface != "cs" && request.interface != "me" && request.interface != "both")
    throw CommandError(kExitUsage, "--interface is cs, me or both, not '" + request.interface + "'");
  const bool co_simulation = request.interface != "me";
  const bool model_exchange = request.interface != "cs";
  Model model = load_model_file(request.model, command_actors(), request.overrides, command_model_path());
  const RunSetup checked = set_up_run(model, std::nullopt);
  check_portable(checked);
  // The FMU reads the resolved text, with the files it reads carried beside it: checked here as it
  // will read them, in a folder of its own, and its variables made from it, as the binary makes them.
  Json doc = resolved_model(request.model, model);
  const std::vector<fmu::CarriedFile> files = fmu::carry_files(checked, doc);
  const std::string text = doc.dump(2) + "\n";
  const fmu::ScratchFolder resources;
  for (const fmu::CarriedFile& f : files) {
    std::filesystem::create_directories((resources.path() / f.name).parent_path());
    std::filesystem::copy_file(f.from, resources.path() / f.name);
  }
  Model exported = load_model_text(text, request.model, builtin_actors(), {}, resources.path().string());
  const RunSetup setup = set_up_run(exported, std::nullopt);
  fmu::FmuDescription d;
  d.model_name = exported.name();
  d.description = "ctde model " + exported.name() + " (" + request.model + ")";
  d.model_identifier = fmu::model_identifier(exported.name());
  d.token = fmu::instantiation_token(text);
  d.generation_tool = std::string("ctde ") + CTDE_VERSION;
  d.start_time = setup.options.start_time;
  d.stop_time = setup.options.stop_time;
  d.tolerance = setup.options.rtol;
  d.step_size = setup.options.output_interval;
  d.variables = fmu::fmu_variables(exported, setup);
  d.co_simulation = co_simulation;
  d.model_exchange = model_exchange;
  if (model_exchange) exchange_variables(d.variables, setup);
  d.dependencies = fmu::output_dependencies(setup, d.variables);
  check_names(d.variables);
  const std::string platform = request.fmi == 3 ? "x86_64-linux" : "linux64";
  const std::string binary = "binaries/" + platform + "/" + d.model_identifier + ".so";
  try {
    fmu::write_fmu_archive(request.output, entries(d, request.fmi, text, files, resources.path(), binary));
  } catch (const std::runtime_error& e) {
    throw CommandError(kExitRunFailed, e.what());
  }
  std::size_t counts[5] = {0, 0, 0, 0, 0};
  for (const fmu::Variable& v : d.variables) ++counts[static_cast<int>(v.causality)];
  out << "ctde: exported '" << d.model_name << "' as " << request.output << ": FMI " << request.fmi << ".0 "
      << (co_simulation ? (model_exchange ? "Co-Simulation and Model Exchange" : "Co-Simulation")
                        : "Model Exchange")
      << ", " << counts[1] << " input, " << counts[2] << " output, " << counts[3] << " parameter and "
      << counts[4] << " local variables; " << binary << "\n";
  const std::vector<std::string> left = fmu::unexported_parameters(exported);
  if (!left.empty()) out << "ctde: parameters not offered (not one number): " << join(left) << "\n";
}

}  // namespace ctde::cli
