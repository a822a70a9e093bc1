// The `ctde` command (see docs/model-format.md for the contract and
// docs/cli.md for the user's guide).
//
// Exit status (docs/cli.md): 0 success (the stop time or a Stop actor, a
// valid model, a file written); 2 the model, the command line or an input
// file is wrong, an output cannot be created, or a helper program is missing
// (nothing is run or written); 3 the run failed part way, an output could not
// be written, or the plot could not be drawn (results and trace up to there
// are kept); 130/143 interrupted by SIGINT/SIGTERM (kept too); 4 a bug in ctde.

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/fmu_command.hpp"
#include "cli/graph_command.hpp"
#include "cli/plot.hpp"
#include "cli/plugins.hpp"
#include "cli/process.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/trace_export.hpp"
#include "cli/types_command.hpp"
#include "cli/validate_command.hpp"
#include "core/error.hpp"
#include "ctde/version.hpp"
#include "run/command_error.hpp"
#include "run/interrupt.hpp"
#include "run/output_file.hpp"
#include "run/run_setup.hpp"

namespace {

using namespace ctde;
using namespace ctde::cli;

/// `ctde run`: the run, its summary, and the plot. Returns the exit status.
int run_main(RunRequest request, const std::string& plot, bool quiet) {
  check_paths({{"MODEL", request.model}},
              {{"-o", request.results}, {"--trace", request.trace}, {"--plot", plot}});
  std::optional<PlotTool> tool;
  // Created before the run: a plot that cannot be written runs nothing.
  std::optional<OutputFile> plot_file;
  std::filesystem::path temporary;  // the results, when only a plot was asked for
  if (!plot.empty()) {
    if (!request.results.empty() && results_format(request.results) != ResultsFormat::kCsv) {
      throw CommandError(kExitUsage, "--plot draws from CSV results, and -o '" + request.results +
                                         "' is an HDF5 or MAT file: give -o a .csv file, or no -o");
    }
    check_plot_path("--plot", plot);
    tool = find_plot_tool("--plot");  // before the run: a missing tool runs nothing
    plot_file.emplace(NamedPath{"--plot", plot}, OutputFile::Writer::kHelper);
    if (request.results.empty()) {
      temporary = make_temporary_file("results", ".csv");
      request.results = temporary.string();
    }
  }
  RunOutcome outcome;
  try {
    outcome = run_command(request);
  } catch (...) {
    if (!temporary.empty()) std::filesystem::remove(temporary);
    throw;
  }
  const ctde::RunResult& result = outcome.result;
  int status = kExitOk;
  if (result.status == ctde::RunStatus::kError) {
    std::cerr << "ctde: run failed " << result.message << "\n";
    status = kExitRunFailed;
  } else if (!quiet) {
    std::cerr << "ctde: run " << ctde::to_string(result.status) << " at t = " << result.time << " s"
              << (result.actor.empty() ? "" : " (by " + result.actor + ")") << ": " << result.stats.steps
              << " steps, " << result.stats.rejected_steps << " rejected, " << result.stats.rhs_evals
              << " RHS evaluations, " << result.stats.events << " events\n";
  }
  if (!outcome.write_error.empty()) {
    std::cerr << "ctde: error: " << outcome.write_error << "\n";
    status = kExitRunFailed;
  }
  if (tool) {  // also after a failed or interrupted run: the results up to there are worth seeing
    try {
      PlotRequest plot_request;
      plot_request.results = {request.results};
      plot_request.discrete = outcome.discrete_columns;
      plot_request.title = outcome.model_name;
      plot_run_results(*tool, plot_request, plot_file->write_path());
      plot_file->commit();
    } catch (const CommandError& e) {
      std::cerr << "ctde: error: " << e.what() << "; the results are kept in " << request.results << "\n";
      return interrupt_signal() != 0 ? interrupted_status(interrupt_signal()) : kExitRunFailed;
    }
    if (!temporary.empty()) std::filesystem::remove(temporary);
  }
  if (interrupt_signal() != 0) return interrupted_status(interrupt_signal());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ctde: hybrid systems simulation (continuous time and discrete events)", "ctde"};
  app.set_version_flag("--version", std::string("ctde ") + CTDE_VERSION);
  app.require_subcommand(1);

  std::string model_path;
  std::vector<std::string> sets;
  // --load LIB (repeatable) on every command that reads model files or the registry.
  std::vector<std::string> plugins;
  const auto add_load = [&plugins](CLI::App* command) {
    command
        ->add_option("--load", plugins,
                     "Load user actor types from a plugin library (repeatable; docs/cli.md)")
        ->expected(1)
        ->allow_extra_args(false);  // one library per --load: the model file may follow
  };
  auto* validate = app.add_subcommand("validate",
                                      "Check a model file and print its resolved time modes, "
                                      "port widths and evaluation schedule (nothing is run)");
  validate->add_option("MODEL", model_path, "The model file (JSON)")->required();
  validate->add_option("--set", sets, "Override a model parameter: NAME=VALUE (repeatable)");
  double validate_stop_time = 0;
  auto* validate_stop = validate->add_option("--stop-time", validate_stop_time,
                                             "Check with this stop_time (s), as run --stop-time would run");
  add_load(validate);
  bool validate_json = false;
  validate->add_flag("--json", validate_json, "Print the resolved model as JSON (for scripts)");

  RunRequest run_request;
  std::vector<std::string> run_sets;
  double stop_time = 0;
  bool quiet = false;
  std::string plot_path;
  auto* run = app.add_subcommand("run",
                                 "Run a model file, writing results (CSV, HDF5 .h5 or MATLAB .mat), an event "
                                 "trace (JSON Lines) and a plot");
  run->add_option("MODEL", run_request.model, "The model file (JSON)")->required();
  run->add_option("-o,--output", run_request.results, "Results file (CSV; .h5/.hdf5: HDF5, .mat: MATLAB)");
  run->add_option("--trace", run_request.trace, "Event trace file (JSON Lines)");
  run->add_option("--plot", plot_path,
                  "Plot of the recorded signals (.png, .svg or .pdf; 1000x600 pixels), drawn by matplotlib");
  run->add_option("--set", run_sets, "Override a model parameter: NAME=VALUE (repeatable)");
  auto* stop_option = run->add_option("--stop-time", stop_time, "Override the director's stop_time (s)");
  add_load(run);
  std::string record_list;
  std::string rows_text = "all";
  run->add_option(
      "--rows", rows_text,
      "Which rows to write: all, output (the output_interval grid), events (the tags with events), "
      "final (the last row)");
  auto* record_option = run->add_option("--record", record_list,
                                        "Record these signals instead of the model's `record`: a.out,b.out");
  run->add_flag("--quiet", quiet, "Print nothing but errors (and no progress bar)");

  SweepRequest sweep_request;
  auto* sweep = app.add_subcommand(
      "sweep",
      "Run a model for every point of a sweep file (grid and random draws) on local worker "
      "processes or MPI ranks, into one HDF5 file (docs/sweep.md)");
  sweep->add_option("MODEL", sweep_request.model, "The model file (JSON)")->required();
  sweep->add_option("SWEEP", sweep_request.sweep, "The sweep file (JSON)")->required();
  sweep->add_option("-o,--output", sweep_request.output, "The results file (HDF5: .h5 or .hdf5)")->required();
  sweep
      ->add_option("--jobs", sweep_request.jobs,
                   "Local processes running runs: this one and N-1 forked workers (default: one per core; "
                   "ignored under MPI)")
      ->check(CLI::PositiveNumber);
  sweep->add_flag("--quiet", sweep_request.quiet, "Print nothing but errors (and no progress line)");
  add_load(sweep);

  PlotRequest plot_request;
  std::string plot_signals;
  auto* plot = app.add_subcommand(
      "plot",
      "Draw results files (CSV), one run each, overlaid: panels by scale, dense events as a raster "
      "(.png, .svg or .pdf; docs/cli.md)");
  plot->add_option("RESULTS", plot_request.results, "Results files (CSV, from run -o), one run each")
      ->required();
  plot->add_option("-o,--output", plot_request.output, "The plot (.png, .svg or .pdf; 1000 pixels wide)");
  plot->add_option("--signals", plot_signals, "Draw only these signals: a.out,b.out");
  plot->add_flag("--logx", plot_request.logx, "A logarithmic time axis (rows at t <= 0 skipped)");
  plot->add_flag("--logy", plot_request.logy, "Logarithmic value axes (values <= 0 skipped)");
  plot->add_option("--title", plot_request.title, "The plot's title");
  plot->add_flag("--describe", plot_request.describe,
                 "Print the layout (panels, rasters, roundoff) as JSON instead of drawing");

  std::string graph_model;
  std::string graph_output;
  std::vector<std::string> graph_sets;
  auto* graph = app.add_subcommand(
      "graph", "Draw the actor network of a model file with Graphviz (.svg, .png, .pdf; .dot or .gv: text)");
  graph->add_option("MODEL", graph_model, "The model file (JSON)")->required();
  graph->add_option("-o,--output", graph_output, "The drawing (default: DOT text on stdout)");
  graph->add_option("--set", graph_sets, "Override a model parameter: NAME=VALUE (repeatable)");
  add_load(graph);

  std::string trace_input;
  std::string trace_output;
  auto* trace = app.add_subcommand("trace", "Work with event traces");
  trace->require_subcommand(1);
  auto* trace_export = trace->add_subcommand(
      "export", "Convert an event trace (JSON Lines) to the Chrome/Perfetto trace-event format (JSON)");
  trace_export->add_option("TRACE", trace_input, "The event trace (JSON Lines, from run --trace)")
      ->required();
  trace_export->add_option("-o,--output", trace_output, "The Chrome trace (default: stdout)");

  bool types_json = false;
  auto* types = app.add_subcommand("types", "List the actor types a model file may use (family, summary)");
  types->add_flag("--json", types_json, "Print them as a JSON array");
  add_load(types);
  std::string describe_type_name;
  auto* describe = app.add_subcommand(
      "describe", "Print one actor type's ports, parameters (with defaults) and time mode as JSON");
  describe->add_option("TYPE", describe_type_name, "The actor type (as `ctde types` lists it)")->required();
  add_load(describe);

  std::string fmu_file;
  bool fmu_json = false;
  auto* fmu = app.add_subcommand("fmu", "Work with FMUs (Functional Mock-up Units)");
  fmu->require_subcommand(1);
  auto* fmu_info = fmu->add_subcommand(
      "info",
      "Print an FMU's interfaces, variables, states and event indicators, and what ctde maps each "
      "variable to (a port and its kind, a start value), before wiring it (docs/fmi.md)");
  fmu_info->add_option("FMU", fmu_file, "The FMU file (.fmu)")->required();
  fmu_info->add_flag("--json", fmu_json, "Print it as JSON (for scripts)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  install_interrupt_handlers();
  try {
    for (const std::string& plugin : plugins) load_plugin(plugin);
    if (validate->parsed()) {
      check_paths({{"MODEL", model_path}}, {});
      const std::optional<double> stop =
          *validate_stop ? std::optional<double>(validate_stop_time) : std::nullopt;
      ctde::cli::validate_command(model_path, parse_overrides(sets), stop, std::cout, validate_json);
    }
    if (run->parsed()) {
      run_request.overrides = parse_overrides(run_sets);
      if (*stop_option) run_request.stop_time = stop_time;
      if (*record_option) run_request.record = parse_record(record_list);
      const std::optional<ctde::RowSelection> rows = ctde::parse_row_selection(rows_text);
      if (!rows) throw ctde::ModelError("--rows " + rows_text + ": expects all, output, events or final");
      run_request.rows = *rows;
      // Results or trace on a terminal's stdout would be garbled by the bar redrawn beside them.
      const bool to_terminal =
          (run_request.results == "-" || run_request.trace == "-") && isatty(STDOUT_FILENO);
      run_request.progress = !quiet && !to_terminal;
      return run_main(run_request, plot_path, quiet);
    }
    if (sweep->parsed()) return sweep_command(sweep_request);
    if (plot->parsed()) {
      if (!plot_signals.empty()) plot_request.signals = parse_record(plot_signals, "--signals");
      plot_command(plot_request);
    }
    if (graph->parsed()) graph_command(graph_model, parse_overrides(graph_sets), graph_output, std::cout);
    if (trace_export->parsed()) trace_export_command(trace_input, trace_output);
    if (types->parsed()) types_command(types_json, std::cout);
    if (describe->parsed()) describe_command(describe_type_name, std::cout);
    if (fmu_info->parsed()) {
      check_paths({{"FMU", fmu_file}}, {});
      fmu_info_command(fmu_file, fmu_json, std::cout);
    }
  } catch (const ctde::ModelError& e) {
    std::cerr << "ctde: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const CommandError& e) {
    if (interrupt_signal() != 0) {
      std::cerr << "ctde: interrupted: nothing written\n";
      return interrupted_status(interrupt_signal());
    }
    std::cerr << "ctde: error: " << e.what() << "\n";
    return e.status();
  } catch (const std::exception& e) {
    std::cerr << "ctde: internal error: " << e.what() << "\n";
    return kExitInternal;
  } catch (...) {  // unwound, so that no temporary file is left behind
    std::cerr << "ctde: internal error: an unknown exception\n";
    return kExitInternal;
  }
  std::cout.flush();
  if (!std::cout) {  // the DOT text or the validation report went nowhere
    std::cerr << "ctde: error: cannot write the standard output\n";
    return kExitRunFailed;
  }
  if (interrupt_signal() != 0) return interrupted_status(interrupt_signal());
  return kExitOk;
}
