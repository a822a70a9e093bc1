#pragma once
// What the hand-written baselines (bench/ct/dp5_floor.cpp,
// bench/ct/handwritten_arkode.cpp, bench/events/handwritten_ball.cpp) share:
// the counts every one of them reports of a timed run, and the best of
// several runs. Header-only and without ctde, as the baselines are.

#include <utility>

/// What every baseline reports of one run: its wall time in seconds, the
/// solver's accepted steps and its right-hand-side evaluations. A baseline's
/// own run derives from it and adds its other counts.
struct TimedRun {
  double wall_s = 0;
  long steps = 0;
  long rhs_evals = 0;
};

/// The result of the fastest (smallest wall_s) of `repeats` calls of
/// `run()`, which returns a Run; with no repeats, a default Run whose wall_s
/// is 1e300.
template <class Run, class F>
Run best_of(int repeats, const F& run) {
  Run best;
  best.wall_s = 1e300;
  for (int r = 0; r < repeats; ++r) {
    Run next = run();
    if (next.wall_s < best.wall_s) best = std::move(next);
  }
  return best;
}
