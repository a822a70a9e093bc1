#pragma once
/// The progress bar of `ctde run`: simulated time against the stop time and
/// the event rate, on stderr when it is a terminal (never into files).

#include <chrono>
#include <cstddef>
#include <string>

#include "core/run_statistics.hpp"

namespace ctde::cli {

/// One line of progress, padded or cut to exactly `width` characters:
/// `[#####.....]   50.0%  t =  5.00 / 10 s    1.2k events/s`. Every field
/// has a fixed width for given start and stop times (the time in fixed point
/// with four significant digits at the stop time, as wide as the wider of
/// start and stop; the rate in 6 columns), so the bar keeps its length all
/// run long and fills from left to right only. The fraction is
/// (time - start_time) / (stop_time - start_time), clamped to [0, 1] (0 when
/// the interval is empty or not finite); `events_per_second` is wall-clock
/// rate (negative or not finite: shown as 0). The bar is dropped when fewer
/// than 10 columns are left for it. Pure: no clock, no I/O.
[[nodiscard]] std::string format_progress(double time, double stop_time, double events_per_second,
                                          std::size_t width, double start_time = 0.0);

/// Draws the bar on a terminal file descriptor, redrawing at most every
/// kRedrawInterval, and clears it at the end. Does nothing at all when the
/// descriptor is not a terminal or it was not enabled. Not copyable, not movable.
class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;
  /// Where the bar reads the time (Clock::now; a test's own clock).
  using Now = Clock::time_point (*)();

  /// The shortest time between two redraws (and before the first one).
  static constexpr std::chrono::milliseconds kRedrawInterval{100};

  /// @param fd where to draw (stderr for the command); drawn only if isatty(fd).
  /// @param start_time, stop_time the run's interval, in seconds.
  /// @param enabled false (--quiet) turns the bar off whatever `fd` is.
  /// @param now the clock of the redraws and the event rate.
  ProgressBar(int fd, double start_time, double stop_time, bool enabled, Now now = &Clock::now);
  /// Clears the bar (finish()).
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ProgressBar(ProgressBar&&) = delete;
  ProgressBar& operator=(ProgressBar&&) = delete;

  /// True when it draws (enabled and a terminal).
  [[nodiscard]] bool active() const { return active_; }

  /// Reports progress: simulated `time` (s) and the run's counters. Cheap
  /// when nothing is due: one clock read. Redraws when kRedrawInterval has
  /// passed since the last draw (or since construction).
  void update(double time, const RunStatistics& stats);

  /// Clears the line if anything was drawn. Further updates draw nothing.
  void finish();

 private:
  void write_text(const std::string& text) const;

  int fd_;
  Now now_;
  double start_time_;
  double stop_time_;
  bool active_;
  bool drawn_ = false;
  std::size_t width_ = 80;
  Clock::time_point started_;
  Clock::time_point last_draw_;
};

}  // namespace ctde::cli
