#pragma once
/// Model files that include others (docs/model-format.md, "Including other
/// model files"): an actor `{"name": "plant", "type": "Composite", "file":
/// "plant.json", "params": {...}}` is the network of another file, its
/// parameters given values by the including file.

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "json_cursor.hpp"
#include "registry.hpp"

namespace ctde {

/// The folders searched for an included file that is not beside the file
/// including it: `given` (`--model-path`, `model_path=`), in order, then
/// those of the environment variable CTDE_MODEL_PATH (separated by ':';
/// empty entries skipped).
[[nodiscard]] std::vector<std::string> model_search_path(const std::vector<std::string>& given);

/// `expression` (muparser syntax) with each name that `renamed` holds
/// replaced by its new name; numbers, operators and other names unchanged.
[[nodiscard]] std::string rename_parameters(std::string_view expression,
                                            const std::map<std::string, std::string>& renamed);

/// Where the included parts of a model came from, for the loader's messages
/// and relative `file` parameters.
struct IncludeOrigins {
  /// An included file's part of the document.
  struct Body {
    std::string file;    ///< the included file, as found ("lib/plant.json")
    std::string folder;  ///< its folder, for its relative `file` parameters
  };
  /// By the composite's node in the document (the inlined body).
  std::unordered_map<const Json*, Body> bodies;
  /// The parameters the includes added to the model, by their name in the
  /// model ("plant__k"): where their value was written.
  std::map<std::string, std::string> parameter_locations;
};

/// Replaces, in `document` (the model file `file`, in `folder`), every
/// actor with a `file` by the network of the file it names, read and
/// checked, at any depth (an included file may include others). Each
/// parameter `p` of an included file becomes the model parameter
/// `<path>__p` (`<path>`: the composite's path, `.` written `__`), with the
/// value its includer gives in `params` or else its own; the numeric
/// parameters of its actors are renamed to match (`registry` tells which
/// parameters are numeric). The result is a model file without includes.
/// `search`: model_search_path().
/// @returns where each inlined part was written.
/// @throws ModelError located in the file that says what is wrong: an
///         included file that is not found, an include cycle (naming the
///         chain of files), a JSON error in an included file (file:line:col),
///         a key or parameter it does not have.
IncludeOrigins inline_includes(Json& document, const std::string& file, const std::string& folder,
                               const ActorRegistry& registry, const std::vector<std::string>& search);

}  // namespace ctde
