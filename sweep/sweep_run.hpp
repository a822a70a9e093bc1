#pragma once
/// One run of a sweep: the model loaded with run k's values and seeds,
/// checked and run in memory. The model and sweep are checked once, before
/// any run (check_sweep); a run whose values the model refuses is a failed
/// run, kept with its message.

#include <cstdint>
#include <string>

#include "results/run_record.hpp"
#include "sweep/sweep_spec.hpp"

namespace ctde::sweep {

/// What every run of a sweep shares. Copyable value type.
struct SweepModel {
  std::string path;    ///< the model file, for messages
  std::string folder;  ///< anchors its relative `file` parameters
  std::string text;    ///< the model file's text (read once)
  SweepSpec spec;
};

/// Reads the model file and the sweep file and checks them (check_model).
/// @throws ModelError naming the model or the sweep file and the location.
[[nodiscard]] SweepModel check_sweep(const std::string& model_path, const std::string& sweep_path);

/// Checks that `model` (its text, path, folder and spec filled) runs with
/// its own values and the sweep's stop time, and that every swept name is
/// one of its parameters. `sweep_file` names the sweep file in messages.
/// @throws ModelError naming the model or the sweep file and the location.
void check_model(const SweepModel& model, const std::string& sweep_file);

/// Runs run `k` (< spec.run_count()). Never throws for the model's sake:
/// a refused value or a failed run gives status "error" and the message.
/// The run ends as "interrupted" on SIGINT/SIGTERM (cli/interrupt.hpp).
[[nodiscard]] results::RunRecord run_one(const SweepModel& model, std::uint64_t k);

}  // namespace ctde::sweep
