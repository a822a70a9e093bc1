#pragma once
/// JSON files other than models (a sweep file, ...) read as model files are:
/// checked as they are parsed, every error located for the user.

#include <string>

#include "json_cursor.hpp"

namespace ctde {

/// `text`, the content of file `file` (its name in messages), parsed as a
/// model file's JSON is (read_model_json): no key twice in an object,
/// nesting at most 64 deep.
/// @throws ModelError for a syntax error, located at "file:line:column" with
///         what was expected there (`JSON syntax error: syntax error while
///         parsing value - unexpected ']'; expected '[', '{', or a literal`),
///         a number beyond a double's range (at its line and column), and a
///         repeated key or too deep a nesting (at "file at /json/pointer").
[[nodiscard]] Json read_json_text(const std::string& text, const std::string& file);

}  // namespace ctde
