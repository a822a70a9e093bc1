#pragma once
/// What an actor type offers, as JSON text, from the registry alone: the
/// data behind `ctde types`, `ctde describe TYPE`, and the Python package's
/// ctde.types() / ctde.describe(). The registry's identity (ActorInfo), the
/// ports and parameters the type declares, and the numbered inputs that
/// only appear once it is configured (found by configuring its sample).

#include <string>

#include "registry.hpp"

namespace ctde {

/// Every registered type, sorted by name: a JSON array of objects
/// `{"type", "family", "summary"}`.
[[nodiscard]] std::string describe_types(const ActorRegistry& registry);

/// One type as a JSON object: `type`, `family`, `summary`, `time_mode` (the
/// declared mode: "continuous", "discrete", "constant", "hybrid", or
/// "polymorphic"), `inputs` and `outputs` (each `{"name", "kind", "width"}`,
/// kind "continuous" | "discrete" | "polymorphic" | "constant", width a
/// number or null when inferred; inputs also `optional`; numbered inputs
/// `in0, in1, ...` whose count follows a parameter appear once, named
/// "in<i>", with `"numbered": true`), `parameters` (each `{"name", "kind",
/// "default", "required"}`, kind "scalar" | "vector" | "matrix" | "string" |
/// "file" | "structure", default the value as a model file writes it or
/// null), and `sample_params` (a params object that makes a valid actor).
/// @throws ModelError "unknown actor type 'X'" (with the closest name) for a
///         type the registry does not have.
[[nodiscard]] std::string describe_type(const ActorRegistry& registry, const std::string& type);

}  // namespace ctde
