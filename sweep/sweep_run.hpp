#pragma once
/// One run of a sweep: the model loaded with run k's values and seeds,
/// checked and run in memory, or, in a warm-started sweep, resumed from the
/// warm-up's snapshot with run k's values (sweep/warm_start.hpp). The model
/// and sweep are checked once, before any run (check_sweep); a run whose
/// values the model refuses is a failed run, kept with its message.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "results/run_record.hpp"
#include "run/run_setup.hpp"
#include "sweep/sweep_spec.hpp"
#include "sweep/warm_start.hpp"

namespace ctde::sweep {

/// What every run of a sweep shares. Copyable value type (the registry is
/// the caller's: keep it alive).
struct SweepModel {
  std::string path;    ///< the model file, for messages
  std::string folder;  ///< anchors its relative `file` parameters
  std::string text;    ///< the model file's text (read once)
  SweepSpec spec;
  const ActorRegistry* types = nullptr;  ///< the actor types the model may use
  /// The warm-up (warm_up()) when spec.warm_start_until is set: made once
  /// (check_sweep makes it before the workers are forked, which inherit it).
  std::shared_ptr<const WarmStart> warm_start;
  std::vector<std::string> model_path = {};  ///< folders searched for its included files (--model-path)
  /// What every run keeps of its results (--record, --rows), as `ctde run` does.
  ResultsFilter filter = {};
};

/// Reads the model file and the sweep file and checks them (check_model)
/// with the actor types `types` (the built-in ones, a plugin's, ...); with
/// a warm start, runs the warm-up (warm_up(), stopped by Ctrl-C or SIGTERM:
/// run/interrupt.hpp). `search`: the folders searched for included model
/// files (`--model-path`); `filter`: what every run keeps (`--record`,
/// `--rows`), checked against the model here. A MODEL that is a sweep file
/// is refused as the two files swapped.
/// @throws ModelError naming the model or the sweep file and the location
///         (or --record, --rows);
///         CommandError (the interrupted status) when a signal ended the warm-up.
[[nodiscard]] SweepModel check_sweep(const std::string& model_path, const std::string& sweep_path,
                                     const ActorRegistry& types, const std::vector<std::string>& search = {},
                                     const ResultsFilter& filter = {});

/// Checks that `model` (its text, path, folder and spec filled) runs with
/// its own values and the sweep's stop time, that every swept name is one
/// of its parameters, and that it records what `model.filter` names (and
/// has an output_interval for `--rows output`). `sweep_file` names the
/// sweep file in messages.
/// @throws ModelError naming the model or the sweep file and the location.
void check_model(const SweepModel& model, const std::string& sweep_file);

/// Runs run `k` (< spec.run_count()). Never throws for the model's sake:
/// a refused value or a failed run gives status "error" and the message.
/// With a warm start (model.warm_start set), the run is the model with run
/// k's values (no actor seeds: the random actors go on with the warm-up's
/// streams) resumed from the warm-up's snapshot; its record holds the rows
/// after T (as `ctde run --resume` writes them), the counters from the
/// start (the warm-up's included) and `warm_start_until` T. The record
/// holds the signals and rows `model.filter` keeps.
/// @pre spec.warm_start_until implies warm_start.
/// The run ends as "interrupted" when `stop` says so (the director asks it
/// after every step and DE phase: the command's signals, Python's Ctrl-C).
[[nodiscard]] results::RunRecord run_one(const SweepModel& model, std::uint64_t k,
                                         const std::function<bool()>& stop);

}  // namespace ctde::sweep
