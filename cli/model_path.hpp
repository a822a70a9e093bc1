#pragma once
/// The folders of `--model-path` (docs/cli.md), searched for included model
/// files (core/model_include.hpp) by every command that reads a model file.

#include <string>
#include <vector>

namespace ctde::cli {

/// The `--model-path` folders, in the order given; main() fills it before
/// a command runs (CTDE_MODEL_PATH's folders follow them: model_search_path()).
[[nodiscard]] inline std::vector<std::string>& command_model_path() {
  static std::vector<std::string> folders;
  return folders;
}

}  // namespace ctde::cli
