#pragma once
/// `ctde types` and `ctde describe TYPE`: the actor registry's metadata
/// (core/type_description.hpp) for people and for programs.

#include <ostream>
#include <string>

namespace ctde::cli {

/// `ctde types`: one line per registered type, `Type  family  summary`,
/// aligned; with `json` the JSON array of describe_types().
void types_command(bool json, std::ostream& out);

/// `ctde describe TYPE`: the JSON object of describe_type(), indented.
/// @throws ModelError for an unknown type (naming the closest one).
void describe_command(const std::string& type, std::ostream& out);

}  // namespace ctde::cli
