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

#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/command_options.hpp"
#include "cli/export_command.hpp"
#include "cli/fmu_command.hpp"
#include "cli/graph_command.hpp"
#include "cli/linearize_command.hpp"
#include "cli/model_path.hpp"
#include "cli/plot.hpp"
#include "cli/plugins.hpp"
#include "cli/process.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/trace_export.hpp"
#include "cli/types_command.hpp"
#include "cli/validate_command.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
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
  // The checkpoint may be the snapshot resumed from: it is read whole first, then replaced whole.
  const bool checkpoint_is_resumed = !request.resume.empty() && request.checkpoint == request.resume;
  check_paths({{"MODEL", request.model}, {"--resume", request.resume}},
              {{"-o", request.results},
               {"--trace", request.trace},
               {"--plot", plot},
               {"--snapshot", request.snapshot},
               {"--checkpoint", checkpoint_is_resumed ? std::string() : request.checkpoint}});
  check_results_extension(request.results);
  std::optional<PlotTool> tool;
  // Created before the run: a plot that cannot be written runs nothing.
  std::optional<OutputFile> plot_file;
  std::filesystem::path temporary;  // the results, when only a plot was asked for
  if (!plot.empty()) {
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
              << " RHS evaluations, " << result.stats.state_events << " state events, "
              << result.stats.time_events << " time events, " << result.stats.events << " tokens\n";
  }
  if (!outcome.write_error.empty()) {
    std::cerr << "ctde: error: " << outcome.write_error << "\n";
    status = kExitRunFailed;
  }
  if (!request.checkpoint.empty() && !quiet && std::filesystem::exists(request.checkpoint)) {
    std::cerr << "ctde: the run's last checkpoint is in " << request.checkpoint
              << ": the same command with --resume " << request.checkpoint << " goes on from it\n";
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

/// `ctde validate`'s values, as the command line sets them.
struct ValidateArgs {
  CLI::App* command = nullptr;
  std::string model;
  std::vector<std::string> sets;
  double stop_time = 0;
  CLI::Option* stop = nullptr;  ///< --stop-time: given or not
  bool json = false;
};

/// `ctde linearize`'s values, as the command line sets them.
struct LinearizeArgs {
  CLI::App* command = nullptr;
  ctde::cli::LinearizeRequest request;
  std::vector<std::string> sets;
  double at = 0;
  CLI::Option* at_option = nullptr;
  std::string inputs;
  std::string outputs;
};

/// `ctde export`'s values, as the command line sets them.
struct ExportArgs {
  CLI::App* command = nullptr;
  ctde::cli::ExportRequest request;
  std::vector<std::string> sets;
};

/// `ctde run`'s values, as the command line sets them.
struct RunArgs {
  CLI::App* command = nullptr;
  RunRequest request;
  std::vector<std::string> sets;
  double stop_time = 0;
  CLI::Option* stop = nullptr;  ///< --stop-time: given or not
  bool quiet = false;
  std::string plot;
  ResultsFilterOptions filter;
  TraceEventsOption trace_events;
  double snapshot_at = 0;
  CLI::Option* snapshot_at_option = nullptr;  ///< --snapshot-at: given or not
  std::string checkpoint_every;               ///< --checkpoint-every, as given
};

/// `ctde sweep`'s values, as the command line sets them.
struct SweepArgs {
  CLI::App* command = nullptr;
  SweepRequest request;
  ResultsFilterOptions filter;
};

/// `ctde plot`'s values, as the command line sets them.
struct PlotArgs {
  CLI::App* command = nullptr;
  PlotRequest request;
  std::string signals;
};

/// `ctde graph`'s values, as the command line sets them.
struct GraphArgs {
  CLI::App* command = nullptr;
  std::string model;
  std::string output;
  std::vector<std::string> sets;
};

/// `ctde trace export`'s values, as the command line sets them.
struct TraceArgs {
  CLI::App* export_command = nullptr;
  std::string input;
  std::string output;
};

/// `ctde types`'s values, as the command line sets them.
struct TypesArgs {
  CLI::App* command = nullptr;
  bool json = false;
};

/// `ctde describe`'s values, as the command line sets them.
struct DescribeArgs {
  CLI::App* command = nullptr;
  std::string type;
};

/// `ctde fmu info`'s values, as the command line sets them.
struct FmuArgs {
  CLI::App* info = nullptr;
  std::string file;
  bool json = false;
};

/// Every value the command line sets; CLI11 writes into it as it parses, so it must not move.
struct CommandLine {
  std::vector<std::string> plugins;     ///< --load, on every command that reads model files or the registry
  std::vector<std::string> model_path;  ///< --model-path, on every command that reads model files
  ValidateArgs validate;
  LinearizeArgs linearize;
  ExportArgs export_args;
  RunArgs run;
  SweepArgs sweep;
  PlotArgs plot;
  GraphArgs graph;
  TraceArgs trace;
  TypesArgs types;
  DescribeArgs describe;
  FmuArgs fmu;
};

/// Adds --load LIB (repeatable) to `command`, into `plugins`.
void add_load(CLI::App& command, std::vector<std::string>& plugins) {
  command
      .add_option("--load", plugins, "Load user actor types from a plugin library (repeatable; docs/cli.md)")
      ->expected(1)
      ->take_all()                // every --load, not at most one
      ->allow_extra_args(false);  // one library per --load: the model file may follow
}

/// Adds --load LIB and --model-path DIR (both repeatable) to `command`, a command that reads a model file.
void add_model_options(CLI::App& command, CommandLine& args) {
  add_load(command, args.plugins);
  command
      .add_option("--model-path", args.model_path,
                  "A folder searched for included model files not found beside the including file "
                  "(repeatable; after them CTDE_MODEL_PATH's; docs/model-format.md)")
      ->expected(1)
      ->take_all()
      ->allow_extra_args(false);
}

/// Adds `ctde validate` and its options to `app`.
void add_validate(CLI::App& app, CommandLine& args) {
  ValidateArgs& v = args.validate;
  v.command = app.add_subcommand("validate",
                                 "Check a model file and print its resolved time modes, "
                                 "port widths and evaluation schedule (nothing is run)");
  v.command->add_option("MODEL", v.model, "The model file (JSON)")->required();
  v.command->add_option("--set", v.sets, "Override a model parameter: NAME=VALUE (repeatable)");
  v.stop = v.command
               ->add_option("--stop-time", v.stop_time,
                            "Check with this stop_time (s), as run --stop-time would run")
               ->transform(seconds_value());
  add_model_options(*v.command, args);
  v.command->add_flag("--json", v.json, "Print the resolved model as JSON (for scripts)");
}

/// Adds `ctde export` and its options to `app`.
void add_export(CLI::App& app, CommandLine& args) {
  ExportArgs& e = args.export_args;
  e.command = app.add_subcommand("export",
                                 "Write a model file as an FMU (Co-Simulation, FMI 3.0 or 2.0) that other "
                                 "tools run");
  e.command->add_option("MODEL", e.request.model, "The model file (JSON)")->required();
  e.command->add_option("-o,--output", e.request.output, "The FMU file to write (.fmu)")->required();
  e.command->add_option("--fmi", e.request.fmi, "The FMI version: 3 (default) or 2")
      ->check(CLI::IsMember({3, 2}));
  e.command->add_option("--interface", e.request.interface,
                        "cs (Co-Simulation, the default), me (Model Exchange) or both");
  e.command->add_option("--set", e.sets, "Override a model parameter: NAME=VALUE (repeatable)");
  add_model_options(*e.command, args);
}

/// Adds `ctde linearize` and its options to `app`.
void add_linearize(CLI::App& app, CommandLine& args) {
  LinearizeArgs& l = args.linearize;
  l.command =
      app.add_subcommand("linearize",
                         "Run a model file to a time and print A, B, C, D of its continuous side there, "
                         "with the eigenvalues of A");
  l.command->add_option("MODEL", l.request.model, "The model file (JSON)")->required();
  l.at_option = l.command->add_option("--at", l.at, "Linearize at this time (s; default: the start time)")
                    ->transform(seconds_value());
  l.command->add_option("--inputs", l.inputs,
                        "The input ports whose signals are u: a.in,b.in (default: none)");
  l.command->add_option("--outputs", l.outputs,
                        "The output ports whose values are y: y.out (default: the model's recorded "
                        "continuous outputs)");
  l.command->add_option("-o,--output", l.request.output, "Also write the result: .json, .mat or .npz");
  l.command->add_option(
      "--resume", l.request.resume,
      "Start from this snapshot file (ctde run --snapshot-at) instead of running from the start");
  l.command->add_option("--set", l.sets, "Override a model parameter: NAME=VALUE (repeatable)");
  add_model_options(*l.command, args);
}

/// Adds `ctde run` and its options to `app`.
void add_run(CLI::App& app, CommandLine& args) {
  RunArgs& r = args.run;
  r.command = app.add_subcommand("run",
                                 "Run a model file, writing results (CSV, HDF5 .h5 or MATLAB .mat), an event "
                                 "trace (JSON Lines) and a plot");
  r.command->add_option("MODEL", r.request.model, "The model file (JSON)")->required();
  r.command->add_option("-o,--output", r.request.results,
                        "Results file (CSV; .h5/.hdf5: HDF5, .mat: MATLAB)");
  r.command->add_option("--trace", r.request.trace, "Event trace file (JSON Lines)");
  r.trace_events.add(*r.command);
  r.command->add_option(
      "--plot", r.plot,
      "Plot of the recorded signals (.png, .svg or .pdf; 1000x600 pixels), drawn by matplotlib");
  r.command->add_option("--set", r.sets, "Override a model parameter: NAME=VALUE (repeatable)");
  r.stop = r.command->add_option("--stop-time", r.stop_time, "Override the director's stop_time (s)")
               ->transform(seconds_value());
  add_model_options(*r.command, args);
  r.filter.add(*r.command, "");
  r.snapshot_at_option = r.command->add_option(
      "--snapshot-at", r.snapshot_at, "Save the run at this time (s) to the --snapshot file, and go on");
  r.command->add_option("--snapshot", r.request.snapshot, "The snapshot file --snapshot-at writes");
  r.command->add_option("--resume", r.request.resume,
                        "Continue the run saved in this snapshot file (the model must be the same; "
                        "--set may change parameters)");
  r.command->add_option("--checkpoint-every", r.checkpoint_every,
                        "Keep a checkpoint of the run about this often (wall clock: 90s, 5m, 1h), "
                        "which --resume continues, results file included");
  r.command->add_option("--checkpoint", r.request.checkpoint,
                        "The checkpoint file --checkpoint-every keeps (default: the -o file + .ckpt)");
  r.command->add_flag("--quiet", r.quiet, "Print nothing but errors (and no progress bar)");
}

/// Adds `ctde sweep` and its options to `app`.
void add_sweep(CLI::App& app, CommandLine& args) {
  SweepRequest& request = args.sweep.request;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run a model for every point of a sweep file (grid and random draws) on local worker "
      "processes or MPI ranks, into one HDF5 file (docs/sweep.md)");
  args.sweep.command = sweep;
  sweep->add_option("MODEL", request.model, "The model file (JSON)")->required();
  sweep->add_option("SWEEP", request.sweep, "The sweep file (JSON)")->required();
  sweep->add_option("-o,--output", request.output, "The results file (HDF5: .h5 or .hdf5)")->required();
  sweep
      ->add_option("--jobs", request.jobs,
                   "Local processes running runs: this one and N-1 forked workers (default: one per core; "
                   "ignored under MPI)")
      ->check(CLI::PositiveNumber);
  sweep->add_flag("--quiet", request.quiet, "Print nothing but errors (and no progress line)");
  args.sweep.filter.add(*sweep, "every run's ");
  add_model_options(*sweep, args);
}

/// Adds `ctde plot` and its options to `app`.
void add_plot(CLI::App& app, CommandLine& args) {
  PlotRequest& request = args.plot.request;
  CLI::App* plot = app.add_subcommand(
      "plot",
      "Draw results files (CSV, HDF5 or MAT), every run overlaid: panels by scale, dense events as a "
      "raster (.png, .svg or .pdf; docs/cli.md)");
  args.plot.command = plot;
  plot->add_option("RESULTS", request.results, "Results files: CSV, HDF5 or MAT (run -o), or a sweep's HDF5")
      ->required();
  plot->add_option("-o,--output", request.output, "The plot (.png, .svg or .pdf; 1000 pixels wide)");
  plot->add_option("--signals", args.plot.signals, "Draw only these signals: a.out,b.out");
  plot->add_option("--runs", request.runs, "Draw only these runs of a sweep's HDF5 file: 0,3-5");
  plot->add_flag("--logx", request.logx, "A logarithmic time axis (rows at t <= 0 skipped)");
  plot->add_flag("--logy", request.logy, "Logarithmic value axes (values <= 0 skipped)");
  plot->add_option("--title", request.title, "The plot's title");
  plot->add_flag("--describe", request.describe,
                 "Print the layout (panels, rasters, roundoff) as JSON instead of drawing");
}

/// Adds `ctde graph` and its options to `app`.
void add_graph(CLI::App& app, CommandLine& args) {
  GraphArgs& g = args.graph;
  g.command = app.add_subcommand(
      "graph", "Draw the actor network of a model file with Graphviz (.svg, .png, .pdf; .dot or .gv: text)");
  g.command->add_option("MODEL", g.model, "The model file (JSON)")->required();
  g.command->add_option("-o,--output", g.output, "The drawing (default: DOT text on stdout)");
  g.command->add_option("--set", g.sets, "Override a model parameter: NAME=VALUE (repeatable)");
  add_model_options(*g.command, args);
}

/// Adds `ctde trace` and its subcommand `export`, with its options, to `app`.
void add_trace(CLI::App& app, CommandLine& args) {
  TraceArgs& t = args.trace;
  CLI::App* trace = app.add_subcommand("trace", "Work with event traces");
  trace->require_subcommand(1);
  t.export_command = trace->add_subcommand(
      "export", "Convert an event trace (JSON Lines) to the Chrome/Perfetto trace-event format (JSON)");
  t.export_command->add_option("TRACE", t.input, "The event trace (JSON Lines, from run --trace)")
      ->required();
  t.export_command->add_option("-o,--output", t.output, "The Chrome trace (default: stdout)");
}

/// Adds `ctde types` and its options to `app`.
void add_types(CLI::App& app, CommandLine& args) {
  args.types.command =
      app.add_subcommand("types", "List the actor types a model file may use (family, summary)");
  args.types.command->add_flag("--json", args.types.json, "Print them as a JSON array");
  add_load(*args.types.command, args.plugins);
}

/// Adds `ctde describe` and its options to `app`.
void add_describe(CLI::App& app, CommandLine& args) {
  args.describe.command = app.add_subcommand(
      "describe", "Print one actor type's ports, parameters (with defaults) and time mode as JSON");
  args.describe.command->add_option("TYPE", args.describe.type, "The actor type (as `ctde types` lists it)")
      ->required();
  add_load(*args.describe.command, args.plugins);
}

/// Adds `ctde fmu` and its subcommand `info`, with its options, to `app`.
void add_fmu(CLI::App& app, CommandLine& args) {
  FmuArgs& f = args.fmu;
  CLI::App* fmu = app.add_subcommand("fmu", "Work with FMUs (Functional Mock-up Units)");
  fmu->require_subcommand(1);
  f.info = fmu->add_subcommand(
      "info",
      "Print an FMU's interfaces, variables, states and event indicators, and what ctde maps each "
      "variable to (a port and its kind, a start value), before wiring it (docs/fmi.md)");
  f.info->add_option("FMU", f.file, "The FMU file (.fmu)")->required();
  f.info->add_flag("--json", f.json, "Print it as JSON (for scripts)");
}

/// `ctde run` from its parsed values: the request completed from the options, then run_main().
/// Returns the exit status.
int run_parsed(const RunArgs& args) {
  RunRequest request = args.request;
  request.overrides = parse_overrides(args.sets);
  if (*args.stop) request.stop_time = args.stop_time;
  request.filter = args.filter.parsed();
  request.trace_events = args.trace_events.parsed(request.trace);
  if (*args.snapshot_at_option) request.snapshot_at = args.snapshot_at;
  if (request.snapshot_at.has_value() != !request.snapshot.empty()) {
    throw CommandError(kExitUsage, request.snapshot.empty()
                                       ? "--snapshot-at needs --snapshot FILE: where to save the run"
                                       : "--snapshot needs --snapshot-at TIME: when to save the run");
  }
  set_checkpoints(request, args.checkpoint_every);
  // Results or trace on a terminal's stdout would be garbled by the bar redrawn beside them.
  const bool to_terminal = (request.results == "-" || request.trace == "-") && isatty(STDOUT_FILENO);
  request.progress = !args.quiet && !to_terminal;
  return run_main(std::move(request), args.plot, args.quiet);
}

/// Loads the plugins and runs the subcommand the command line chose. Returns the exit status of
/// `run` and `sweep`; nullopt after the others, whose status depends on the standard output.
std::optional<int> dispatch(const CommandLine& args) {
  for (const std::string& plugin : args.plugins) load_plugin(plugin);
  command_model_path() = args.model_path;
  if (args.validate.command->parsed()) {
    const ValidateArgs& v = args.validate;
    check_paths({{"MODEL", v.model}}, {});
    const std::optional<double> stop = *v.stop ? std::optional<double>(v.stop_time) : std::nullopt;
    ctde::cli::validate_command(v.model, parse_overrides(v.sets), stop, std::cout, v.json);
  }
  if (args.linearize.command->parsed()) {
    const LinearizeArgs& l = args.linearize;
    ctde::cli::LinearizeRequest request = l.request;
    check_paths({{"MODEL", request.model}, {"--resume", request.resume}},
                l.request.output.empty() ? std::vector<ctde::NamedPath>{}
                                         : std::vector<ctde::NamedPath>{{"-o", request.output}});
    request.overrides = parse_overrides(l.sets);
    if (*l.at_option) request.at = l.at;
    if (!l.inputs.empty()) request.inputs = parse_record(l.inputs, "--inputs");
    if (!l.outputs.empty()) request.outputs = parse_record(l.outputs, "--outputs");
    ctde::cli::linearize_command(request, std::cout);
  }
  if (args.export_args.command->parsed()) {
    ctde::cli::ExportRequest request = args.export_args.request;
    check_paths({{"MODEL", request.model}}, {{"-o", request.output}});
    request.overrides = parse_overrides(args.export_args.sets);
    ctde::cli::export_command(request, std::cout);
  }
  if (args.run.command->parsed()) return run_parsed(args.run);
  if (args.sweep.command->parsed()) {
    SweepRequest request = args.sweep.request;
    request.filter = args.sweep.filter.parsed();
    return sweep_command(request);
  }
  if (args.plot.command->parsed()) {
    PlotRequest request = args.plot.request;
    if (!args.plot.signals.empty()) request.signals = parse_record(args.plot.signals, "--signals");
    plot_command(request);
  }
  if (args.graph.command->parsed()) {
    graph_command(args.graph.model, parse_overrides(args.graph.sets), args.graph.output, std::cout);
  }
  if (args.trace.export_command->parsed()) trace_export_command(args.trace.input, args.trace.output);
  if (args.types.command->parsed()) types_command(args.types.json, std::cout);
  if (args.describe.command->parsed()) describe_command(args.describe.type, std::cout);
  if (args.fmu.info->parsed()) {
    check_paths({{"FMU", args.fmu.file}}, {});
    fmu_info_command(args.fmu.file, args.fmu.json, std::cout);
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ctde: hybrid systems simulation (continuous time and discrete events)", "ctde"};
  app.set_version_flag("--version", std::string("ctde ") + CTDE_VERSION);
  app.require_subcommand(1);
  CommandLine args;
  add_validate(app, args);
  add_linearize(app, args);
  add_export(app, args);
  add_run(app, args);
  add_sweep(app, args);
  add_plot(app, args);
  add_graph(app, args);
  add_trace(app, args);
  add_types(app, args);
  add_describe(app, args);
  add_fmu(app, args);

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
    if (const std::optional<int> status = dispatch(args)) return *status;
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
