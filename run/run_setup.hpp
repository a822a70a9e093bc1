#pragma once
/// What `ctde run` checks before it runs, shared with `ctde validate` so
/// that a model `validate` accepts is one `run` starts: the model validated,
/// the director options (with --stop-time), the recorded signals, and the
/// director's own checks (per-state tolerances, durations against the time
/// resolution).

#include <optional>
#include <string>
#include <vector>

#include "../core/flat_model.hpp"
#include "../core/model.hpp"
#include "../core/model_file.hpp"
#include "../core/recorded_signal.hpp"
#include "../core/row_selection.hpp"
#include "../domains/ctde/director.hpp"
#include "../domains/ctde/run_options.hpp"

namespace ctde {

/// One of a model's declared inputs or outputs, resolved: the output port
/// that carries it (an input's is its `Input` actor's `out`).
struct InterfacePort {
  std::string name;     ///< as declared
  RecordedSignal port;  ///< "actor.port", its actor, width and kind
};

/// A model checked for a run. Copyable value type (the flat model refers
/// to the Model's actors: keep the Model alive).
struct RunSetup {
  FlatModel flat;
  RunOptions options;
  std::vector<RecordedSignal> signals;  ///< the model's `record`, or every output
  std::vector<InterfacePort> inputs;    ///< the model's declared inputs, in order
  std::vector<InterfacePort> outputs;   ///< its declared outputs
};

/// Which of a run's results are kept (`--record`, `--rows`): what `ctde run`
/// writes, and what each run of `ctde sweep` keeps. Copyable value type.
struct ResultsFilter {
  /// The signals to record instead of the model's `record` ("a.out", ...), or none.
  std::optional<std::vector<std::string>> record;
  RowSelection rows = RowSelection::kAll;  ///< which rows (core/row_selection.hpp)
};

/// `--rows`'s text: all, output, events or final.
/// @throws ModelError naming --rows for another text.
[[nodiscard]] RowSelection parse_rows(const std::string& text);

/// Refuses rows the run cannot give: `output` without an output_interval
/// in `options` (the model `file`'s director).
/// @throws ModelError located at `file`.
void check_rows(RowSelection rows, const RunOptions& options, const std::string& file);

/// The `--set NAME=VALUE` texts of the command line, in order: NAME is up
/// to the first '=', VALUE the rest (see load_model_file).
/// @throws ModelError for a text without '=' or with an empty NAME.
[[nodiscard]] ParameterOverrides parse_overrides(const std::vector<std::string>& texts);

/// Validates `model` for a run: `stop_time` overrides the director's,
/// `record` the model's record list (each "actor.port", as --record gives them).
/// @throws ModelError naming the file and the JSON location (or --stop-time, --record).
[[nodiscard]] RunSetup set_up_run(Model& model, std::optional<double> stop_time,
                                  const std::optional<std::vector<std::string>>& record = std::nullopt);

/// The signals of a `--record a.out,b.out` text (or `option`'s), in order.
/// @throws ModelError for an empty list or an empty name.
[[nodiscard]] std::vector<std::string> parse_record(const std::string& text,
                                                    const std::string& option = "--record");

/// `model` run to `at` (its events there included; from `resume` when given,
/// which may stand at `at` already; from the start when `at` is empty),
/// then linearized there (Director::linearize): what `ctde linearize` and
/// Python's Model.linearize compute. `inputs` empty: the model's declared
/// inputs (docs/model-format.md, "The model's interface"), named as declared;
/// `outputs` empty: its declared outputs, named as declared, or without
/// those its recorded continuous outputs.
/// @throws ModelError for a wrong model or port; SnapshotError when `resume`
///         does not fit the model; std::runtime_error when the run fails
///         before `at` or a value is not finite.
[[nodiscard]] Director::Linearization linearize_model(Model& model, std::optional<double> at,
                                                      std::optional<RunSnapshot> resume,
                                                      bool parameters_may_differ,
                                                      const std::optional<std::vector<std::string>>& inputs,
                                                      const std::optional<std::vector<std::string>>& outputs);

}  // namespace ctde
