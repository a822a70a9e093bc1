#pragma once
/// Plots of results files: `ctde plot` and `ctde run --plot`, both drawn by
/// scripts/plot_results.py (matplotlib, run by Debian's /usr/bin/python3).

#include <string>
#include <vector>

namespace ctde::cli {

/// The plot's size in pixels (a figure of 10 x 6 inches at 100 dots per
/// inch); plots of more than three panels are 150 pixels higher per panel.
inline constexpr int kPlotWidthPixels = 1000;
inline constexpr int kPlotHeightPixels = 600;

/// The interpreter and the script that draw plots. Copyable value type.
struct PlotTool {
  std::string python;  ///< $CTDE_PYTHON, or /usr/bin/python3
  std::string script;  ///< the plot_results.py found (see find_plot_tool())
};

/// What to draw. Copyable value type.
struct PlotRequest {
  std::vector<std::string> results;   ///< results files: CSV, HDF5 (a run or a sweep's) or MAT
  std::string output;                 ///< the plot file (empty with `describe`)
  std::vector<std::string> signals;   ///< the signals to draw (empty: all)
  std::string runs;                   ///< a sweep file's runs to draw, "0,3-5" (empty: all)
  std::vector<std::string> discrete;  ///< the discrete columns (empty: those with empty cells)
  std::string title;
  bool logx = false;      ///< a logarithmic time axis
  bool logy = false;      ///< logarithmic value axes
  bool describe = false;  ///< print the layout as JSON on stdout instead of drawing
};

/// Finds the plot tool before anything is run or written. The script is
/// looked for in this order: $CTDE_PLOT_SCRIPT; `<folder of the ctde
/// binary>/../share/ctde/plot_results.py` (an installed, possibly relocated,
/// tree); the source tree's scripts/plot_results.py (a build tree); the
/// configured install location. `who` names the option or command in messages.
/// @throws CommandError (kExitUsage) naming what is missing: the interpreter
///         is not an executable file, or no script is found.
[[nodiscard]] PlotTool find_plot_tool(const std::string& who);

/// Checks that `path` names a format the plot can be written in (.png,
/// .svg or .pdf); `who` names the option in the message.
/// @throws CommandError (kExitUsage) otherwise.
void check_plot_path(const std::string& who, const std::string& path);

/// `ctde run --plot`: draws the results of a run into `output`.
/// @throws CommandError (kExitRunFailed) when the tool fails; its own
///         message has gone to stderr.
void plot_run_results(const PlotTool& tool, const PlotRequest& request, const std::string& output);

/// `ctde plot`: checks the results files (each exists and is a CSV starting
/// with `time,microstep`, an HDF5 or a MAT file) and the --signals names
/// (of CSV files; the script checks those of the others), then draws or
/// describes.
/// @throws CommandError (kExitUsage) for a missing or foreign file, an
///         unknown signal (naming the known ones), or a malformed row, file
///         or --runs the script finds; (kExitRunFailed) when drawing fails.
void plot_command(const PlotRequest& request);

}  // namespace ctde::cli
