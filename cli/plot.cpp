#include "cli/plot.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli/process.hpp"
#include "run/command_error.hpp"
#include "run/output_file.hpp"

#ifndef CTDE_PYTHON
#define CTDE_PYTHON "/usr/bin/python3"
#endif
#ifndef CTDE_PLOT_SCRIPT_SOURCE
#define CTDE_PLOT_SCRIPT_SOURCE ""
#endif
#ifndef CTDE_PLOT_SCRIPT_INSTALL
#define CTDE_PLOT_SCRIPT_INSTALL ""
#endif

namespace ctde::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kScriptName = "plot_results.py";
constexpr int kDotsPerInch = 100;
static_assert(kPlotWidthPixels % kDotsPerInch == 0 && kPlotHeightPixels % kDotsPerInch == 0,
              "the figure size is a whole number of inches");

bool is_file(const fs::path& path) {
  std::error_code error;
  return !path.empty() && fs::is_regular_file(path, error);
}

/// The folder of the running binary, or empty when it cannot be told.
fs::path binary_folder() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : self.parent_path();
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

/// plot_results.py's exit status for a bad results file, signal name or --runs.
constexpr int kScriptBadInput = 3;

/// The first bytes of an HDF5 file (ctde writes no user block before them).
constexpr std::string_view kHdf5Signature("\x89HDF\r\n\x1a\n", 8);
/// A MAT file's text header starts so ("MATLAB 5.0 MAT-file, ...").
constexpr std::string_view kMatHeader = "MATLAB ";

/// The column names of a results CSV (after time and microstep), or nothing
/// for an HDF5 or MAT file, whose signals the script reads and checks (told
/// apart by their first bytes, as the script tells them).
/// @throws CommandError (kExitUsage) when it cannot be read or is none of them.
std::optional<std::vector<std::string>> results_columns(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int reason = errno;
    throw CommandError(kExitUsage, "cannot read RESULTS '" + path + "': " + std::strerror(reason));
  }
  std::string line(kHdf5Signature.size(), '\0');
  in.read(line.data(), static_cast<std::streamsize>(line.size()));
  line.resize(static_cast<std::size_t>(in.gcount()));
  if (line == kHdf5Signature || line.starts_with(kMatHeader)) return std::nullopt;
  in.clear();
  in.seekg(0);
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> cells;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (cells.size() < 2 || cells[0] != "time" || cells[1] != "microstep") {
    throw CommandError(kExitUsage, "RESULTS '" + path +
                                       "' is not a ctde results file: neither a CSV whose first line starts "
                                       "with time,microstep (ctde run -o x.csv) nor an HDF5 (-o x.h5, ctde "
                                       "sweep) or MAT file (-o x.mat)");
  }
  cells.erase(cells.begin(), cells.begin() + 2);
  return cells;
}

/// Checks that every --signals name is a column of some results file.
void check_signals(const std::vector<std::string>& signals, const std::vector<std::string>& known) {
  std::string unknown;
  for (const auto& name : signals) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string element = name + '[';  // a vector signal's name: all its elements
    if (std::any_of(known.begin(), known.end(), [&](const std::string& k) { return k.starts_with(element); }))
      continue;
    unknown += unknown.empty() ? "'" : ", '";
    unknown += name;
    unknown += "'";
  }
  if (unknown.empty()) return;
  std::string message = "--signals: no signal ";
  message += unknown;
  message += " in the results; they have: ";
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (i > 0) message += ", ";
    message += known[i];
  }
  if (known.empty()) message += "(no signals)";
  throw CommandError(kExitUsage, message);
}

/// "the plot was not drawn: PYTHON SCRIPT exit status N".
std::string not_drawn(const PlotTool& tool, const std::string& how) {
  std::string message = "the plot was not drawn: ";
  message += tool.python;
  message += ' ';
  message += tool.script;
  message += ' ';
  message += how;
  return message;
}

/// Runs the tool on `request`, drawing into `output` (request.output or a
/// temporary name for it).
ProcessResult run_plot_tool(const PlotTool& tool, const PlotRequest& request, const std::string& output) {
  std::vector<std::string> arguments = {tool.python, tool.script};
  arguments.insert(arguments.end(), request.results.begin(), request.results.end());
  if (request.describe) {
    arguments.emplace_back("--describe");
  } else {
    arguments.emplace_back("--output=" + output);
  }
  arguments.insert(arguments.end(), {"--width", std::to_string(kPlotWidthPixels / kDotsPerInch), "--height",
                                     std::to_string(kPlotHeightPixels / kDotsPerInch), "--dpi",
                                     std::to_string(kDotsPerInch), "--title=" + request.title});
  if (!request.signals.empty()) {
    std::string option = "--signals=";
    for (std::size_t i = 0; i < request.signals.size(); ++i) {
      if (i > 0) option += ',';
      option += request.signals[i];
    }
    arguments.push_back(option);
  }
  if (!request.runs.empty()) arguments.push_back("--runs=" + request.runs);
  for (const auto& column : request.discrete) arguments.push_back("--discrete=" + column);
  if (request.logx) arguments.emplace_back("--logx");
  if (request.logy) arguments.emplace_back("--logy");
  std::cout.flush();  // what was printed comes before the script's output
  return run_process(arguments);
}

}  // namespace

PlotTool find_plot_tool(const std::string& who) {
  PlotTool tool;
  tool.python = environment("CTDE_PYTHON");
  if (tool.python.empty()) tool.python = CTDE_PYTHON;
  if (access(tool.python.c_str(), X_OK) != 0 || !is_file(tool.python)) {
    std::string message = who;
    message += " needs Python 3 with matplotlib, but '";
    message += tool.python;
    message +=
        "' is not an executable file (Debian: apt-get install python3-matplotlib;"
        " $CTDE_PYTHON names another interpreter)";
    throw CommandError(kExitUsage, message);
  }

  std::vector<fs::path> candidates;
  if (const std::string forced = environment("CTDE_PLOT_SCRIPT"); !forced.empty()) {
    candidates.emplace_back(forced);
  } else {
    if (const fs::path bin = binary_folder(); !bin.empty()) {
      candidates.push_back(bin / ".." / "share" / "ctde" / kScriptName);
    }
    candidates.emplace_back(CTDE_PLOT_SCRIPT_SOURCE);
    candidates.emplace_back(CTDE_PLOT_SCRIPT_INSTALL);
  }
  const auto found = std::find_if(candidates.begin(), candidates.end(), is_file);
  if (found == candidates.end()) {
    std::string message = who;
    message += ": cannot find ";
    message += kScriptName;
    message += "; looked for";
    for (const auto& c : candidates) {
      if (c.empty()) continue;
      message += " '";
      message += c.lexically_normal().string();
      message += "'";
    }
    message += " ($CTDE_PLOT_SCRIPT names it)";
    throw CommandError(kExitUsage, message);
  }
  tool.script = found->lexically_normal().string();
  return tool;
}

void check_plot_path(const std::string& who, const std::string& path) {
  constexpr std::array<std::string_view, 3> kFormats = {".png", ".svg", ".pdf"};
  const std::string extension = fs::path(path).extension().string();
  if (std::find(kFormats.begin(), kFormats.end(), extension) == kFormats.end()) {
    std::string message = who;
    message += ' ';
    message += path;
    message += ": the file name must end in .png, .svg or .pdf";
    throw CommandError(kExitUsage, message);
  }
}

void plot_run_results(const PlotTool& tool, const PlotRequest& request, const std::string& output) {
  const ProcessResult result = run_plot_tool(tool, request, output);
  if (!result.started || result.exit_status != 0) {
    throw CommandError(kExitRunFailed, not_drawn(tool, describe(result)));
  }
}

void plot_command(const PlotRequest& request) {
  std::vector<NamedPath> inputs;
  inputs.reserve(request.results.size());
  for (const auto& path : request.results) inputs.push_back({"RESULTS", path});
  if (request.output.empty() && !request.describe) {
    throw CommandError(kExitUsage, "plot: give -o FILE (.png, .svg or .pdf), or --describe");
  }
  const std::string output = request.describe ? std::string() : request.output;
  check_paths(inputs, {{"-o", output}});
  std::vector<std::string> known;
  bool all_csv = true;  // else the script checks the names, with the same message
  for (const auto& path : request.results) {
    auto columns = results_columns(path);
    all_csv = all_csv && columns.has_value();
    for (auto& name : columns.value_or(std::vector<std::string>())) {
      if (std::find(known.begin(), known.end(), name) == known.end()) known.push_back(std::move(name));
    }
  }
  if (all_csv) check_signals(request.signals, known);
  if (!request.describe) check_plot_path("-o", request.output);
  const PlotTool tool = find_plot_tool("plot");
  std::optional<OutputFile> file;
  if (!request.describe) file.emplace(NamedPath{"-o", request.output}, OutputFile::Writer::kHelper);
  const ProcessResult result = run_plot_tool(tool, request, file ? file->write_path() : std::string());
  if (result.started && result.exit_status == kScriptBadInput) {
    throw CommandError(kExitUsage, "the results cannot be plotted (see the message above)");
  }
  if (!result.started || result.exit_status != 0) {
    throw CommandError(kExitRunFailed, not_drawn(tool, describe(result)));
  }
  if (file) file->commit();
}

}  // namespace ctde::cli
