#pragma once
/// The JSON model file loader (format: docs/model-format.md).

#include <string>
#include <utility>
#include <vector>

#include "model.hpp"
#include "registry.hpp"

namespace ctde {

/// `--set NAME=VALUE` overrides of model parameters, in order.
using ParameterOverrides = std::vector<std::pair<std::string, std::string>>;

/// The director options a model file may give (docs/model-format.md,
/// "Director options"): a key not listed is refused as the file is read.
/// The run options' reader (domains/ctde/run_options.cpp) reads exactly
/// these, and refuses to read another.
[[nodiscard]] const std::vector<std::string>& director_keys();

/// Reads and builds the model in file `path`; actor types come from `registry`.
/// `overrides` replace model parameters (VALUE is JSON, e.g. `2.5` or `[1,2]`,
/// or else an expression). Relative `file` parameters are taken relative to
/// the model file's folder. A `Composite` with a `file` is the network of
/// that file (model_include.hpp): looked for beside the including file,
/// then in `model_path`'s folders, then in CTDE_MODEL_PATH's. The model is
/// not validated (see validate()).
/// @throws ModelError with the file name and the JSON location: `file:line:col`
///         for syntax errors, `file at /json/pointer` for the rest (in the
///         included file for what is wrong there).
[[nodiscard]] Model load_model_file(const std::string& path, const ActorRegistry& registry,
                                    const ParameterOverrides& overrides = {},
                                    const std::vector<std::string>& model_path = {});

/// As load_model_file, from JSON text; `file` names it in messages and
/// `folder` anchors relative file names (and included files).
[[nodiscard]] Model load_model_text(const std::string& text, const std::string& file,
                                    const ActorRegistry& registry, const ParameterOverrides& overrides = {},
                                    const std::string& folder = ".",
                                    const std::vector<std::string>& model_path = {});

}  // namespace ctde
