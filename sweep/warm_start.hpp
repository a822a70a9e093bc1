#pragma once
/// A sweep from a warm start (docs/sweep.md, "Warm start"): the shared
/// prefix of every run, run once with the values not swept up to the sweep's
/// `warm_start.until` T and saved there, and what each run needs to branch
/// from it: the snapshot and the time span every run must keep. The runs
/// themselves are sweep::run_one's (sweep_run.hpp).

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "domains/ctde/run_snapshot.hpp"

namespace ctde::sweep {

struct SweepModel;

/// The warm-up of a sweep. Copyable value type (a SweepModel shares one,
/// read-only, between its runs).
struct WarmStart {
  RunSnapshot snapshot;   ///< the warm-up at T, after the events there
  double start_time = 0;  ///< s, the warm-up's start time: every run's
  double stop_time = 0;   ///< s, the warm-up's stop time: every run's
};

/// The warm-up ended because its stop check said so (Ctrl-C): no run started.
class WarmUpInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs the warm-up of `model` (its spec has warm_start_until): the model
/// with its own values and the sweep's stop time, no actor seeds changed,
/// up to T, paused and saved there (its rows are not kept). Then checks,
/// one swept parameter at a time, that every grid value and run 0's random
/// draws keep the model's structure (the snapshot's `structure`
/// fingerprint) and its start and stop times, so that every run can resume
/// from the snapshot; a value that the model refuses is left to its runs
/// (they fail, as in any sweep).
/// `sweep_file` names the sweep file in messages; `stop` is the warm-up's
/// stop check (Director::set_stop_check; may be empty).
/// @throws WarmUpInterrupted when `stop` ended the warm-up.
/// @throws ModelError located at the sweep file's /warm_start/until (T not
///         a tick in [start, stop) of the run, the warm-up ended before T),
///         /warm_start (an actor cannot save its state: a Python actor, an
///         FMU without FMU states), or the swept parameter's /grid/NAME/i or
///         /random/NAME (it changes the structure or the time span).
[[nodiscard]] std::shared_ptr<const WarmStart> warm_up(const SweepModel& model, const std::string& sweep_file,
                                                       const std::function<bool()>& stop = {});

/// The warm-up as bytes, to ship to the processes that run the runs (Dask
/// tasks): the start time (8 bytes), then a snapshot file's bytes
/// (run/snapshot_file.hpp: its header holds the stop time).
[[nodiscard]] std::vector<char> encode_warm_start(const WarmStart& warm);

/// Reads encode_warm_start's bytes.
/// @throws SnapshotError (core/state_stream.hpp) when they are not a whole warm-up.
[[nodiscard]] WarmStart decode_warm_start(std::span<const char> bytes);

}  // namespace ctde::sweep
