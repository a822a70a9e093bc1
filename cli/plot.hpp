#pragma once
/// `ctde run --plot`: drawing a results file with scripts/plot_results.py
/// (matplotlib, run by Debian's /usr/bin/python3).

#include <string>
#include <vector>

namespace ctde::cli {

/// The plot's size in pixels (a figure of 10 x 6 inches at 100 dots per inch).
inline constexpr int kPlotWidthPixels = 1000;
inline constexpr int kPlotHeightPixels = 600;

/// The interpreter and the script that draw plots. Copyable value type.
struct PlotTool {
  std::string python;  ///< $CTDE_PYTHON, or /usr/bin/python3
  std::string script;  ///< the plot_results.py found (see find_plot_tool())
};

/// Finds the plot tool before a run. The script is looked for in this order:
/// $CTDE_PLOT_SCRIPT; `<folder of the ctde binary>/../share/ctde/plot_results.py`
/// (an installed, possibly relocated, tree); the source tree's
/// scripts/plot_results.py (a build tree); the configured install location.
/// @throws CommandError (kExitUsage) naming what is missing: the interpreter
///         is not an executable file, or no script is found.
[[nodiscard]] PlotTool find_plot_tool();

/// Checks that `path` names a format the plot can be written in (.png,
/// .svg or .pdf). @throws CommandError (kExitUsage) otherwise.
void check_plot_path(const std::string& path);

/// Draws `results` (a results CSV) into `output`: continuous columns as
/// lines, the columns named in `discrete` as stems.
/// @throws CommandError (kExitRunFailed) when the tool fails; its own
///         message has gone to stderr.
void plot_results(const PlotTool& tool, const std::string& results, const std::string& output,
                  const std::vector<std::string>& discrete, const std::string& title);

}  // namespace ctde::cli
