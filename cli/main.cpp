// The `ctde` command (see shared/spec/model-format.md for the contract).
//
// Exit status: 0 success; 2 the model or the command line is wrong.

#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/validate_command.hpp"
#include "core/error.hpp"

namespace {

constexpr int kModelError = 2;

/// "NAME=VALUE" → (NAME, VALUE). @throws ctde::ModelError when malformed.
std::pair<std::string, std::string> split_assignment(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw ctde::ModelError("--set expects NAME=VALUE, got '" + text + "'");
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ctde: hybrid systems simulation (continuous time and discrete events)", "ctde"};
  app.set_version_flag("--version", std::string("ctde ") + CTDE_VERSION);
  app.require_subcommand(1);

  std::string model_path;
  std::vector<std::string> sets;
  auto* validate = app.add_subcommand("validate", "Check a model file and print its resolved time modes, "
                                                  "port widths and evaluation schedule (nothing is run)");
  validate->add_option("MODEL", model_path, "The model file (JSON)")->required();
  validate->add_option("--set", sets, "Override a model parameter: NAME=VALUE (repeatable)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kModelError;
  }

  try {
    ctde::ParameterOverrides overrides;
    for (const auto& text : sets) overrides.push_back(split_assignment(text));
    if (validate->parsed()) ctde::cli::validate_command(model_path, overrides, std::cout);
  } catch (const ctde::ModelError& e) {
    std::cerr << "ctde: error: " << e.what() << "\n";
    return kModelError;
  } catch (const std::exception& e) {
    std::cerr << "ctde: internal error: " << e.what() << "\n";
    return 4;
  }
  return 0;
}
