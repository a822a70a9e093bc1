// The `ctde` command (see shared/spec/model-format.md for the contract).
//
// Exit status: 0 success (the stop time or a Stop actor); 2 the model or the
// command line is wrong (nothing is run); 3 the run failed part way (results
// and trace up to the failure are kept).

#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/run_command.hpp"
#include "cli/validate_command.hpp"
#include "core/error.hpp"

namespace {

constexpr int kModelError = 2;
constexpr int kRunFailed = 3;

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
  auto* validate = app.add_subcommand("validate",
                                      "Check a model file and print its resolved time modes, "
                                      "port widths and evaluation schedule (nothing is run)");
  validate->add_option("MODEL", model_path, "The model file (JSON)")->required();
  validate->add_option("--set", sets, "Override a model parameter: NAME=VALUE (repeatable)");

  ctde::cli::RunRequest run_request;
  std::vector<std::string> run_sets;
  double stop_time = 0;
  bool quiet = false;
  auto* run =
      app.add_subcommand("run", "Run a model file, writing results (CSV) and an event trace (JSON Lines)");
  run->add_option("MODEL", run_request.model, "The model file (JSON)")->required();
  run->add_option("-o,--output", run_request.results, "Results file (CSV)");
  run->add_option("--trace", run_request.trace, "Event trace file (JSON Lines)");
  run->add_option("--set", run_sets, "Override a model parameter: NAME=VALUE (repeatable)");
  auto* stop_option = run->add_option("--stop-time", stop_time, "Override the director's stop_time (s)");
  run->add_flag("--quiet", quiet, "Print nothing but errors");

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
    if (run->parsed()) {
      for (const auto& text : run_sets) run_request.overrides.push_back(split_assignment(text));
      if (*stop_option) run_request.stop_time = stop_time;
      const ctde::RunResult result = ctde::cli::run_command(run_request);
      if (result.status == ctde::RunStatus::kError) {
        std::cerr << "ctde: run failed " << result.message << "\n";
        return kRunFailed;
      }
      if (!quiet) {
        std::cerr << "ctde: run " << ctde::to_string(result.status) << " at t = " << result.time << " s"
                  << (result.actor.empty() ? "" : " (by " + result.actor + ")") << ": " << result.stats.steps
                  << " steps, " << result.stats.rejected_steps << " rejected, " << result.stats.rhs_evals
                  << " RHS evaluations, " << result.stats.events << " events\n";
      }
    }
  } catch (const ctde::ModelError& e) {
    std::cerr << "ctde: error: " << e.what() << "\n";
    return kModelError;
  } catch (const std::exception& e) {
    std::cerr << "ctde: internal error: " << e.what() << "\n";
    return 4;
  }
  return 0;
}
