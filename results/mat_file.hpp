#pragma once
/// One run's results as a MATLAB file (version 5, through matio), readable
/// by MATLAB and by `scipy.io.loadmat`. Variables: `time` and `microstep`
/// (rows x 1), `signals` (a struct with one field per recorded signal,
/// rows x width, NaN where a discrete signal is absent; the field is the
/// signal's name `actor.port` with every character that MATLAB does not take
/// in a name replaced by '_': `h_out`), `signal_names` (the original names,
/// a cell array in the fields' order), `status` and `message` (text),
/// `statistics` (a struct of the run's counters) and `model` (the model
/// file's text).

#include <string>

#include "results/run_record.hpp"

namespace ctde::results {

/// The MATLAB field name of signal `name`: letters, digits and '_' kept,
/// anything else '_', "s_" in front when it does not start with a letter.
[[nodiscard]] std::string matlab_name(const std::string& name);

/// Writes `record` and `model_text` to the MAT file `path` (created or truncated).
/// @throws WriteError naming the file: it cannot be written, two signals
///         give the same field name, or a field name is longer than
///         MATLAB's 63 characters.
void write_mat_file(const std::string& path, const RunRecord& record, const std::string& model_text);

}  // namespace ctde::results
