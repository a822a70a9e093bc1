#pragma once
/// The actor library's registry: every built-in actor type of model files.

#include "../core/registry.hpp"

namespace ctde {

/// Adds every built-in actor type to `registry` (to extend it with your own).
void register_builtin_actors(ActorRegistry& registry);

/// A registry holding the built-in actor types.
[[nodiscard]] const ActorRegistry& builtin_actors();

}  // namespace ctde
