#pragma once
/// User actor types for the command: `ctde run --load libmine.so model.json`.
///
/// A plugin is a shared library that exports one C function,
///
///     extern "C" void ctde_register_actors(ctde::ActorRegistry& registry);
///
/// which registers its types (`ctde::register_actor<T>(registry)`), built
/// against the same ctde (it links libctde, as the command does). Loaded
/// libraries stay loaded for the process: their factories are called later.

#include <string>

#include "core/registry.hpp"

namespace ctde::cli {

/// The name of the function a plugin exports.
inline constexpr const char* kPluginFunction = "ctde_register_actors";

/// The actor types the command's model files may use: the built-in ones and
/// those of every plugin loaded so far.
[[nodiscard]] const ActorRegistry& command_actors();

/// Loads the plugin at `path` and adds its types to command_actors().
/// @throws CommandError (status 2) for a library that cannot be loaded, one
///         without ctde_register_actors, or one that registers a type name
///         that is already registered (nothing of it is added then).
void load_plugin(const std::string& path);

}  // namespace ctde::cli
