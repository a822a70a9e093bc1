#pragma once
/// One run of a sweep: the model loaded with run k's values and seeds,
/// checked and run in memory. The model and sweep are checked once, before
/// any run (check_sweep); a run whose values the model refuses is a failed
/// run, kept with its message.

#include <cstdint>
#include <functional>
#include <string>

#include "core/registry.hpp"
#include "results/run_record.hpp"
#include "sweep/sweep_spec.hpp"

namespace ctde::sweep {

/// What every run of a sweep shares. Copyable value type (the registry is
/// the caller's: keep it alive).
struct SweepModel {
  std::string path;    ///< the model file, for messages
  std::string folder;  ///< anchors its relative `file` parameters
  std::string text;    ///< the model file's text (read once)
  SweepSpec spec;
  const ActorRegistry* types = nullptr;  ///< the actor types the model may use
};

/// Reads the model file and the sweep file and checks them (check_model)
/// with the actor types `types` (the built-in ones, a plugin's, ...).
/// @throws ModelError naming the model or the sweep file and the location.
[[nodiscard]] SweepModel check_sweep(const std::string& model_path, const std::string& sweep_path,
                                     const ActorRegistry& types);

/// Checks that `model` (its text, path, folder and spec filled) runs with
/// its own values and the sweep's stop time, and that every swept name is
/// one of its parameters. `sweep_file` names the sweep file in messages.
/// @throws ModelError naming the model or the sweep file and the location.
void check_model(const SweepModel& model, const std::string& sweep_file);

/// Runs run `k` (< spec.run_count()). Never throws for the model's sake:
/// a refused value or a failed run gives status "error" and the message.
/// The run ends as "interrupted" when `stop` says so (the director asks it
/// after every step and DE phase: the command's signals, Python's Ctrl-C).
[[nodiscard]] results::RunRecord run_one(const SweepModel& model, std::uint64_t k,
                                         const std::function<bool()>& stop);

}  // namespace ctde::sweep
