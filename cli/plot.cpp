#include "cli/plot.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "cli/command_error.hpp"
#include "cli/process.hpp"

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

}  // namespace

PlotTool find_plot_tool() {
  PlotTool tool;
  tool.python = environment("CTDE_PYTHON");
  if (tool.python.empty()) tool.python = CTDE_PYTHON;
  if (access(tool.python.c_str(), X_OK) != 0 || !is_file(tool.python)) {
    std::string message = "--plot needs Python 3 with matplotlib, but '";
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
    std::string message = "--plot: cannot find ";
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

void check_plot_path(const std::string& path) {
  constexpr std::array<std::string_view, 3> kFormats = {".png", ".svg", ".pdf"};
  const std::string extension = fs::path(path).extension().string();
  if (std::find(kFormats.begin(), kFormats.end(), extension) == kFormats.end()) {
    std::string message = "--plot ";
    message += path;
    message += ": the file name must end in .png, .svg or .pdf";
    throw CommandError(kExitUsage, message);
  }
}

void plot_results(const PlotTool& tool, const std::string& results, const std::string& output,
                  const std::vector<std::string>& discrete, const std::string& title) {
  std::vector<std::string> arguments = {tool.python, tool.script,
                                        results,     output,
                                        "--width",   std::to_string(kPlotWidthPixels / kDotsPerInch),
                                        "--height",  std::to_string(kPlotHeightPixels / kDotsPerInch),
                                        "--dpi",     std::to_string(kDotsPerInch)};
  std::string title_option = "--title=";
  title_option += title;
  arguments.push_back(title_option);
  for (const auto& column : discrete) {
    std::string option = "--discrete=";
    option += column;
    arguments.push_back(option);
  }
  const ProcessResult result = run_process(arguments);
  if (!result.started || result.exit_status != 0) {
    std::string message = "the plot was not drawn: ";
    message += tool.python;
    message += ' ';
    message += tool.script;
    message += ' ';
    message += describe(result);
    throw CommandError(kExitRunFailed, message);
  }
}

}  // namespace ctde::cli
